# A throw-away PostgreSQL and navstack-server instances on it, for the sync scripts and
# tests. Sourced, not run. Prints nothing but errors.
#
#   pg_start DIR PORT          a cluster in DIR/data on 127.0.0.1:PORT with database navstack
#   pg_stop DIR [MODE]         stops it (MODE immediate by default, or fast); safe to repeat
#   server_start BIN DBURL PORT LOG [TLS]
#                              navstack-server on 127.0.0.1:PORT, logging to LOG, its pid in
#                              LOG's name with .pid; returns once /health answers 200; with
#                              TLS, a folder of scripts/lib/tls.sh's certificates, it serves
#                              https with them
#   server_stop [PORT]         stops the server started on PORT, or all of them

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

# PostgreSQL refuses to run as root: then the cluster belongs to this unprivileged user.
PG_USER=navstack-pg

# pg_bin — the newest /usr/lib/postgresql/*/bin, installing Debian's postgresql if needed.
pg_bin() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ]; then
    ensure_packages postgresql
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  fi
  [ -n "$bin" ] || { echo "navstack: PostgreSQL is not installed (no /usr/lib/postgresql/*/bin)" >&2; return 1; }
  echo "$bin"
}

# pg_as COMMAND… — runs COMMAND as the cluster's owner: $PG_USER when we are root.
pg_as() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$PG_USER" -- "$@"
  else
    "$@"
  fi
}

pg_start() {
  local dir=$1 port=$2 bin
  [ -n "$dir" ] && [ -n "$port" ] || { echo "usage: pg_start DIR PORT" >&2; return 64; }
  bin=$(pg_bin) || return 1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ "$(id -u)" -eq 0 ]; then
    if ! id -u "$PG_USER" >/dev/null 2>&1; then
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$PG_USER" >&2 || return 1
    fi
    # The socket goes in DIR, so DIR belongs to the cluster's owner; every folder above
    # it must let that user through.
    chown "$PG_USER" "$dir"
    chmod 0755 "$dir"
    if ! runuser -u "$PG_USER" -- test -w "$dir"; then
      echo "navstack: $PG_USER cannot reach $dir (a folder above it is private); use a folder under /tmp" >&2
      return 1
    fi
  fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    if ! pg_as "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1; then
      cat "$dir/initdb.log" >&2
      return 1
    fi
  fi
  if ! pg_as "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    if ! pg_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=400" start >/dev/null; then
      echo "navstack: PostgreSQL did not start on port $port:" >&2
      tail -n 20 "$dir/postgres.log" >&2
      return 1
    fi
  fi
  local tries=0
  until "$bin/pg_isready" -q -h "$dir" -p "$port"; do
    tries=$((tries + 1))
    [ "$tries" -lt 300 ] || { echo "navstack: PostgreSQL on port $port is not ready" >&2; return 1; }
    sleep 0.1
  done
  if [ -z "$(psql -h "$dir" -p "$port" -U postgres -d postgres -Atqc "SELECT 1 FROM pg_database WHERE datname = 'navstack'")" ]; then
    psql -h "$dir" -p "$port" -U postgres -d postgres -qc "CREATE DATABASE navstack" >/dev/null || return 1
  fi
}

pg_stop() {
  local dir=$1 mode=${2:-immediate} bin
  [ -n "$dir" ] || { echo "usage: pg_stop DIR [immediate|fast]" >&2; return 64; }
  [ -f "$dir/data/postmaster.pid" ] || return 0
  bin=$(pg_bin) || return 1
  pg_as "$bin/pg_ctl" -D "$dir/data" -m "$mode" -w -t 60 stop >/dev/null 2>&1 || true
}

# The pid files of the servers this shell started, by port.
declare -gA NAVSTACK_SERVER_PID_FILES=()

server_start() {
  local bin=$1 url=$2 port=$3 log=$4 tls=${5:-}
  [ $# -eq 4 ] || [ $# -eq 5 ] || { echo "usage: server_start BIN DBURL PORT LOG [TLS]" >&2; return 64; }
  local pid_file="${log%.log}.pid" tls_options=() health=(http://127.0.0.1:$port/health)
  if [ -n "$tls" ]; then
    tls_options=(--tls-cert "$tls/server.pem" --tls-key "$tls/server.key")
    health=(--cacert "$tls/ca.pem" "https://127.0.0.1:$port/health")
  fi
  # In a session of its own, as a service manager (systemd) or pg_ctl starts a daemon: the
  # kernel then shares the cores between the server and this session's commands as it does
  # between a service and a user's programs (autogroup), not among all their threads alike,
  # which under a load of client processes on the same cores left every request waiting
  # for a core (docs/performance.md, target 8). This shell has no job control, so setsid
  # execs in place and $! is the server's pid.
  setsid "$bin" --database "$url" --listen "127.0.0.1:$port" "${tls_options[@]}" >>"$log" 2>&1 &
  local pid=$!
  # Not a job of this shell: a server killed on purpose is not reported as one.
  disown "$pid"
  echo "$pid" >"$pid_file"
  NAVSTACK_SERVER_PID_FILES[$port]=$pid_file
  local tries=0
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "${health[@]}")" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "navstack: navstack-server on port $port stopped; its log:" >&2
      tail -n 20 "$log" >&2
      return 1
    fi
    tries=$((tries + 1))
    [ "$tries" -lt 600 ] || { echo "navstack: navstack-server on port $port did not answer /health" >&2; return 1; }
    sleep 0.05
  done
}

server_stop() {
  local ports=("$@") port pid
  [ ${#ports[@]} -gt 0 ] || ports=("${!NAVSTACK_SERVER_PID_FILES[@]}")
  for port in "${ports[@]}"; do
    local pid_file=${NAVSTACK_SERVER_PID_FILES[$port]:-}
    [ -n "$pid_file" ] && [ -f "$pid_file" ] || continue
    pid=$(cat "$pid_file")
    # SIGTERM lets it finish its requests; then it is waited for, briefly.
    if kill "$pid" 2>/dev/null; then
      local tries=0
      while kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 100 ]; do
        sleep 0.05
        tries=$((tries + 1))
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pid_file"
    unset "NAVSTACK_SERVER_PID_FILES[$port]"
  done
}
