#!/usr/bin/env python3
"""End-to-end checks of sync's end-to-end encryption, against real servers on a real
PostgreSQL (docs/sync.md, "End-to-end encryption"):

    scripts/sync-env python3 Tests/Sync/seal_checks.py --bin .build/release/navstack

Checks:
  - after two replicas sync tasks with distinctive titles and notes through both servers,
    `pg_dump` of the server's database holds none of them, nor a task's uuid: only each
    operation's replica, seq and stamp are in clear, and the account's key record;
  - the store keeps the derived key, never the passphrase; automatic sync needs none;
  - a wrong passphrase is refused with the contract's one line, exit 1, before anything is
    applied or sent: the store's tasks and sync state are as they were;
  - a payload moved to another operation in the database (or changed there) is refused
    by the client: one line naming the operation, nothing applied;
  - two devices of a new account making its key at once (one held by a proxy): the second
    takes the account's key with the same passphrase, or is refused with another;
  - an account that synced in clear before (operations as a client of the earlier
    protocol sends them) moves to encryption at its first sync with a passphrase: every
    task is kept, the operations in clear are dropped from the server, a replica that joins
    afterwards gets every task from the sealed log, and the earlier client's next push in
    clear is refused, saying to update.
Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`.
"""
import argparse
import base64
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import client_checks
from client_checks import ENV, PASSPHRASE, HoldingProxy, check
# POST /v1/sync with a body as a client of the earlier protocol sends it.
from defect_checks import post

RUN = client_checks.RUN  # names this run's accounts (see client_checks)
SERVER_A = os.environ["NAVSTACK_SERVER_A"]
SERVER_B = os.environ["NAVSTACK_SERVER_B"]
PG_URL = os.environ["NAVSTACK_PG_URL"]


def run(binary, store, *args, env=ENV):
    return subprocess.run([binary, "--store", store, *args], capture_output=True, text=True, env=env, timeout=120)


