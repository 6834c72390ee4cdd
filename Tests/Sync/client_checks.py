#!/usr/bin/env python3
"""End-to-end checks of `navstack sync` against real servers on a real PostgreSQL.

Run inside scripts/sync-env (which starts PostgreSQL and two navstack-server instances and
exports NAVSTACK_PG_URL, NAVSTACK_SERVER_A/_B, NAVSTACK_SERVER_BIN, NAVSTACK_PG_SOCKET_DIR):

    scripts/sync-env python3 Tests/Sync/client_checks.py --bin .build/debug/navstack [--seeds 1 2 3]

Checks:
  - a recurring instance completed on two replicas offline: after both sync, each holds
    the instance done and one next instance, the same task (one uuid) on both.
  - `navstack watch` on one replica prints the list again when another device's task
    arrives, pulled by its automatic sync.
  - convergence: for each seed, three replicas (store files) run random offline commands
    (adds, edits through drafts, toggles, deletes with their confirmation, moves, undo,
    recurring tasks and their completions on the agenda) and sync in a random order through
    both servers; after a final round (each twice) all three hold identical tasks (uuid,
    title, notes, done, parent, order among siblings, due, rule); every task added and never
    deleted anywhere is there; each series has at most one open instance.
  - kill -9 of the client mid-sync, while a proxy holds back the server's answer to its
    first request (committed on the server, not yet applied in the store): running sync
    again sends everything again, and the server then holds exactly the operations the
    client had to send, each once with its content; another replica receives every task.
  - the server stopped or unreachable: local work goes on, the notice is one line, the
    next sync catches up.
  - a token the server refuses (401) is not kept: the profile keeps what it had.
  - the token off the command line: NAVSTACK_TOKEN and --token-file (a file, a pipe) work and
    are kept in a store of mode 0600; an unreadable file or a token with a line end is
    refused with one line before anything is sent.
Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`.
"""
import argparse
import hashlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

# Every account's operations are sealed: the replicas of these checks share a passphrase.
# (Set for every process these checks start, those in tmux and the other scripts' too.)
PASSPHRASE = "correct horse battery staple"
os.environ["NAVSTACK_SYNC_PASSPHRASE"] = PASSPHRASE
ENV = dict(os.environ, NAVSTACK_SYNC="0", LANG="C.UTF-8")
passed = 0
failed = 0


def seeded():
    """The seed of the draws these checks make (replica ids, and the like): NAVSTACK_TEST_SEED,
    else one drawn for the run. The convergence walks have their own (--seeds)."""
    value = os.environ.get("NAVSTACK_TEST_SEED", "")
    if value and not value.isdigit():
        sys.exit(f"NAVSTACK_TEST_SEED={value}: a seed is a whole number from 0")
    return int(value) if value else random.SystemRandom().randrange(1 << 31)


SEED = seeded()
RNG = random.Random(SEED)


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {what}")
    else:
        failed += 1
        print(f"not ok - {what}" + (f"\n  {detail}" if detail else "")
              + f"\n  (seed {SEED}: NAVSTACK_TEST_SEED={SEED} draws the same again)")


