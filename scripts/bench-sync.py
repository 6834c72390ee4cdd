#!/usr/bin/env python3
"""Target 8 of scripts/bench: sync through navstack-server on PostgreSQL.

Runs inside scripts/sync-env (PostgreSQL and two server instances; see that script):

    scripts/sync-env python3 scripts/bench-sync.py --bin .build/release/navstack --out RESULT.json

8a. One replica imports TASKS tasks (100,000) and pushes them with `navstack sync` through
    server A; a second replica pulls them through server B. Both timed, against psql's
    `\\copy` of the same op rows (exported from the server's table) into a fresh table of
    the op table's shape (same columns, primary key, unique index and foreign key).
    Checked: the second replica ends with every task.
8b. CLIENTS replicas (store files) of USERS users, all running at once as processes, each
    making ROUNDS rounds of CHANGES changes (adds, toggles, title edits through the edit
    screen) piped with NAVSTACK_SYNC=0 and a `navstack sync` after each round, alternating
    servers A and B. Measured: operations accepted by the servers per second of wall time,
    and the p99 of the servers' own times for /v1/sync requests (the `ms=` of their request
    log lines). Checked: the server took exactly the operations the clients sent (those it
    holds, none twice, and those dropped behind a snapshot, by each replica's highest seq
    dropped, every replica's seqs without a gap), and after a final sync every replica of
    a user holds the same number of tasks. Where the time went: CPU seconds of the
    clients, the two servers and PostgreSQL over the load.
    With --nice-clients N the load runs a second time (new accounts) with every client
    process at `nice -n N`: the two cores go to the servers and PostgreSQL first, as if
    the clients ran on machines of their own, which is how the servers' own latency is
    seen apart from the lab's sharing of two cores among 50 client processes.
10. (--parts join) A new replica joins an account of JOIN_TASKS tasks (10,000) whose
    history holds JOIN_HISTORY operations (1,000,000: the import undone and redone, synced
    each time, snapshots made on the way), and an account of the same tasks with
    JOIN_TASKS operations (the import): each join timed (`navstack sync` of a new store,
    key derivation included), alternating. Checked: every joining replica holds every task.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from proccpu import cpu_seconds, postgres_cpu  # noqa: E402

# Every account's operations are sealed end to end: its replicas share a passphrase.
ENV = dict(os.environ, NAVSTACK_SYNC="0", LANG="C.UTF-8", NAVSTACK_SYNC_PASSPHRASE="correct horse battery staple")
SERVERS = [os.environ["NAVSTACK_SERVER_A"], os.environ["NAVSTACK_SERVER_B"]]
RUN = "%04x" % random.SystemRandom().randrange(1 << 16)


def run(binary, store, *args, stdin=None, nice=0):
    niced = ["nice", "-n", str(nice)] if nice else []
    out = subprocess.run([*niced, binary, "--store", store, *args], input=stdin, capture_output=True, text=True, env=ENV)
    if out.returncode != 0:
        raise SystemExit(f"bench-sync: navstack {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout


def sync(binary, store, server, tok=None, nice=0):
    """Seconds taken and the three counts of `sent N, received N, conflicts N`."""
    start = time.monotonic()
    out = run(binary, store, "sync", "--server", server, *(["--token", tok] if tok else []), nice=nice)
    took = time.monotonic() - start
    counts = [int(n) for n in re.findall(r"\d+", out.strip().splitlines()[-1])]
    return took, counts


def token(name):
    out = subprocess.run([os.environ["NAVSTACK_SERVER_BIN"], "--database", os.environ["NAVSTACK_PG_URL"],
                          "user", "add", name], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def psql_args():
    port = os.environ["NAVSTACK_PG_URL"].rsplit(":", 1)[1].split("/")[0]
    return ["psql", "-h", os.environ["NAVSTACK_PG_SOCKET_DIR"], "-p", port, "-U", "postgres", "-d", "navstack",
            "-v", "ON_ERROR_STOP=1", "-qtA"]


def psql(*commands):
    args = psql_args()
    for command in commands:
        args += ["-c", command]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()


def task_count(binary, store, user):
    def count(items):
        return sum(1 + count(item.get("subtasks", [])) for item in items)
    return count(json.loads(run(binary, store, "export", "--user", user)))


def one_to_one(binary, workdir, tasks, runs):
    pushes, pulls, copies, sent, received, complete = [], [], [], [], [], True
    with open(f"{workdir}/tasks.jsonl", "w") as out:
        for i in range(tasks):
            out.write(json.dumps({"title": f"Task number {i}"}) + "\n")
    for n in range(runs):
        user = f"one{n}"
        account = f"{user}-{RUN}"
        tok = token(account)
        a, b = f"{workdir}/one{n}-a.sqlite", f"{workdir}/one{n}-b.sqlite"
        run(binary, a, "import", "--user", user, f"{workdir}/tasks.jsonl")
        run(binary, a, "-c", f"login {user}")
        run(binary, b, "-c", f"login {user}")
        took, counts = sync(binary, a, SERVERS[0], tok)
        pushes.append(took)
        sent.append(counts[0])
        took, counts = sync(binary, b, SERVERS[1], tok)
        pulls.append(took)
        received.append(counts[1])
        got = task_count(binary, b, user)
        complete = complete and got == tasks
        print(f"   8a run {n + 1}: push {pushes[-1] * 1000:.0f} ms (sent {sent[-1]}), "
              f"pull {pulls[-1] * 1000:.0f} ms (received {received[-1]}), B holds {got:,} tasks", file=sys.stderr)
        # psql's own COPY of the same rows into a fresh table of the op table's shape.
        rows = f"{workdir}/op-{n}.copy"
        account_id = psql(f"SELECT id FROM account WHERE name = '{account}'")
        psql(f"\\copy (SELECT * FROM op WHERE account_id = {account_id} ORDER BY server_seq) TO '{rows}'")
        psql("DROP TABLE IF EXISTS op_copy",
             "CREATE TABLE op_copy (LIKE op INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)",
             "ALTER TABLE op_copy ADD FOREIGN KEY (account_id) REFERENCES account")
        start = time.monotonic()
        psql(f"\\copy op_copy FROM '{rows}'")
        copies.append(time.monotonic() - start)
        copied = int(psql("SELECT count(*) FROM op_copy"))
        psql("DROP TABLE op_copy")
        print(f"   8a run {n + 1}: psql \\copy of the {copied:,} op rows {copies[-1] * 1000:.0f} ms", file=sys.stderr)
    return {"tasks": tasks, "runs": runs, "push_ms": [t * 1000 for t in pushes], "pull_ms": [t * 1000 for t in pulls],
            "copy_ms": [t * 1000 for t in copies], "sent": sent, "received": received, "complete": complete}


def joining(binary, workdir, tasks, history, runs):
    """Target 10: a new replica joins an account of `tasks` tasks whose history holds
    `history` operations (the import undone and redone, synced each time), and
    one of the same tasks with `tasks` operations (the import), each timed `runs` times,
    alternating."""
    path = f"{workdir}/join-tasks.jsonl"
    with open(path, "w") as out:
        for i in range(tasks):
            out.write(json.dumps({"title": f"Task number {i}", "notes": f"Notes of task {i}"}) + "\n")
    accounts = {}
    for name in ("small", "big"):
        account = f"join-{name}-{RUN}"
        tok = token(account)
        a = f"{workdir}/join-{name}-a.sqlite"
        run(binary, a, "import", "--user", "ana", path)
        run(binary, a, "-c", "login ana")
        made = sync(binary, a, SERVERS[0], tok)[1][0]
        while name == "big" and made < history:
            # Each sync sends the deletes and creates of one undo and redo (an import
            # undone and redone before a sync goes out as what it left).
            run(binary, a, "-c", "undo", "-c", "redo")
            made += sync(binary, a, SERVERS[0])[1][0]
        account_id = psql(f"SELECT id FROM account WHERE name = '{account}'")
        held = int(psql(f"SELECT count(*) FROM op WHERE account_id = {account_id}"))
        snapshot = psql(f"SELECT coalesce(max(server_seq), 0) FROM snapshot WHERE account_id = {account_id}")
        accounts[name] = {"token": tok, "history": made, "held": held, "snapshot": int(snapshot), "join_ms": [],
                          "received": [], "complete": True}
        print(f"   10 {name}: {tasks:,} tasks, {made:,} operations of history, {held:,} held by the server"
              f" (snapshot through {snapshot})", file=sys.stderr)
    for n in range(runs):
        for name, account in accounts.items():
            b = f"{workdir}/join-{name}-b{n}.sqlite"
            run(binary, b, "-c", "login ana")
            took, counts = sync(binary, b, SERVERS[1], account["token"])
            got = task_count(binary, b, "ana")
            account["join_ms"].append(took * 1000)
            account["received"].append(counts[1])
            account["complete"] = account["complete"] and got == tasks
            print(f"   10 run {n + 1}, {name}: joined in {took * 1000:.0f} ms (received {counts[1]:,}), holds {got:,} tasks",
                  file=sys.stderr)
    return {"tasks": tasks, **{name: {k: v for k, v in account.items() if k != "token"} for name, account in accounts.items()}}


def change_session(rng, label, changes, count):
    """`changes` changes: adds, toggles and title edits of the first tasks on the list."""
    lines = []
    for step in range(changes):
        roll = rng.random()
        if count == 0 or roll < 0.4:
            lines += ["root", f"add {label}-{step}"]
            count += 1
        elif roll < 0.7:
            lines += ["root", f"toggle {rng.randint(1, min(count, 20))}"]
        else:
            lines += ["root", f"open {rng.randint(1, min(count, 20))}", "edit", f"title {label}-t{step}", "save"]
    return "\n".join(lines) + "\n", count


def children_cpu():
    """CPU seconds of this process's children that ended (the client processes)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load(binary, workdir, clients, users, rounds, changes, nice=0, label="load"):
    names = [f"{label}{u}" for u in range(users)]
    tokens = {name: token(f"{name}-{RUN}") for name in names}
    replicas = [(f"{workdir}/{label}{c}.sqlite", names[c % users]) for c in range(clients)]
    for store, user in replicas:
        run(binary, store, "-c", f"login {user}")
        sync(binary, store, SERVERS[0], tokens[user])
    logs = [os.environ["NAVSTACK_SERVER_A_LOG"], os.environ["NAVSTACK_SERVER_B_LOG"]]
    offsets = [os.path.getsize(log) for log in logs]

    def client(c):
        store, user = replicas[c]
        rng = random.Random(c)
        sent, count = 0, 0
        for r in range(rounds):
            session, count = change_session(rng, f"c{c}r{r}", changes, count)
            run(binary, store, stdin=session, nice=nice)
            _, counts = sync(binary, store, SERVERS[(c + r) % 2], nice=nice)
            sent += counts[0]
        return sent

    server_pids = []
    for name in ["NAVSTACK_SERVER_A_PID_FILE", "NAVSTACK_SERVER_B_PID_FILE"]:
        with open(os.environ[name]) as f:
            server_pids.append(int(f.read().strip()))
    before = (children_cpu(), cpu_seconds(server_pids), postgres_cpu())
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        sent = sum(pool.map(client, range(clients)))
    wall = time.monotonic() - start
    after = (children_cpu(), cpu_seconds(server_pids), postgres_cpu())
    cpu = dict(zip(["clients", "servers", "postgres"], (a - b for a, b in zip(after, before))))

    latencies = []
    for log, offset in zip(logs, offsets):
        with open(log, errors="replace") as f:
            f.seek(offset)
            for line in f:
                if "path=/v1/sync" in line:
                    found = re.search(r"\bms=([0-9.]+)", line)
                    if found:
                        latencies.append(float(found.group(1)))
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else 0.0

    # A final sync of every replica, twice, through alternating servers.
    for turn in range(2):
        for c, (store, user) in enumerate(replicas):
            sent += sync(binary, store, SERVERS[(c + turn) % 2])[1][0]
    ids = ",".join(psql(f"SELECT id FROM account WHERE name = '{name}-{RUN}'") for name in names)
    stored, distinct = (int(v) for v in psql(
        f"SELECT count(*), count(DISTINCT (account_id, replica, seq)) FROM op WHERE account_id IN ({ids})").split("|"))
    # Operations a snapshot covered are dropped, each replica's highest seq dropped kept: what
    # the server took of a replica is that seq and the operations it holds after it, and its
    # seqs run from 1 with no gap when that is also the highest it holds or dropped.
    taken, through = (int(v) for v in psql(
        f"WITH held AS (SELECT account_id, replica, count(*) AS n, max(seq) AS top FROM op "
        f"WHERE account_id IN ({ids}) GROUP BY account_id, replica), "
        f"dropped AS (SELECT account_id, replica, seq FROM dropped_seq WHERE account_id IN ({ids})) "
        f"SELECT coalesce(sum(coalesce(dropped.seq, 0) + coalesce(held.n, 0)), 0), "
        f"coalesce(sum(greatest(coalesce(held.top, 0), coalesce(dropped.seq, 0))), 0) "
        f"FROM held FULL JOIN dropped USING (account_id, replica)").split("|"))
    counts = {}
    for store, user in replicas:
        counts.setdefault(user, set()).add(task_count(binary, store, user))
    same = all(len(v) == 1 for v in counts.values())
    print(f"   8b{' (clients at nice ' + str(nice) + ')' if nice else ''}: {clients} clients × {rounds} rounds of {changes} changes in {wall:.1f} s; sent {sent:,} operations, "
          f"the op table holds {stored:,} ({distinct:,} distinct), the server took {taken:,} (seqs through "
          f"{through:,}; the rest dropped behind snapshots); {len(latencies)} sync requests, p99 {p99:.1f} ms; "
          f"tasks per user: {', '.join(f'{u}: {sorted(v)}' for u, v in sorted(counts.items()))}; CPU seconds over the load: "
          f"clients {cpu['clients']:.1f}, servers {cpu['servers']:.1f}, PostgreSQL {cpu['postgres']:.1f}", file=sys.stderr)
    return {"clients": clients, "users": users, "rounds": rounds, "changes": changes, "wall_s": wall, "sent": sent,
            "stored": stored, "distinct": distinct, "taken": taken, "through": through, "requests": len(latencies),
            "p99_ms": p99, "nice": nice, "cpu": cpu,
            "median_ms": statistics.median(latencies) if latencies else 0.0, "same": same,
            "tasks": {u: sorted(v) for u, v in counts.items()}}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--tasks", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--users", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--parts", default="a,b")
    parser.add_argument("--nice-clients", type=int, default=0,
                        help="also run 8b with the client processes at this niceness (0: not)")
    parser.add_argument("--join-tasks", type=int, default=10000)
    parser.add_argument("--join-history", type=int, default=1000000)
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    workdir = tempfile.mkdtemp(prefix="navstack-bench-sync.")
    result = {}
    if "a" in args.parts.split(","):
        print(f"8a. {args.tasks:,} tasks from one replica to another through the server…", file=sys.stderr)
        result["a"] = one_to_one(binary, workdir, args.tasks, args.runs)
    if "b" in args.parts.split(","):
        print(f"8b. {args.clients} concurrent clients × {args.rounds * args.changes} changes…", file=sys.stderr)
        result["b"] = load(binary, workdir, args.clients, args.users, args.rounds, args.changes)
        if args.nice_clients:
            print(f"8b. the same, the clients at nice {args.nice_clients}…", file=sys.stderr)
            result["b_nice"] = load(binary, workdir, args.clients, args.users, args.rounds, args.changes,
                                    nice=args.nice_clients, label="niced")
    if "join" in args.parts.split(","):
        print(f"10. joining an account of {args.join_tasks:,} tasks: {args.join_history:,} operations of history "
              f"vs {args.join_tasks:,}…", file=sys.stderr)
        result["join"] = joining(binary, workdir, args.join_tasks, args.join_history, args.runs)
    with open(args.out, "w") as out:
        json.dump(result, out)
    subprocess.run(["rm", "-rf", workdir])


if __name__ == "__main__":
    main()
