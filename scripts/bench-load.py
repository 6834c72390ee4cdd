#!/usr/bin/env python3
"""Target 9 of scripts/bench: one navstack-server near its database's limit.

Runs inside scripts/sync-env (PostgreSQL; the server binary is NAVSTACK_SERVER_BIN):

    scripts/sync-env python3 scripts/bench-load.py --out RESULT.json

Starts a server of its own on that PostgreSQL and drives it with simulated replicas, no
client processes: each replica is a keep-alive HTTP/1.1 connection that syncs in a loop, as
automatic sync does after commands: two syncs of three send 1–5 operations (sealed payloads
of 200 random bytes, as a replica's are), one sends nothing and only asks what is new. Four
replicas share an account (so their syncs pull one another's operations and wait on the
account's lock as real devices do); every account has a key, and each run (the generator's
and pgbench's, at each concurrency) has accounts of its own, empty as it starts. At 16, 64 and 256 concurrent
replicas it reports syncs/s, operations/s, and the p50 and p99 of each sync as the replica
saw it (from the request's first byte out to the answer's last byte in).

Beside it, in the same run, on the same database, `pgbench` at the same concurrency runs
exactly the statement the server runs for one such sync once it holds the token's account
(one function that confirms the token, takes the account's lock, inserts and reads the page
after `after`, or for a sync that sends nothing one that confirms the token and reads the
page), the same mix of syncs: the limit of this design on this machine. (The first sync of
each token is looked up first, one statement more; warm-up covers it.)

Then 1,000 replicas each open a connection, sync once and stay connected, idle: the
server's resident memory is read from /proc while they are held, and a sync on another
connection must still be answered.

Also prints where the time went: CPU seconds of the server, of PostgreSQL and of the
generator (this process) during each run.
"""
import argparse
import asyncio
import base64
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from proccpu import cpu_seconds, postgres_cpu  # noqa: E402

PG_URL = os.environ["NAVSTACK_PG_URL"]
SERVER_BIN = os.environ["NAVSTACK_SERVER_BIN"]
REPLICAS_PER_ACCOUNT = 4
CONCURRENCY = [16, 64, 256]
IDLE = 1000
# How pgbench sends its statements (--pgbench-mode).
MODE = "prepared"
RUN = "%04x" % random.SystemRandom().randrange(1 << 16)


def psql(*commands):
    args = ["psql", PG_URL, "-X", "-Atq", "-v", "ON_ERROR_STOP=1"]
    for command in commands:
        args += ["-c", command]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Server:
    def __init__(self, workdir):
        self.port = free_port()
        self.log = open(os.path.join(workdir, "load-server.log"), "w")
        self.process = subprocess.Popen(
            [SERVER_BIN, "--database", PG_URL, "--listen", f"127.0.0.1:{self.port}", "--log-level", "warning",
             "--max-connections", str(IDLE + 300)], stdout=self.log, stderr=subprocess.STDOUT,
            # In a session of its own, as a service runs (scripts/lib/postgres.sh says why).
            start_new_session=True)
        for _ in range(600):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if b" 200 " in s.recv(100):
                        return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise SystemExit(f"bench-load: navstack-server stopped; see {self.log.name}")
            time.sleep(0.05)
        raise SystemExit("bench-load: navstack-server did not answer /health")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def make_accounts(count):
    """(account id, token) for `count` new accounts, each with a key record; each account
    also gets a token `pgbench-ID` for pgbench's lookup of the same kind."""
    accounts = []
    for n in range(count):
        name = f"load{n}-{RUN}"
        out = subprocess.run([SERVER_BIN, "--database", PG_URL, "--log-level", "warning", "user", "add", name],
                             capture_output=True, text=True, check=True)
        accounts.append((int(psql(f"SELECT id FROM account WHERE name = '{name}'")), out.stdout.strip()))
    ids = ",".join(str(a) for a, _ in accounts)
    psql(f"UPDATE account SET key = 'load-bench-record-' || id WHERE id IN ({ids})",
         f"INSERT INTO token (sha256, account_id) SELECT sha256(convert_to('pgbench-' || id, 'UTF8')), id "
         f"FROM account WHERE id IN ({ids})")
    return accounts


