#!/usr/bin/env python3
"""End-to-end checks of snapshots, against real servers on a real PostgreSQL
(docs/sync.md, "Snapshots"):

    scripts/sync-env python3 Tests/Sync/snapshot_checks.py --bin .build/release/navstack

Checks:
  - once an account took enough operations, a replica's sync leaves a snapshot of it on
    the server, sealed: pg_dump holds none of its titles;
  - a new replica joins from it and holds what the others hold;
  - the next snapshot drops the operations the one before covered (each replica's
    highest seq dropped is kept), and a replica that joins after still gets every task;
  - a replica away since before the operations were dropped, with a change it has not
    sent, takes the snapshot, keeps its change and sends it;
  - a copy of a store made before its operations were dropped reuses their seqs: the
    server refuses them, the copy takes a replica id of its own, and both converge;
  - a snapshot changed in the database, or moved to another seq, is refused by the
    client with one line, nothing applied;
  - a client that does not take snapshots is refused a pull that would need one (400,
    saying to update);
  - the server keeps no snapshot older than its own, past what the account holds, or
    newer by fewer than 1,000 operations (two replicas that found one due at once), and
    refuses one from a replica that has not seen its own latest operations (409), one
    beside operations and one for an account without a key (400).
Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import client_checks
from client_checks import check
from defect_checks import post
from seal_checks import PG_URL, RUN, SERVER_A, SERVER_B, exported, pg_dump, psql, run, token

USER = "snap"
# Enough tasks that a replica makes a snapshot at the sync that sends them
# (SyncSnapshot.leastOperations is 1,000).
BATCH = 1200


def import_tasks(binary, store, label, work, count=BATCH):
    path = os.path.join(work, f"{label}.jsonl")
    with open(path, "w") as file:
        for n in range(count):
            file.write(json.dumps({"title": f"{label} task {n}", "notes": f"{label} note {n}"}) + "\n")
    out = run(binary, store, "import", "--user", USER, path)
    assert out.returncode == 0, out.stderr


def psql_input(sql):
    """A statement too long for a command line, through psql's standard input."""
    subprocess.run(["psql", PG_URL, "-Atq", "-v", "ON_ERROR_STOP=1"], input=sql, text=True, check=True,
                   capture_output=True)


def account():
    return psql(f"SELECT id FROM account WHERE name = '{USER}{RUN}'")


def snapshot_row():
    row = psql(f"SELECT server_seq, trimmed FROM snapshot WHERE account_id = {account()}")
    return tuple(int(x) for x in row.split("|")) if row else None