def run(binary, store, *args, stdin=None, env=ENV, timeout=120):
    return subprocess.run([binary, "--store", store, *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=timeout)


# Names this run's accounts apart from earlier runs' on a database that may be reused: not a
# draw of the checks, and not from the seed, so that a run again with the seed meets none
# of the first run's accounts.
RUN = "%04x" % random.SystemRandom().randrange(1 << 16)


def token(name):
    """A new user's token (names are unique to this run: a database may be reused)."""
    out = subprocess.run([os.environ["NAVSTACK_SERVER_BIN"], "--database", os.environ["NAVSTACK_PG_URL"],
                          "user", "add", name + RUN], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def stat_mode(path):
    return os.stat(path).st_mode & 0o777


def psql(sql):
    out = subprocess.run(["psql", "-h", os.environ["NAVSTACK_PG_SOCKET_DIR"], "-p",
                          os.environ["NAVSTACK_PG_URL"].rsplit(":", 1)[1].split("/")[0], "-U", "postgres",
                          "-d", "navstack", "-tAc", sql], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def outbox(store, user):
    """A store's sync state for a profile: how far the server acknowledged its operations,
    and the operations it still has to send, as (replica, seq, millis, counter), sorted
    (the server sees no more of them: their payload is sealed)."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        replica, sent = db.execute("SELECT s.replica, s.sent FROM sync s JOIN profile p ON p.id = s.profile_id "
                                   "WHERE p.name = ?", (user,)).fetchone()
        rows = db.execute("SELECT seq, millis, counter, task, field, value, old FROM sync_outbox o "
                          "JOIN profile p ON p.id = o.profile_id WHERE p.name = ?", (user,)).fetchall()
    finally:
        db.close()
    ops = sorted((replica, seq, millis, counter) for seq, millis, counter, task, field, value, old in rows)
    return {"sent": sent, "ops": ops}


def server_ops(user):
    """Every operation the server holds for a user, as ``outbox`` gives them, sorted, and
    how many of them are kept in clear (none: they are sealed)."""
    lines = psql("SELECT json_build_array(replica, seq, millis, counter, task) FROM op o "
                 f"JOIN account a ON a.id = o.account_id WHERE a.name = '{user}{RUN}'").splitlines()
    rows = [json.loads(line) for line in lines if line]
    return sorted((replica, seq, millis, counter) for replica, seq, millis, counter, _ in rows), \
        sum(1 for row in rows if row[4] != "")


class HoldingProxy:
    """A proxy in front of a server for one connection: it passes the client's bytes on,
    and holds the server's answer back from the client, so that the client waits with
    its request committed on the server. ``answered`` is set when the answer comes."""

    def __init__(self, server):
        parsed = urllib.parse.urlsplit(server)
        self.upstream = (parsed.hostname, parsed.port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.answered = threading.Event()
        self.sockets = [self.listener]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        try:
            client, _ = self.listener.accept()
            server = socket.create_connection(self.upstream)
        except OSError:
            return
        self.sockets += [client, server]
        threading.Thread(target=self.forward, args=(client, server), daemon=True).start()
        try:
            # The server answers once its transaction has committed.
            if server.recv(1):
                self.answered.set()
        except OSError:
            pass

    @staticmethod
    def forward(source, target):
        try:
            while data := source.recv(1 << 16):
                target.sendall(data)
        except OSError:
            pass

    def close(self):
        for sock in self.sockets:
            sock.close()


def export_items(binary, store, user):
    """Every task of the profile's export, parents first: (its item, its parent's item or
    None at the top, its place among its siblings)."""
    out = run(binary, store, "export", "--user", user)
    assert out.returncode == 0, out.stderr
    found = []

    def walk(items, parent):
        for index, item in enumerate(items):
            found.append((item, parent, index))
            walk(item.get("subtasks", []), item)

    walk(json.loads(out.stdout), None)
    return found


def tasks(binary, store, user):
    """Every task as replicas must agree on it, by uuid: its stamps too."""
    return {item["uuid"]: (item["title"], item["notes"], item["done"], parent and parent["uuid"], index, item.get("due"),
                           item.get("recur"), item.get("created"), item.get("modified"), item.get("completed"))
            for item, parent, index in export_items(binary, store, user)}


# navstack's namespace for the uuids of recurring instances (SQLiteStore.nextInstanceUUID).
RECUR_NAMESPACE = bytes([0x6e, 0x61, 0x76, 0x73, 0x74, 0x61, 0x63, 0x6b, 0x2d, 0x72, 0x65, 0x63, 0x75, 0x72, 0x00, 0x01])


def series_key(uuid):
    """The 8 bytes that name a recurring instance's series, as navstack derives them."""
    raw = bytes.fromhex(uuid.replace("-", ""))
    if len(raw) == 16 and raw[6] >> 4 == 8:
        return raw[:8]
    key = bytearray(hashlib.sha256(RECUR_NAMESPACE + b"s" + uuid.lower().encode()).digest()[:8])
    key[6] = key[6] & 0x0F | 0x80
    return bytes(key)


def open_instances(state):
    """The open recurring tasks of a replica's tasks, by series."""
    series = {}
    for uuid, (_title, _notes, done, _parent, _index, due, recur, *_stamps) in state.items():
        if not done and recur and due:
            series.setdefault(series_key(uuid), []).append(uuid)
    return series


def sync(binary, store, server, tok=None):
    args = ["sync", "--server", server] + (["--token", tok] if tok else [])
    return run(binary, store, *args)


def random_commands(rng, label, count):
    """A session of random commands; some fail where they do not apply, as a person's would."""
    lines = []
    for step in range(count):
        roll = rng.random()
        row = rng.randint(1, 4)
        if roll < 0.22:
            lines += ["root", f"add {label}-{step}"]
        elif roll < 0.30:
            lines += ["root", f"open {row}", f"add {label}-{step} sub"]
        elif roll < 0.45:
            lines += ["root", f"open {row}", "edit", f"title {label}-e{step}", "notes from " + label, "save"]
        elif roll < 0.55:
            lines += ["root", f"toggle {row}"]
        elif roll < 0.62:
            lines += ["root", f"delete {row}", "yes"]
        elif roll < 0.72:
            lines += ["root", f"move {row} to top" if rng.random() < 0.3 else f"move {row} to {rng.randint(1, 30)}"]
        elif roll < 0.80:
            lines += ["undo"]
        elif roll < 0.84:
            lines += ["root", "new", f"title {label}-n{step}", "save"]
        elif roll < 0.86:
            lines += ["root", f"add {label}-r{step} due:2026-11-{rng.randint(20, 30)}T09:00 recur:{rng.choice(['daily', 'weekly', 'monthly'])}"]
        elif roll < 0.88:
            lines += ["go agenda", f"toggle {rng.randint(1, 2)}", "root"]
        else:
            lines += ["root", f"open {row}", "edit", f"title {label}-x{step}", "back!"]
    return "\n".join(lines) + "\n"


def converge(binary, seed, workdir):
    rng = random.Random(seed)
    user = f"conv{seed}"
    tok = token(user)
    servers = [os.environ["NAVSTACK_SERVER_A"], os.environ["NAVSTACK_SERVER_B"]]
    stores = [os.path.join(workdir, f"s{seed}-{n}.sqlite") for n in range(3)]
    for n, store in enumerate(stores):
        run(binary, store, "-c", f"login {user}")
        out = sync(binary, store, servers[n % 2], tok)
        assert out.returncode == 0, out.stderr
    conflicts = 0
    for round_ in range(8):
        for n in rng.sample(range(3), 3):
            run(binary, stores[n], stdin=random_commands(rng, f"r{n}s{round_}", rng.randint(3, 12)))
            if rng.random() < 0.7:
                out = sync(binary, stores[n], rng.choice(servers))
                if out.returncode != 0:
                    return f"sync failed: {out.stderr.strip()}"
                conflicts += int(out.stdout.strip().rsplit(" ", 1)[1])
    for _ in range(2):
        for n in range(3):
            out = sync(binary, stores[n], servers[n % 2])
            if out.returncode != 0:
                return f"final sync failed: {out.stderr.strip()}"
    states = [tasks(binary, store, user) for store in stores]
    for n in (1, 2):
        if states[n] != states[0]:
            differ = sorted(set(states[0].items()) ^ set(states[n].items()))[:6]
            return f"replica {n} differs from replica 0: {differ}"
    if not states[0]:
        return "no task at all: the walk did nothing"
    doubled = [uuids for uuids in open_instances(states[0]).values() if len(uuids) > 1]
    if doubled:
        return f"series with more than one open instance: {doubled[:3]}"
    return None


def recurring_offline(binary, workdir, server_a, server_b):
    """One recurring instance completed on two replicas offline: one next instance on both."""
    user = "recurring"
    tok = token(user)
    a, b = os.path.join(workdir, "recur-a.sqlite"), os.path.join(workdir, "recur-b.sqlite")
    # On a fixed clock, in Madrid.
    fixed = dict(ENV, NAVSTACK_NOW="2026-11-27T07:00:00Z", TZ="Europe/Madrid")
    run(binary, a, "-c", f"login {user}", "-c", "add Water the plants due:2026-11-27T09:00 recur:daily", env=fixed)
    out = sync(binary, a, server_a, tok)
    check(out.returncode == 0, "the series is sent from the first replica", out.stderr)
    run(binary, b, "-c", f"login {user}")
    out = sync(binary, b, server_b, tok)
    check(out.returncode == 0 and out.stdout.startswith("sent 0, received "), "the second replica receives it", out.stdout + out.stderr)
    # Offline, both mark the same instance done.
    for store in (a, b):
        out = run(binary, store, "-c", "go agenda", "-c", "toggle 1", env=fixed)
        check(out.returncode == 0, "the instance is marked done on the agenda", out.stderr)
    for store, server in ((a, server_a), (b, server_b), (a, server_a)):
        out = sync(binary, store, server)
        check(out.returncode == 0, "the replicas sync", out.stderr)
    states = [tasks(binary, store, user) for store in (a, b)]
    check(states[0] == states[1], "both replicas hold the same tasks", str(states))
    waters = sorted(v[2] for v in states[0].values() if v[0] == "Water the plants")
    opened = [(uuid, v[5]) for uuid, v in states[0].items() if v[0] == "Water the plants" and not v[2]]
    check(waters == [False, True] and len(opened) == 1 and opened[0][1] == "2026-11-28T08:00:00Z",
          "one instance done and one next instance, due the next day at 09:00 in Madrid", str(states[0]))


def taskwarrior_stamps(binary, workdir, server_a, server_b):
    """A Taskwarrior export imported on one replica reaches another with its entry,
    modified and end: both export the same records to Taskwarrior."""
    user = "stamps"
    tok = token(user)
    a, b = os.path.join(workdir, "stamps-a.sqlite"), os.path.join(workdir, "stamps-b.sqlite")
    export = os.path.join(workdir, "stamps-export.json")
    with open(export, "w") as f:
        json.dump([{"uuid": "1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e01", "description": "Pay rent", "status": "pending",
                    "entry": "20240105T093000Z", "modified": "20240301T120000Z", "due": "20240401T000000Z"},
                   {"uuid": "1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e02", "description": "Call mom", "status": "completed",
                    "entry": "20231201T080000Z", "modified": "20240102T101500Z", "end": "20240102T101500Z"}], f)
    fixed = dict(ENV, NAVSTACK_NOW="2026-12-06T08:00:00Z")
    out = run(binary, a, "import", "--user", user, "--from", "taskwarrior", export, env=fixed)
    check(out.returncode == 0, "a Taskwarrior export is imported", out.stderr)
    out = run(binary, a, "sync", "--user", user, "--server", server_a, "--token", tok)
    check(out.returncode == 0, "the importing replica syncs", out.stderr)
    run(binary, b, "-c", f"login {user}")
    later = dict(ENV, NAVSTACK_NOW="2026-12-07T08:00:00Z")
    out = run(binary, b, "sync", "--server", server_b, "--token", tok, env=later)
    check(out.returncode == 0, "the other replica syncs, a day later", out.stderr)
    exports = [run(binary, store, "export", "--user", user, "--to", "taskwarrior", env=fixed) for store in (a, b)]
    records = [sorted(json.loads(out.stdout), key=lambda r: r["uuid"]) if out.returncode == 0 else out.stderr
               for out in exports]
    stamps = [[(r.get("entry"), r.get("modified"), r.get("end")) for r in found] for found in records]
    check(records[0] == records[1] and stamps[0] == [("20240105T093000Z", "20240301T120000Z", None),
                                                     ("20231201T080000Z", "20240102T101500Z", "20240102T101500Z")],
          "both replicas export the same entry, modified and end to Taskwarrior", str(records))


def watch_sees_other_devices(binary, workdir, server_a, server_b):
    """`navstack watch` on one replica shows what another device sent: its automatic sync
    pulls every 10 s."""
    user = "watcher"
    tok = token(user)
    a, b = os.path.join(workdir, "watch-a.sqlite"), os.path.join(workdir, "watch-b.sqlite")
    run(binary, a, "-c", f"login {user}", "-c", "add First")
    check(sync(binary, a, server_a, tok).returncode == 0, "watch: the first replica sends its task")
    run(binary, b, "-c", f"login {user}")
    check(sync(binary, b, server_b, tok).returncode == 0, "watch: the second replica receives it")
    watch = subprocess.Popen([binary, "--store", b, "watch", "--format", "json", "navstack://tasks"],
                             env=dict(ENV, NAVSTACK_SYNC="1"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(iter(watch.stdout.readline, "")), daemon=True)
    reader.start()
    deadline = time.monotonic() + 15
    while not lines and time.monotonic() < deadline:
        time.sleep(0.05)
    first = json.loads(lines[0]) if lines else {}
    check([item["title"] for item in first.get("items", [])] == ["First"], "watch: the list as the second replica has it",
          str(lines[:1]))
    run(binary, a, "-c", "tab tasks", "-c", "root", "-c", "add Second")
    check(sync(binary, a, server_a).returncode == 0, "watch: the first replica sends a second task")
    deadline = time.monotonic() + 25
    while not any('"Second"' in line for line in lines) and time.monotonic() < deadline:
        time.sleep(0.1)
    seen = [json.loads(line) for line in lines if '"Second"' in line]
    check(bool(seen) and [item["title"] for item in seen[0]["items"]] == ["Second", "First"],
          "watch: the other device's task shows within 25 s, pulled by automatic sync", str(lines))
    watch.stdin.close()
    check(watch.wait(timeout=15) == 0, "watch: the end of its input ends it with status 0", watch.stderr.read())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/navstack")
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    workdir = tempfile.mkdtemp(prefix="navstack-sync-client.")
    server_a, server_b = os.environ["NAVSTACK_SERVER_A"], os.environ["NAVSTACK_SERVER_B"]

    recurring_offline(binary, workdir, server_a, server_b)
    taskwarrior_stamps(binary, workdir, server_a, server_b)
    watch_sees_other_devices(binary, workdir, server_a, server_b)

    for seed in args.seeds:
        problem = converge(binary, seed, workdir)
        check(problem is None, f"seed {seed}: three replicas converge through both servers", problem or "")

    # A client killed with kill -9 in the middle of a large sync: the server has committed
    # its first request, and the client has not read the answer, which a proxy holds back.
    user = "killed"
    tok = token(user)
    a, b = os.path.join(workdir, "kill-a.sqlite"), os.path.join(workdir, "kill-b.sqlite")
    # The store knows the account's key first, so that the request the proxy holds is the
    # first that carries operations.
    run(binary, a, "-c", f"login {user}")
    out = sync(binary, a, server_a, tok)
    check(out.returncode == 0 and out.stdout.startswith("sent 0,"), "the kill test's store syncs once, empty",
          out.stdout + out.stderr)
    records = "\n".join(json.dumps({"title": f"imported {i}"}) for i in range(60000)) + "\n"
    out = run(binary, a, "import", "--user", user, "-", stdin=records)
    check(out.returncode == 0, "60,000 tasks imported for the kill test", out.stderr)
    proxy = HoldingProxy(server_a)
    process = subprocess.Popen([binary, "--store", a, "sync", "--server", proxy.address, "--token", tok], env=ENV,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answered = proxy.answered.wait(60)
    running = process.poll() is None
    process.send_signal(signal.SIGKILL)
    process.wait()
    proxy.close()
    held = int(psql(f"SELECT count(*) FROM op o JOIN account a ON a.id = o.account_id WHERE a.name = '{user}{RUN}'"))
    check(answered and running and 0 < held < 60000,
          f"kill -9 landed mid-sync: the server had committed a first request ({held:,} operations) and answered, "
          "and the client still waited for the answer", f"answered {answered}, running {running}, the server holds {held}")
    state = outbox(a, user)
    check(state["sent"] == 0 and len(state["ops"]) == 60000,
          "the killed client had not applied the answer: nothing marked sent, all 60,000 operations still to send",
          f"sent {state['sent']}, {len(state['ops'])} in the outbox")
    again = sync(binary, a, server_b)
    check(again.returncode == 0 and again.stdout.startswith("sent 60000,"), "sync after kill -9 sends them all again",
          again.stdout + again.stderr)
    stored, clear = server_ops(user)
    check(stored == state["ops"] and clear == 0,
          "the server holds every operation the client had to send exactly once (sealed), and no other",
          f"{len(stored)} on the server, {len(state['ops'])} sent; first differences: "
          f"{sorted(set(stored) ^ set(state['ops']))[:3]}")
    run(binary, b, "-c", f"login {user}")
    got = sync(binary, b, server_a, tok)
    same = tasks(binary, a, user) == tasks(binary, b, user)
    check(got.returncode == 0 and same and len(tasks(binary, b, user)) == 60000,
          "the other replica receives all 60,000 tasks", got.stderr)

    # The server unreachable: local work goes on, one notice line, the next sync catches up.
    user = "offline"
    tok = token(user)
    c, d = os.path.join(workdir, "off-c.sqlite"), os.path.join(workdir, "off-d.sqlite")
    run(binary, c, "-c", f"login {user}")
    sync(binary, c, "http://127.0.0.1:9", tok)
    auto = dict(os.environ, LANG="C.UTF-8")
    auto.pop("NAVSTACK_SYNC", None)
    start = time.monotonic()
    out = run(binary, c, "-c", "add Written offline", "-c", "add Also offline", env=auto)
    took = time.monotonic() - start
    notices = [line for line in out.stderr.splitlines() if "sync" in line]
    check(out.returncode == 0 and "Also offline" in out.stdout, "commands work while the server is unreachable", out.stderr)
    check(len(notices) == 1 and "kept" in notices[0], "one notice line says the changes are kept", repr(out.stderr))
    check(took < 5, f"the unreachable server held the run {took:.2f} s (the budget is 2 s a sync)")
    out = sync(binary, c, server_a)
    check(out.returncode == 0 and out.stdout.startswith("sent 2,"), "the next sync sends what was written offline",
          out.stdout + out.stderr)
    run(binary, d, "-c", f"login {user}")
    sync(binary, d, server_b, tok)
    titles = sorted(t[0] for t in tasks(binary, d, user).values())
    check(titles == ["Also offline", "Written offline"], "another replica receives them", str(titles))

    # Auto sync: a change made with a configured profile reaches the server by itself.
    out = run(binary, c, "-c", "root", "-c", "add Sent by itself", env=auto)
    sync(binary, d, server_b)
    titles = sorted(t[0] for t in tasks(binary, d, user).values())
    check("Sent by itself" in titles, "a change is synced by itself after the command", out.stderr + str(titles))

    # A refused token is not kept: the profile keeps the server and token it had.
    out = run(binary, c, "sync", "--server", server_b, "--token", "not-a-token")
    check(out.returncode == 1 and len(out.stderr.splitlines()) == 1 and "refused the token" in out.stderr
          and "not kept" in out.stderr,
          "a sync with a wrong token fails with one line saying it is not kept", out.stderr)
    out = run(binary, c, "sync")
    check(out.returncode == 0 and out.stdout.startswith("sent "), "the next sync uses the token kept before",
          out.stdout + out.stderr)
    e = os.path.join(workdir, "off-e.sqlite")
    run(binary, e, "-c", f"login {user}")
    run(binary, e, "sync", "--server", server_a, "--token", "not-a-token")
    out = run(binary, e, "sync")
    check(out.returncode == 1 and "no sync server" in out.stderr,
          "a first sync with a wrong token leaves the profile without a server", out.stdout + out.stderr)

    # Tokens off the command line: NAVSTACK_TOKEN and --token-file (a file or a pipe), each
    # kept in the store, which stays private to its owner.
    hidden = "hidden"
    hidden_token = token(hidden)
    f, g = os.path.join(workdir, "tok-f.sqlite"), os.path.join(workdir, "tok-g.sqlite")
    run(binary, f, "-c", f"login {hidden}", "-c", "add Sent with the token from the environment")
    out = run(binary, f, "sync", "--server", server_a, env=dict(ENV, NAVSTACK_TOKEN=hidden_token))
    check(out.returncode == 0 and out.stdout.startswith("sent 1,"), "a sync with the token in NAVSTACK_TOKEN works",
          out.stdout + out.stderr)
    run(binary, f, "-c", "add Sent with the token kept")
    out = run(binary, f, "sync")
    check(out.returncode == 0 and stat_mode(f) == 0o600,
          "the token from NAVSTACK_TOKEN is kept, in a store only its owner can read (0600)",
          f"{out.stdout}{out.stderr} mode {stat_mode(f):o}")
    token_file = os.path.join(workdir, "token.txt")
    with open(token_file, "w") as file:
        file.write(f"  {hidden_token}\n")
    run(binary, g, "-c", f"login {hidden}")
    out = run(binary, g, "sync", "--server", server_b, "--token-file", token_file)
    titles = sorted(t[0] for t in tasks(binary, g, hidden).values())
    check(out.returncode == 0 and titles == ["Sent with the token from the environment", "Sent with the token kept"],
          "a sync with --token-file (spaces and line end around the token ignored) works", out.stderr + str(titles))
    out = subprocess.run([binary, "--store", g, "sync", "--token-file", "/dev/stdin"], input=hidden_token, capture_output=True,
                         text=True, env=ENV)
    check(out.returncode == 0, "--token-file reads a pipe", out.stderr)
    bad = run(binary, g, "sync", "--token-file", token_file + ".missing")
    check(bad.returncode == 1 and bad.stderr.count("\n") == 1 and "cannot read" in bad.stderr,
          "a --token-file that cannot be read: one line, exit 1", bad.stderr)
    bad = run(binary, g, "sync", env=dict(ENV, NAVSTACK_TOKEN=hidden_token + "\r\nX-Injected: 1"))
    check(bad.returncode == 64 and "NAVSTACK_TOKEN" in bad.stderr and hidden_token not in bad.stderr,
          "a token with a line end is refused before anything is sent (exit 64), without showing it", bad.stderr)
    out = run(binary, g, "sync")
    check(out.returncode == 0, "the refused token did not replace the one kept", out.stderr)

    # Two users never see each other's tasks.
    check(not any(t[0].startswith("imported") for t in tasks(binary, d, user).values()),
          "one user's tasks never reach another user's replica")

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