def token(name):
    out = subprocess.run([os.environ["NAVSTACK_SERVER_BIN"], "--database", PG_URL, "--log-level", "warning",
                          "user", "add", name + RUN], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def psql(sql):
    return subprocess.run(["psql", PG_URL, "-Atqc", sql], capture_output=True, text=True, check=True).stdout.strip()


def pg_dump():
    return subprocess.run(["pg_dump", PG_URL], capture_output=True, text=True, check=True).stdout


def exported(binary, store, user):
    """The profile's tasks: (title, notes, done, parent title), sorted."""
    return sorted((item["title"], item.get("notes", ""), item.get("done", False), parent and parent["title"])
                  for item, parent, _ in client_checks.export_items(binary, store, user))


def uuids(binary, store, user):
    return [item["uuid"] for item, _, _ in client_checks.export_items(binary, store, user)]


def sync_row(store):
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return db.execute("SELECT replica, server, token, stamped, outbox, sent, pulled, seal_state, seal_key, "
                          "seal_record FROM sync").fetchall()
    finally:
        db.close()


def nothing_readable(binary, work):
    user = "sealed"
    tok = token(user)
    a, b = os.path.join(work, "sealed-a.sqlite"), os.path.join(work, "sealed-b.sqlite")
    secrets = ["Quarterly tax return for Ophelia", "Buy a ring for Horatio", "Call Dr. Polonius about the MRI"]
    notes = "safe code 4-8-15-16-23-42"
    commands = ["-c", f"login {user}"]
    for title in secrets:
        commands += ["-c", "root", "-c", f"add {title}"]
    run(binary, a, *commands)
    run(binary, a, "-c", "root", "-c", "open 1", "-c", "edit", "-c", f"notes {notes}", "-c", "save")
    out = run(binary, a, "sync", "--server", SERVER_A, "--token", tok)
    check(out.returncode == 0 and out.stdout.startswith("sent "), "a first sync seals the account's operations",
          out.stdout + out.stderr)
    run(binary, b, "-c", f"login {user}")
    out = run(binary, b, "sync", "--server", SERVER_B, "--token", tok)
    check(out.returncode == 0 and exported(binary, b, user) == exported(binary, a, user),
          "another replica with the passphrase gets every task, notes included", out.stderr)
    # A device with tasks of its own joins: its first sync takes the account's first page
    # with the key and still sends its own tasks.
    c = os.path.join(work, "sealed-c.sqlite")
    run(binary, c, "-c", f"login {user}", "-c", "add Written on the third machine before it joined")
    out = run(binary, c, "sync", "--server", SERVER_A, "--token", tok)
    run(binary, a, "sync")
    check(out.returncode == 0 and out.stdout.startswith("sent 1, ")
          and any(t[0] == "Written on the third machine before it joined" for t in exported(binary, a, user)),
          "a device joining with a task of its own sends it at its first sync", out.stdout + out.stderr)
    run(binary, b, "-c", "root", "-c", "open 2", "-c", "edit", "-c", "title Renamed on the second machine", "-c", "save")
    run(binary, b, "sync")
    run(binary, a, "sync")
    check(any(t[0] == "Renamed on the second machine" for t in exported(binary, a, user)),
          "an edit made on one replica reaches the other")
    dump = pg_dump()
    found = [secret for secret in secrets + [notes, "Renamed on the second machine", "Ophelia", "dentist"]
             + uuids(binary, a, user) if secret in dump]
    held = int(psql(f"SELECT count(*) FROM op o JOIN account a ON a.id = o.account_id WHERE a.name = '{user}{RUN}'"))
    clear = int(psql(f"SELECT count(*) FROM op o JOIN account a ON a.id = o.account_id "
                     f"WHERE a.name = '{user}{RUN}' AND o.task <> ''"))
    check(held > 0 and clear == 0 and not found,
          f"pg_dump of the server's database holds no title, note nor task id ({held} operations, all sealed)",
          f"found {found}, {clear} in clear")
    with open(a, "rb") as file:
        raw = file.read()
    rows = sync_row(a)
    check(PASSPHRASE.encode() not in raw and rows and rows[0][7] == 3 and len(base64.b64decode(rows[0][8], validate=True)) == 32,
          "the store keeps the derived key (32 bytes), never the passphrase", str(rows))
    auto = {key: value for key, value in ENV.items() if key not in ("NAVSTACK_SYNC", "NAVSTACK_SYNC_PASSPHRASE")}
    out = run(binary, a, "-c", "root", "-c", "add Synced by itself", env=auto)
    run(binary, b, "sync")
    check(out.returncode == 0 and "sync" not in out.stderr
          and any(t[0] == "Synced by itself" for t in exported(binary, b, user)),
          "automatic sync needs no passphrase once the key is kept", out.stderr)
    return user, tok, a


def wrong_passphrase(binary, work, user, tok):
    c = os.path.join(work, "wrong.sqlite")
    run(binary, c, "-c", f"login {user}", "-c", "add Local only")
    # The server and token are kept first (a run without the passphrase, not at a terminal).
    first = run(binary, c, "sync", "--server", SERVER_A, "--token", tok,
                env={key: value for key, value in ENV.items() if key != "NAVSTACK_SYNC_PASSPHRASE"})
    check(first.returncode == 1 and "has no passphrase" in first.stderr,
          "without a passphrase (not at a terminal), sync says how to give one, exit 1", first.stderr)
    before = (exported(binary, c, user), sync_row(c))
    out = run(binary, c, "sync", env=dict(ENV, NAVSTACK_SYNC_PASSPHRASE="not the passphrase"))
    check(out.returncode == 1 and out.stdout == ""
          and out.stderr == "navstack: sync: the passphrase does not open this account's tasks\n",
          "a wrong passphrase: the contract's one line, exit 1", out.stdout + out.stderr)
    check((exported(binary, c, user), sync_row(c)) == before,
          "a wrong passphrase leaves the store as it was: nothing applied, nothing marked sent", str(sync_row(c)))
    out = run(binary, c, "sync")
    check(out.returncode == 0 and out.stdout.startswith("sent "), "with the right one the same store syncs",
          out.stdout + out.stderr)


def moved_payload(binary, work, user, tok):
    """A payload moved to another operation in the database does not open: the replica sets
    that one aside, says so once naming its replica, and applies the rest."""
    account = psql(f"SELECT id FROM account WHERE name = '{user}{RUN}'")
    first, second = psql(f"SELECT server_seq FROM op WHERE account_id = {account} ORDER BY server_seq LIMIT 2").split()
    moved_replica = psql(f"SELECT replica FROM op WHERE account_id = {account} AND server_seq = {first}")
    whole = os.path.join(work, "whole.sqlite")
    run(binary, whole, "-c", f"login {user}")
    run(binary, whole, "sync", "--server", SERVER_B, "--token", tok)
    psql(f"UPDATE op SET value = (SELECT value FROM op WHERE account_id = {account} AND server_seq = {second}) "
         f"WHERE account_id = {account} AND server_seq = {first}")
    d = os.path.join(work, "moved.sqlite")
    run(binary, d, "-c", f"login {user}")
    out = run(binary, d, "sync", "--server", SERVER_B, "--token", tok)
    lines = out.stderr.splitlines()
    check(out.returncode == 0 and len(lines) == 1 and "set aside 1 operation(s) from replica " + moved_replica in lines[0],
          "a payload moved to another operation in the database is set aside, naming its replica, once", out.stderr)
    got, everything = exported(binary, d, user), exported(binary, whole, user)
    check(0 < len(got) and set(got) <= set(everything) and len(got) >= len(everything) - 1,
          "every other operation of the answer was applied", f"{got} of {everything}")
    again = run(binary, d, "sync")
    check(again.returncode == 0 and again.stderr == "" and again.stdout.startswith("sent 0, received 0"),
          "the next sync says nothing more of it", again.stdout + again.stderr)
    psql(f"DELETE FROM op WHERE account_id = {account} AND server_seq = {first}")


def downgraded_account(binary, work, user, tok):
    """A server that drops the account's key, moves its sealed operations away and serves an
    operation in clear: a device that joins with the passphrase applies nothing of it
    unless told to move an account in clear (--migrate), and a device that knew the key
    refuses the keyless answer; neither makes a key nor sends anything."""
    account = psql(f"SELECT id FROM account WHERE name = '{user}{RUN}'")
    known = os.path.join(work, "known.sqlite")
    run(binary, known, "-c", f"login {user}")
    run(binary, known, "sync", "--server", SERVER_B, "--token", tok)
    key = psql(f"SELECT key FROM account WHERE id = {account}")
    psql(f"CREATE TABLE aside_{RUN} AS SELECT * FROM op WHERE account_id = {account}")
    psql(f"DELETE FROM op WHERE account_id = {account}")
    psql(f"UPDATE account SET key = NULL WHERE id = {account}")
    forged = "FORGED by the server: wire 500 EUR to X"
    psql("INSERT INTO op (account_id, replica, seq, millis, counter, task, field, value, old) VALUES "
         f"({account}, '{'f' * 32}', 1, {int(time.time() * 1000)}, 0, '00000000-0000-4000-8000-00000000f00d', 'task', "
         f"'{{\"title\":\"{forged}\",\"notes\":\"\",\"done\":false,\"parent\":null,\"position\":1}}', 'null')")
    joining = os.path.join(work, "joining.sqlite")
    run(binary, joining, "-c", f"login {user}")
    out = run(binary, joining, "sync", "--server", SERVER_A, "--token", tok)
    check(out.returncode == 1 and "navstack sync --migrate" in out.stderr and "Nothing was applied or sent" in out.stderr
          and exported(binary, joining, user) == [] and psql(f"SELECT key IS NULL FROM account WHERE id = {account}") == "t",
          "a joining device does not take an account in clear the server made up: nothing applied, no key made",
          out.stderr)
    out = run(binary, known, "sync")
    check(out.returncode == 1 and "answered without this account's key" in out.stderr
          and not any(t == forged for t, *_ in exported(binary, known, user)),
          "a device that knew the key refuses the keyless answer", out.stderr)
    psql(f"DELETE FROM op WHERE account_id = {account}")
    psql(f"INSERT INTO op SELECT * FROM aside_{RUN}")
    psql(f"DROP TABLE aside_{RUN}")
    psql(f"UPDATE account SET key = $${key}$$ WHERE id = {account}")


def restored_server(binary, work):
    """The server's database restored from a backup (pg_dump, then the dump into a new
    database, the server started again on it): A and B synced, then A added three tasks and
    B pulled them, then the backup came back and B added one. Every device ends with all
    five, says once that the log was restored, and a new device gets them all."""
    server_bin = os.environ["NAVSTACK_SERVER_BIN"]
    user = "restored"
    base, _, _ = PG_URL.rpartition("/")
    first, second = f"{base}/before_{RUN}", f"{base}/after_{RUN}"
    psql(f"CREATE DATABASE before_{RUN}")
    psql(f"CREATE DATABASE after_{RUN}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"

    def serve(database):
        process = subprocess.Popen([server_bin, "--database", database, "--listen", f"127.0.0.1:{port}",
                                    "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return process
            except OSError:
                time.sleep(0.05)
        return process

    server = serve(first)
    try:
        tok = subprocess.run([server_bin, "--database", first, "--log-level", "warning", "user", "add", user],
                             capture_output=True, text=True, check=True).stdout.strip()
        a, b, c = (os.path.join(work, f"restored-{name}.sqlite") for name in "abc")
        run(binary, a, "-c", f"login {user}", "-c", "add Before the backup")
        run(binary, a, "sync", "--server", url, "--token", tok)
        run(binary, b, "-c", f"login {user}")
        run(binary, b, "sync", "--server", url, "--token", tok)
        dump = subprocess.run(["pg_dump", first], capture_output=True, text=True, check=True).stdout
        run(binary, a, "-c", "add After 1", "-c", "add After 2", "-c", "add After 3")
        run(binary, a, "sync")
        run(binary, b, "sync")
        server.terminate()
        server.wait(timeout=10)
        subprocess.run(["psql", second, "-q", "-v", "ON_ERROR_STOP=1"], input=dump, capture_output=True, text=True, check=True)
        server = serve(second)
        run(binary, b, "-c", "add B after the restore")
        told = run(binary, b, "sync")
        run(binary, a, "sync")
        run(binary, b, "sync")
        run(binary, c, "-c", f"login {user}")
        run(binary, c, "sync", "--server", url, "--token", tok)
        everything = sorted(["Before the backup", "After 1", "After 2", "After 3", "B after the restore"])
        titles = [sorted(t for t, *_ in exported(binary, store, user)) for store in (a, b, c)]
        check(titles == [everything] * 3,
              "a server database restored from a backup loses nothing: A gets B's task, a new device gets A's three",
              str(titles))
        check(told.returncode == 0 and told.stderr.count("restored from a backup") == 1,
              "the device says once that the server's log was restored", told.stderr)
    finally:
        server.terminate()
        server.wait(timeout=10)
        psql(f"DROP DATABASE before_{RUN}")
        psql(f"DROP DATABASE after_{RUN}")


def legacy_account(binary, work):
    """An account whose operations a client of the earlier protocol sent in clear."""
    user = "legacy"
    tok = token(user)
    old = "%032x" % client_checks.RNG.getrandbits(128)
    tasks = [("%08x-0000-4000-8000-%012x" % (n, n), title) for n, title in
             enumerate(["Written before encryption", "Also from before", "A third one"], start=1)]
    ops = [{"seq": n, "millis": int(time.time() * 1000) - 10_000 + n, "counter": 0, "task": uuid, "field": "task",
            "value": {"title": title, "notes": "old notes", "done": False, "parent": None, "position": n}}
           for n, (uuid, title) in enumerate(tasks, start=1)]
    ops.append({"seq": 4, "millis": int(time.time() * 1000) - 5_000, "counter": 0, "task": tasks[1][0],
                "field": "done", "value": True, "old": False})
    status, _ = post(SERVER_A, tok, {"replica": old, "after": 0, "ops": ops})
    check(status == 200, "an earlier client's operations in clear are taken by an account without a key")
    e = os.path.join(work, "legacy-e.sqlite")
    run(binary, e, "-c", f"login {user}", "-c", "add Made on the new client")
    out = run(binary, e, "sync", "--server", SERVER_B, "--token", tok)
    check(out.returncode == 1 and "navstack sync --migrate" in out.stderr
          and exported(binary, e, user) == [("Made on the new client", "", False, None)],
          "without --migrate, an account in clear is not moved: nothing applied, no key made", out.stderr)
    out = run(binary, e, "sync", "--migrate")
    want = sorted([(title, "old notes", uuid == tasks[1][0], None) for uuid, title in tasks]
                  + [("Made on the new client", "", False, None)])
    check(out.returncode == 0 and exported(binary, e, user) == want and "made a new key" in out.stderr,
          "sync --migrate keeps every task of the account, and its own, and says it made the key", out.stderr)
    account = psql(f"SELECT id FROM account WHERE name = '{user}{RUN}'")
    clear = int(psql(f"SELECT count(*) FROM op WHERE account_id = {account} AND task <> ''"))
    dump = pg_dump()
    check(clear == 0 and not any(title in dump for _, title in tasks) and "old notes" not in dump,
          "the operations kept in clear are dropped from the server: pg_dump holds none of their titles",
          f"{clear} in clear")
    f = os.path.join(work, "legacy-f.sqlite")
    run(binary, f, "-c", f"login {user}")
    out = run(binary, f, "sync", "--server", SERVER_A, "--token", tok)
    check(out.returncode == 0 and exported(binary, f, user) == want,
          "a replica that joins afterwards gets every task from the sealed log", out.stderr)
    status, body = post(SERVER_A, tok, {"replica": old, "after": 0, "ops": [
        {"seq": 5, "millis": int(time.time() * 1000), "counter": 0, "task": tasks[0][0], "field": "title",
         "value": "Sent in clear after the move"}]})
    check(status == 400 and "end-to-end encrypted: update navstack" in body.get("error", ""),
          "the earlier client's next push in clear is refused, saying to update", (status, body))


class GatedProxy:
    """A loopback proxy in front of a server that holds the client's `gate_at`-th request
    (from 1, counted over all its connections: a sync keeps one for its requests) until
    `open()`: the request waits, unsent, while other things happen."""

    def __init__(self, server, gate_at):
        parsed = urllib.parse.urlsplit(server)
        self.upstream = (parsed.hostname, parsed.port)
        self.gate_at = gate_at
        self.requests = 0
        self.lock = threading.Lock()
        self.reached = threading.Event()
        self.gate = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sockets = [self.listener]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.relay, args=(client,), daemon=True).start()

    def relay(self, client):
        try:
            server = socket.create_connection(self.upstream)
        except OSError:
            client.close()
            return
        self.sockets += [client, server]
        threading.Thread(target=HoldingProxy.forward, args=(server, client), daemon=True).start()
        try:
            # A request's head comes in a read of its own: the client waited for the answer
            # before it, and writes a head before its body.
            while data := client.recv(1 << 16):
                if data.startswith((b"POST ", b"GET ")):
                    with self.lock:
                        self.requests += 1
                        gated = self.requests == self.gate_at
                    if gated:
                        self.reached.set()
                        self.gate.wait(60)
                server.sendall(data)
        except OSError:
            pass

    def open(self):
        self.gate.set()

    def close(self):
        for sock in self.sockets:
            sock.close()


def key_race(binary, work):
    """Two devices of a new account make its key at once: the one whose offer comes second
    takes the account's key with its passphrase, or, with another passphrase, is refused and
    forgets the key it made."""
    for same in (True, False):
        user = "race-same" if same else "race-other"
        tok = token(user)
        x, y = os.path.join(work, f"{user}-x.sqlite"), os.path.join(work, f"{user}-y.sqlite")
        run(binary, x, "-c", f"login {user}", "-c", "add From the device that was second")
        run(binary, y, "-c", f"login {user}", "-c", "add From the device that was first")
        # X's first request asks for the key (none yet) and X makes one; its second,
        # which offers it, waits while Y syncs and gives the account its own key.
        proxy = GatedProxy(SERVER_A, gate_at=2)
        second = subprocess.Popen([binary, "--store", x, "sync", "--server", proxy.address, "--token", tok], env=ENV,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        made = proxy.reached.wait(30)
        state = sync_row(x)[0][7] if made else None
        passphrase = PASSPHRASE if same else "another passphrase entirely"
        first = run(binary, y, "sync", "--server", SERVER_B, "--token", tok,
                    env=dict(ENV, NAVSTACK_SYNC_PASSPHRASE=passphrase))
        proxy.open()
        out, err = second.communicate(timeout=60)
        proxy.close()
        check(made and state == 1 and first.returncode == 0,
              f"race ({'same' if same else 'another'} passphrase): X made a key and offers it, Y syncs first",
              f"{state} {first.stderr}")
        if same:
            run(binary, y, "sync")
            check(second.returncode == 0 and exported(binary, x, user) == exported(binary, y, user)
                  and len(exported(binary, x, user)) == 2 and sync_row(x)[0][9] == sync_row(y)[0][9],
                  "race: the device second takes the account's key (409) with the same passphrase; both hold both tasks",
                  out + err)
        else:
            check(second.returncode == 1 and err == "navstack: sync: the passphrase does not open this account's tasks\n"
                  and sync_row(x)[0][7] == 0 and exported(binary, x, user) == [("From the device that was second", "", False, None)],
                  "race: with another passphrase the device second is refused, forgets the key it made, keeps its tasks",
                  f"{second.returncode} {err!r} {sync_row(x)}")


def passphrase_checked_everywhere(binary, work):
    """Automatic sync takes a passphrase only when `navstack sync` would: a short one, or
    one with control characters, makes no key (no device could ever join with it); and
    a passphrase file that starts with a UTF-8 byte-order mark gives the same key as the
    passphrase typed without it."""
    user = "auto-passphrase"
    tok = token(user)
    name = user + RUN
    store = os.path.join(work, "auto-passphrase.sqlite")
    run(binary, store, "-c", f"login {name}", "-c", "add Kept here")
    without = {key: value for key, value in ENV.items() if key not in ("NAVSTACK_SYNC", "NAVSTACK_SYNC_PASSPHRASE")}
    run(binary, store, "sync", "--server", SERVER_A, "--token", tok, env=without)
    for bad in ("x", "abc", "\t\x01passphrase"):
        out = run(binary, store, "-c", "add Written", env=dict(without, NAVSTACK_SYNC_PASSPHRASE=bad))
        notices = [line for line in out.stderr.splitlines() if "sync" in line]
        key = psql(f"SELECT coalesce(key, '') FROM account WHERE name = '{name}'")
        check(out.returncode == 0 and len(notices) == 1 and "NAVSTACK_SYNC_PASSPHRASE" in notices[0] and key == "",
              f"automatic sync with NAVSTACK_SYNC_PASSPHRASE={bad!r}: one notice naming it, no key made",
              f"{out.stderr!r} key={key[:40]!r}")
    bom = os.path.join(work, "passphrase-bom.txt")
    with open(bom, "wb") as file:
        file.write(b"\xef\xbb\xbf" + PASSPHRASE.encode() + b"\n")
    out = run(binary, store, "sync", "--passphrase-file", bom, env=without)
    check(out.returncode == 0 and out.stdout.startswith("sent "), "a passphrase file with a byte-order mark: the sync makes the key",
          out.stdout + out.stderr)
    other = os.path.join(work, "auto-passphrase-other.sqlite")
    run(binary, other, "-c", f"login {name}")
    out = run(binary, other, "sync", "--server", SERVER_A, "--token", tok,
              env=dict(without, NAVSTACK_SYNC_PASSPHRASE=PASSPHRASE))
    check(out.returncode == 0 and out.stdout.startswith("sent "),
          "the key made from the file with a byte-order mark opens with the passphrase typed without it",
          out.stdout + out.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    with tempfile.TemporaryDirectory() as work:
        user, tok, _ = nothing_readable(binary, work)
        wrong_passphrase(binary, work, user, tok)
        moved_payload(binary, work, user, tok)
        downgraded_account(binary, work, user, tok)
        legacy_account(binary, work)
        restored_server(binary, work)
        key_race(binary, work)
        passphrase_checked_everywhere(binary, work)
    print(f"{client_checks.passed} passed, {client_checks.failed} failed")
    return 0 if client_checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