def op_count():
    return int(psql(f"SELECT count(*) FROM op WHERE account_id = {account()}"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    tok = token(USER)
    with tempfile.TemporaryDirectory() as work:
        a, b, c = (os.path.join(work, f"{name}.sqlite") for name in "abc")
        # First generation: a snapshot at A's first sync.
        run(binary, a, "-c", f"login {USER}")
        import_tasks(binary, a, "First", work)
        out = run(binary, a, "sync", "--server", SERVER_A, "--token", tok)
        first = snapshot_row()
        check(out.returncode == 0 and out.stdout.startswith(f"sent {BATCH}, ") and first is not None
              and first[0] > 0 and first[1] == 0,
              f"a sync that sent {BATCH} operations left a snapshot of the account on the server", out.stdout + out.stderr)
        dump = pg_dump()
        check("First task" not in dump and "First note" not in dump,
              "the snapshot is sealed: pg_dump holds none of its titles or notes")
        run(binary, b, "-c", f"login {USER}")
        out = run(binary, b, "sync", "--server", SERVER_B, "--token", tok)
        check(out.returncode == 0 and exported(binary, b, USER) == exported(binary, a, USER),
              "a new replica joins from the snapshot and holds every task", out.stdout + out.stderr)
        copy = os.path.join(work, "copy.sqlite")
        shutil.copyfile(a, copy)

        # Second generation: the next snapshot drops what the first covered.
        import_tasks(binary, a, "Second", work)
        run(binary, a, "sync")
        second = snapshot_row()
        dropped = psql(f"SELECT max(seq) FROM dropped_seq WHERE account_id = {account()}")
        check(second is not None and second[0] > first[0] and second[1] == first[0] and op_count() == BATCH
              and dropped == str(BATCH),
              "the next snapshot drops the operations the first covered, keeping the replica's highest seq dropped",
              f"snapshots {first} → {second}, {op_count()} operations held, highest dropped {dropped}")
        run(binary, c, "-c", f"login {USER}")
        out = run(binary, c, "sync", "--server", SERVER_A, "--token", tok)
        check(out.returncode == 0 and len(exported(binary, c, USER)) == 2 * BATCH
              and exported(binary, c, USER) == exported(binary, a, USER),
              "a replica joining after the operations were dropped gets every task", out.stdout + out.stderr)

        # B was away for two generations, with a change of its own not sent: its title and
        # the task's modified stamp, two operations. (With 2,400 tasks held, a snapshot is
        # due after 2,400 operations.)
        run(binary, b, "-c", "root", "-c", "open 1", "-c", "edit", "-c", "title Renamed while away", "-c", "save")
        import_tasks(binary, a, "Third", work, count=2 * BATCH)
        run(binary, a, "sync")
        third = snapshot_row()
        out = run(binary, b, "sync")
        run(binary, a, "sync")
        check(third[1] == second[0] and out.returncode == 0 and out.stdout.startswith(f"sent 2, received {4 * BATCH}, ")
              and any(t[0] == "Renamed while away" for t in exported(binary, a, USER))
              and exported(binary, b, USER) == exported(binary, a, USER),
              "a replica away since before the operations were dropped takes the snapshot and keeps and sends its change",
              out.stdout + out.stderr)

        # The copy of A made before the second generation reuses seqs that were dropped.
        run(binary, copy, "-c", "root", "-c", "add Written on the copy")
        out = run(binary, copy, "sync")
        run(binary, a, "sync")
        check(out.returncode == 0 and exported(binary, copy, USER) == exported(binary, a, USER)
              and any(t[0] == "Written on the copy" for t in exported(binary, a, USER)),
              "a copy of a store reusing dropped seqs takes a replica id of its own, and both converge",
              out.stdout + out.stderr)

        # A snapshot changed, or moved, on the server.
        held = psql(f"SELECT sealed FROM snapshot WHERE account_id = {account()}")
        changed = held[:100] + ("A" if held[100] != "A" else "B") + held[101:]
        for what, sql in [("changed in the database", f"UPDATE snapshot SET sealed = '{changed}'"),
                          ("moved to another seq", "UPDATE snapshot SET server_seq = server_seq - 1")]:
            seq = psql(f"SELECT server_seq FROM snapshot WHERE account_id = {account()}")
            psql_input(f"{sql} WHERE account_id = {account()}")
            d = os.path.join(work, f"tampered-{client_checks.RNG.randrange(1 << 30)}.sqlite")
            run(binary, d, "-c", f"login {USER}")
            out = run(binary, d, "sync", "--server", SERVER_B, "--token", tok)
            lines = out.stderr.splitlines()
            check(out.returncode == 1 and len(lines) == 1 and "snapshot of this account" in lines[0]
                  and "nothing was applied" in lines[0] and exported(binary, d, USER) == [],
                  f"a snapshot {what} is refused with one line, nothing applied", out.stdout + out.stderr)
            psql_input(f"UPDATE snapshot SET sealed = '{held}', server_seq = {seq} WHERE account_id = {account()}")

        # What the server takes of a snapshot, by the protocol itself, from a writer with the
        # account's write key (HMAC-SHA256 of the key A keeps, as navstack makes it).
        with sqlite3.connect(a) as db:
            key = base64.b64decode(db.execute("SELECT seal_key FROM sync").fetchone()[0])
        write_key = base64.b64encode(hmac.new(key, b"navstack write v1", hashlib.sha256).digest()).decode()
        # Of this navstack's format (3): the account holds operations of it, and an earlier
        # format is told to update before anything else is looked at.
        base = {"replica": "%032x" % client_checks.RNG.getrandbits(128), "ops": [], "snapshots": True,
                "write_key": write_key, "format": 3}
        seq, before = snapshot_row()[0], psql(f"SELECT md5(sealed) FROM snapshot WHERE account_id = {account()}")
        highest = int(psql(f"SELECT max(server_seq) FROM op WHERE account_id = {account()}") or seq)
        without = {k: v for k, v in base.items() if k != "write_key"}
        status, body = post(SERVER_A, tok, dict(without, after=highest, own_seq=0,
                                                snapshot={"seq": highest, "sealed": "c2VhbGVk"}))
        check(status == 403 and "write key" in body.get("error", "") and snapshot_row()[0] == seq,
              "a snapshot from a token without the passphrase is refused (403) and nothing kept", f"{status} {body}")
        for what, after, offered in [("older than the one kept", seq - 1, seq - 1),
                                     ("past what the account holds", highest, highest + 1000),
                                     ("newer than the one kept by fewer than 1,000 operations", highest, highest)]:
            status, _ = post(SERVER_A, tok, dict(base, after=after, own_seq=0,
                                                 snapshot={"seq": offered, "sealed": "c2VhbGVk"}))
            check(status == 200 and snapshot_row()[0] == seq and highest > seq
                  and psql(f"SELECT md5(sealed) FROM snapshot WHERE account_id = {account()}") == before,
                  f"a snapshot {what} is not kept", f"{status}, {snapshot_row()}")
        writer = psql(f"SELECT replica FROM op WHERE account_id = {account()} ORDER BY server_seq DESC LIMIT 1")
        status, body = post(SERVER_A, tok, dict(base, replica=writer, after=highest, own_seq=0,
                                                snapshot={"seq": highest, "sealed": "c2VhbGVk"}))
        check(status == 409 and "own_seq" in body.get("error", "") and snapshot_row()[0] == seq,
              "a snapshot from a replica that has not seen its own latest operations (a copy) is refused (409)",
              f"{status} {body}")
        status, body = post(SERVER_A, tok, dict(base, after=highest, own_seq=0, ops=[
            {"seq": 1, "millis": 1, "counter": 0, "sealed": "c2VhbGVk"}], snapshot={"seq": highest, "sealed": "c2VhbGVk"}))
        check(status == 400 and "request of its own" in body.get("error", ""),
              "a snapshot beside operations is refused (400)", f"{status} {body}")
        plain = token("plain")
        status, body = post(SERVER_B, plain, dict(base, after=0, own_seq=0, snapshot={"seq": 1, "sealed": "c2VhbGVk"}))
        check(status == 400 and "key first" in body.get("error", ""),
              "a snapshot for an account without a key is refused (400)", f"{status} {body}")

        # A client from before snapshots.
        status, body = post(SERVER_A, tok, {"replica": "%032x" % client_checks.RNG.getrandbits(128), "after": 0, "ops": []})
        check(status == 400 and "update navstack" in body.get("error", ""),
              "a client that does not take snapshots is refused a pull that needs one, saying to update",
              f"{status} {body}")
    print(f"{client_checks.passed} passed, {client_checks.failed} failed")
    return 0 if client_checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