PAYLOADS = [base64.b64encode(os.urandom(200)).decode() for _ in range(512)]


class Replica:
    def __init__(self, token, rng):
        self.token = token
        self.replica = "%032x" % rng.getrandbits(128)
        self.seq = 0
        self.after = 0
        self.rng = rng
        self.turn = rng.randrange(3)

    def body(self):
        """The next sync's body and how many operations it sends."""
        self.turn += 1
        count = 0 if self.turn % 3 == 0 else self.rng.randint(1, 5)
        now = int(time.time() * 1000)
        ops = []
        for _ in range(count):
            self.seq += 1
            ops.append({"seq": self.seq, "millis": now, "counter": 0, "sealed": self.rng.choice(PAYLOADS)})
        return json.dumps({"replica": self.replica, "after": self.after, "ops": ops}).encode(), count

    def head(self, length):
        return (f"POST /v1/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {self.token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n").encode()


async def exchange(reader, writer, replica):
    """One sync over the connection; its operations count. Raises on anything but 200."""
    body, count = replica.body()
    writer.write(replica.head(len(body)) + body)
    status = await reader.readline()
    length = None
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length is None:
        raise RuntimeError(f"an answer without Content-Length: {status!r}")
    answer = await reader.readexactly(length)
    if b" 200 " not in status:
        raise RuntimeError(f"{status.decode().strip()}: {answer[:200]!r}")
    replica.after = json.loads(answer)["last"]
    return count


