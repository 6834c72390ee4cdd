# Shared set-up for scripts/run and scripts/test: finds Swift and installs the Debian
# packages navstack needs when they are missing. Sourced, not run.

# Swift from /opt/swift when it is not on PATH already.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "navstack: swift is not installed (expected on PATH or in /opt/swift)" >&2
  exit 1
fi

# ensure_packages PACKAGE… — installs the Debian packages that are not installed yet.
ensure_packages() {
  local missing=()
  local package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "navstack: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >&2
}

# The C libraries navstack links, with the static archives the release build uses
# (libssl-dev: OpenSSL 3, for navstack sync over https).
BUILD_PACKAGES=(libedit-dev libsqlite3-dev libncurses-dev libbsd-dev libmd-dev libssl-dev)
# What scripts/test runs besides: a terminal (tmux), the shells whose completion scripts
# are loaded, faketime for a machine whose clock is ahead (Tests/Sync/defect_checks.py),
# openssl to make the certificates of Tests/Sync/tls_checks.py, the time-zone database
# that NavStackTimeTests read and hold to the system's `date`, and Taskwarrior and
# todo.txt's todo.sh (todo-txt), the real programs the imports and exports are checked
# against, both ways (Tests/EndToEndTests).
TEST_PACKAGES=(tmux python3 zsh fish faketime openssl tzdata taskwarrior todotxt-cli)

# build_release — builds .build/release/navstack as one static executable: the Swift
# runtime, SQLite, libedit, OpenSSL and the C library linked in. Nothing is loaded at
# launch, so navstack starts in about a millisecond; OpenSSL is started only by a sync
# over https. libedit's own libraries (terminfo, libbsd, libmd) are named because a static
# link does not follow their dependencies; libssl and libcrypto need no flag (COpenSSL's
# module map names both, in that order).
# The static link warns that getaddrinfo needs the host's glibc at run time: it would load
# the NSS modules /etc/nsswitch.conf names from the host. navstack looks a host name up
# only to sync, and then with glibc's own "files dns" (/etc/hosts and DNS, built into the
# C library; Sources/CPosix/shim.h), so it loads nothing from the host. libcrypto's
# warnings (getaddrinfo, gethostbyname, dlopen) are about parts navstack never calls:
# socket BIOs and loadable engines and providers.
# Exclusive access is checked when compiling, and at run time in debug builds (which the
# unit tests run); the release build leaves out the run-time checks, about 5% of a long
# piped session (scripts/bench, target 5).
# Copies and destroys of values are compiled as code of their own (`-disable-type-layout`),
# as debug builds compile them, rather than as calls through the runtime's generic value
# witnesses, which save code size: 5.7% fewer instructions for an edit cycle and for a
# toggle, 2.4-3.3% at start-up, about 50 KB more binary (docs/performance.md).
build_release() {
  swift build -c release --product navstack -Xswiftc -static-executable -Xswiftc -enforce-exclusivity=unchecked \
    -Xswiftc -Xfrontend -Xswiftc -disable-type-layout -Xlinker -ltinfo -Xlinker -lbsd -Xlinker -lmd "$@" >&2
}