async def drive(port, accounts, concurrency, seconds, warmup):
    """`concurrency` replicas syncing for `seconds` after `warmup`: syncs, operations and
    each sync's latency within the measured window."""
    rng = random.Random(concurrency)
    replicas = [Replica(accounts[(i // REPLICAS_PER_ACCOUNT) % len(accounts)][1], rng) for i in range(concurrency)]
    latencies, ops, errors = [], [0], []
    start = time.monotonic()
    measure_from, stop_at = start + warmup, start + warmup + seconds

    async def run(replica):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while True:
                began = time.monotonic()
                if began >= stop_at:
                    return
                count = await exchange(reader, writer, replica)
                ended = time.monotonic()
                if began >= measure_from:
                    latencies.append(ended - began)
                    ops[0] += count
        except Exception as error:  # noqa: BLE001 - every failure is counted and shown
            errors.append(str(error))
        finally:
            writer.close()

    await asyncio.gather(*(run(r) for r in replicas))
    return latencies, ops[0], errors


# The statements of Sources/NavStackServer/OperationLog+Statements.swift (and their order
# in OperationLog.sync), with pgbench's variables for the bindings: a change there comes here.
# Each pgbench client is a replica of its own in each run (`run`, the concurrency) whose
# seqs only go up (five a sync), as a replica's do: a seq drawn at random met one it had sent
# before with another stamp now and then, which the push refuses (409) and which ended the run.
PGBENCH_SCRIPT = r"""
\set acct :first_account + (:client_id / 4) % :accounts
\set kind random(0, 2)
\if :kind = 0
\set n 0
\else
\set n random(1, 5)
\endif
\set seq :seq + 5
\if :n > 0
SELECT o_highest AS after, * FROM navstack_token_push_page(
    'pgbench-' || :acct::bigint, :acct::bigint, 'pgbench' || :run::bigint || '-' || :client_id::bigint,
    ARRAY(SELECT :seq::bigint + g FROM generate_series(1, :n::integer) g),
    ARRAY(SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint FROM generate_series(1, :n::integer)),
    ARRAY(SELECT 0 FROM generate_series(1, :n::integer)),
    ARRAY(SELECT ''::text FROM generate_series(1, :n::integer)),
    ARRAY(SELECT ''::text FROM generate_series(1, :n::integer)),
    ARRAY(SELECT :payload::text FROM generate_series(1, :n::integer)),
    ARRAY(SELECT ''::text FROM generate_series(1, :n::integer)),
    :after::bigint, 10001, 1)
\aset
\else
SELECT o_highest AS after, * FROM navstack_token_page(
    'pgbench-' || :acct::bigint, :acct::bigint, :after::bigint, 'pgbench' || :run::bigint || '-' || :client_id::bigint, 10001)
\aset
\endif
"""


def pgbench(workdir, accounts, concurrency, seconds):
    """pgbench's transactions/s and each transaction's p50 and p99 (seconds), from its log."""
    script = os.path.join(workdir, "sync.pgbench")
    with open(script, "w") as f:
        f.write(PGBENCH_SCRIPT)
    first = min(a for a, _ in accounts)
    assert sorted(a for a, _ in accounts) == list(range(first, first + len(accounts)))
    prefix = os.path.join(workdir, f"pgbench-{concurrency}")
    for name in os.listdir(workdir):
        if name.startswith(f"pgbench-{concurrency}."):
            os.remove(os.path.join(workdir, name))
    # The same share of replicas per account as the generator's.
    used = max(1, min(len(accounts), concurrency // REPLICAS_PER_ACCOUNT))
    out = subprocess.run(
        ["pgbench", "-n", "-M", MODE, "-c", str(concurrency), "-j", "2", "-T", str(seconds),
         "-D", f"accounts={used}", "-D", f"first_account={first}", "-D", "after=0", "-D", "seq=0", "-D", f"run={concurrency}", "-D", f"payload={PAYLOADS[0]}",
         "-l", "--log-prefix", prefix, "-f", script, PG_URL], capture_output=True, text=True,
        # The setting the server's connections start with.
        env=dict(os.environ, PGOPTIONS="-c enable_bitmapscan=off -c enable_seqscan=off"))
    if out.returncode != 0:
        raise SystemExit(f"bench-load: pgbench failed: {out.stderr.strip()[-2000:]}")
    tps = float(re.search(r"tps = ([\d.]+)", out.stdout).group(1))
    latencies = []
    for name in os.listdir(workdir):
        if name.startswith(f"pgbench-{concurrency}."):
            with open(os.path.join(workdir, name)) as f:
                latencies += [int(line.split()[2]) / 1e6 for line in f if line.strip()]
    return tps, latencies


async def idle_connections(port, accounts, count):
    """`count` connections, each after one sync, held open; the server's RSS while they are
    held, and whether a sync on a new connection is answered meanwhile."""
    rng = random.Random(count)
    held = []
    for i in range(count):
        replica = Replica(accounts[i % len(accounts)][1], rng)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await exchange(reader, writer, replica)
        held.append(writer)
    await asyncio.sleep(2)
    probe = Replica(accounts[0][1], rng)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    began = time.monotonic()
    await exchange(reader, writer, probe)
    answered = time.monotonic() - began
    writer.close()
    return held, answered


def main():
    global MODE, CONCURRENCY, IDLE
    # Stopped from outside, it still stops its server (the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="where the results go, as JSON")
    parser.add_argument("--seconds", type=float, default=10, help="each measured run (default 10)")
    parser.add_argument("--warmup", type=float, default=2, help="syncs not counted first (default 2)")
    parser.add_argument("--pgbench-mode", default="prepared", choices=["prepared", "extended"],
                        help="pgbench's -M: prepared statements (the default), or parsed anew each time")
    parser.add_argument("--only", type=int, action="append", help="only this many replicas (repeatable)")
    parser.add_argument("--idle", type=int, default=IDLE, help=f"idle connections held at the end (default {IDLE})")
    parser.add_argument("--no-pgbench", action="store_true",
                        help="the generator alone: to compare two servers, run after run (no ratio; not for scripts/bench)")
    args = parser.parse_args()
    MODE = args.pgbench_mode
    IDLE = args.idle
    if args.only:
        CONCURRENCY = args.only
    workdir = tempfile.mkdtemp(prefix="navstack-load-")
    server = Server(workdir)
    results = {"machine": f"{os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') >> 30} GiB",
               "runs": []}
    try:
        # Each run, the generator's and pgbench's at each concurrency, on accounts of its
        # own, empty when it starts: a run's new replicas pulled what the runs before had
        # written to the accounts they shared (some 130,000 operations at 64, in pages of
        # 10,000 during the measured time), not the small syncs this target measures.
        def per_run(concurrency):
            return max(1, concurrency // REPLICAS_PER_ACCOUNT)
        accounts = make_accounts(sum(2 * per_run(c) for c in CONCURRENCY))
        unused = list(accounts)
        me = os.getpid()
        for concurrency in CONCURRENCY:
            mine, theirs, unused = (unused[:per_run(concurrency)], unused[per_run(concurrency):2 * per_run(concurrency)],
                                    unused[2 * per_run(concurrency):])
            before = (cpu_seconds([server.process.pid]), postgres_cpu(), cpu_seconds([me]))
            began = time.monotonic()
            latencies, ops, errors = asyncio.run(drive(server.port, mine, concurrency, args.seconds, args.warmup))
            wall = time.monotonic() - began
            after = (cpu_seconds([server.process.pid]), postgres_cpu(), cpu_seconds([me]))
            if errors:
                raise SystemExit(f"bench-load: {len(errors)} syncs failed at {concurrency}, first: {errors[0]}")
            # The line printed for the run: the generator's figures, pgbench's, where the CPU went.
            syncs = (f"   9 at {concurrency}: {len(latencies) / args.seconds:.0f} syncs/s "
                     f"({ops / args.seconds:.0f} ops/s), p50 {percentile(latencies, 50) * 1000:.1f} ms, "
                     f"p99 {percentile(latencies, 99) * 1000:.1f} ms")
            cpu = (f"CPU s over {wall:.1f} s: server {after[0] - before[0]:.1f}, "
                   f"PostgreSQL {after[1] - before[1]:.1f}, generator {after[2] - before[2]:.1f}")
            if args.no_pgbench:
                print(f"{syncs}; {cpu}", file=sys.stderr)
                continue
            pg_before = postgres_cpu()
            bench_began = time.monotonic()
            tps, pg_latencies = pgbench(workdir, theirs, concurrency, int(args.seconds))
            bench_wall = time.monotonic() - bench_began
            pg_after = postgres_cpu()
            run = {
                "replicas": concurrency, "syncs_per_s": len(latencies) / args.seconds, "ops_per_s": ops / args.seconds,
                "p50_ms": percentile(latencies, 50) * 1000, "p99_ms": percentile(latencies, 99) * 1000,
                "pgbench_tps": tps, "pgbench_p50_ms": percentile(pg_latencies, 50) * 1000,
                "pgbench_p99_ms": percentile(pg_latencies, 99) * 1000,
                "cpu_s": {"server": after[0] - before[0], "postgres": after[1] - before[1], "generator": after[2] - before[2],
                          "wall": wall, "postgres_under_pgbench": pg_after - pg_before, "pgbench_wall": bench_wall},
            }
            results["runs"].append(run)
            print(f"{syncs}; pgbench {tps:.0f} tps, p50 {run['pgbench_p50_ms']:.1f} ms, "
                  f"p99 {run['pgbench_p99_ms']:.1f} ms; {cpu}", file=sys.stderr)

        async def idle():
            held, answered = await idle_connections(server.port, accounts, IDLE)
            rss = rss_mb(server.process.pid)
            for writer in held:
                writer.close()
            return rss, answered

        rss, answered = asyncio.run(idle())
        results["idle"] = {"connections": IDLE, "server_rss_mb": rss, "sync_answered_ms": answered * 1000}
        print(f"   9 idle: {IDLE} keep-alive connections held, server RSS {rss:.0f} MB; "
              f"a sync meanwhile answered in {answered * 1000:.1f} ms", file=sys.stderr)
    finally:
        server.stop()
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
