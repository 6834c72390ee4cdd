#!/usr/bin/env python3
"""End-to-end checks that sync cannot be broken by an unlucky user or a hostile replica,
against real servers on a real PostgreSQL (docs/sync.md, "What sync promises").

Run inside scripts/sync-env (it starts PostgreSQL and two navstack-server instances):

    scripts/sync-env python3 Tests/Sync/defect_checks.py --bin .build/release/navstack \\
        --dynamic-bin .build/debug/navstack

Checks:
  - a store file copied (a backup restored, a second machine) and its original both change
    and sync: the server answers the copy's reused (replica, seq) with 409, the copy takes
    a new replica id, and both end with every change; `sent N` counts what the server kept;
  - stamps: an operation more than 60 s ahead of the server's clock is refused (400, the
    reason says how far, the body gives the server's clock); one stamped at the largest
    counter is taken and every replica that pulls it still syncs its own changes after;
  - a client whose clock is 3 h ahead (faketime, on a dynamically linked build) says so in
    one line and keeps its changes; once its clock is right they reach the other replica;
  - values the app would refuse (a blank title, a task id that is not a uuid, a wrong type)
    are refused by the server, naming the operation.
Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import client_checks
from client_checks import check

ENV = dict(os.environ, NAVSTACK_SYNC="0", LANG="C.UTF-8")
RUN = client_checks.RUN  # names this run's accounts (see client_checks)


def run(binary, store, *args, env=ENV, prefix=()):
    return subprocess.run([*prefix, binary, "--store", store, *args], capture_output=True, text=True, env=env,
                          timeout=120)


def token(name):
    out = subprocess.run([os.environ["NAVSTACK_SERVER_BIN"], "--database", os.environ["NAVSTACK_PG_URL"],
                          "user", "add", name + RUN], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def titles(binary, store, user):
    return sorted(item["title"] for item, _, _ in client_checks.export_items(binary, store, user))


def post(server, tok, body):
    """POST /v1/sync with `body` (a dict); returns (status, parsed JSON body)."""
    request = urllib.request.Request(server + "/v1/sync", data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": "Bearer " + tok, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def now_ms():
    return int(time.time() * 1000)


def uuid4():
    digits = "%032x" % client_checks.RNG.getrandbits(128)
    return f"{digits[:8]}-{digits[8:12]}-4{digits[13:16]}-a{digits[17:20]}-{digits[20:]}"


def task_value(title):
    return {"title": title, "notes": "", "done": False, "parent": None, "position": -1}


def copied_store(binary, work):
    user = "copy"
    tok = token(user)
    server_a, server_b = os.environ["NAVSTACK_SERVER_A"], os.environ["NAVSTACK_SERVER_B"]
    original = os.path.join(work, "original.sqlite")
    run(binary, original, "-c", f"login {user}", "-c", "add Before the copy")
    first = run(binary, original, "sync", "--user", user, "--server", server_a, "--token", tok)
    check(first.returncode == 0, "copy: the original's first sync", first.stderr)
    copy = os.path.join(work, "copy.sqlite")
    shutil.copyfile(original, copy)
    run(binary, original, "-c", f"login {user}", "-c", "add Original 1", "-c", "add Original 2")
    run(binary, copy, "-c", f"login {user}", "-c", "add Copy 1", "-c", "add Copy 2")
    out = run(binary, original, "sync", "--user", user)
    check(out.returncode == 0 and out.stdout.startswith("sent 2,"), "copy: the original sends its 2 changes",
          out.stdout + out.stderr)
    out = run(binary, copy, "sync", "--user", user, "--server", server_b)
    check(out.returncode == 0 and out.stdout.startswith("sent 2,"),
          "copy: the copy's changes reused the original's seqs; it sends its 2 under a new replica id",
          out.stdout + out.stderr)
    out = run(binary, original, "sync", "--user", user)
    everything = ["Before the copy", "Copy 1", "Copy 2", "Original 1", "Original 2"]
    check(titles(binary, original, user) == everything, "copy: the original holds every change",
          titles(binary, original, user))
    check(titles(binary, copy, user) == everything, "copy: the copy holds every change, the original's too",
          titles(binary, copy, user))


def stamps(binary, work):
    user = "stamps"
    tok = token(user)
    server = os.environ["NAVSTACK_SERVER_A"]
    replica = "%032x" % client_checks.RNG.getrandbits(128)
    task = uuid4()
    op = {"seq": 1, "millis": now_ms() + 3 * 3600 * 1000, "counter": 0, "task": task, "field": "task",
          "value": task_value("From the future")}
    status, body = post(server, tok, {"replica": replica, "after": 0, "ops": [op]})
    check(status == 400 and "3 h ahead of the server's clock" in body.get("error", "")
          and abs(body.get("server_millis", 0) - now_ms()) < 60_000,
          "stamps: an operation 3 h ahead is refused, saying so, with the server's clock", (status, body))
    op["millis"] = 2 ** 63 - 1
    status, body = post(server, tok, {"replica": replica, "after": 0, "ops": [op]})
    check(status == 400, "stamps: the largest millis there is is refused", (status, body))
    # Within the minute the server allows: the replica's clock stays behind it while it edits.
    op.update(millis=now_ms() + 50_000, counter=2 ** 31 - 1, value=task_value("Largest counter"))
    status, body = post(server, tok, {"replica": replica, "after": 0, "ops": [op]})
    check(status == 200, "stamps: an operation at the largest counter is taken", (status, body))
    # A replica that pulls it keeps syncing its own changes.
    store = os.path.join(work, "stamps.sqlite")
    run(binary, store, "-c", f"login {user}")
    # The account holds operations in clear (an earlier client's): this replica moves it.
    pulled = run(binary, store, "sync", "--user", user, "--server", server, "--token", tok, "--migrate")
    for step in range(3):
        run(binary, store, "-c", f"login {user}", "-c", "open 1", "-c", "edit", "-c", f"title Edited {step}", "-c", "save")
        again = run(binary, store, "sync", "--user", user)
        if again.returncode != 0:
            break
    check(pulled.returncode == 0 and again.returncode == 0 and again.stdout.startswith("sent 1,"),
          "stamps: a replica that pulled the largest counter still sends its edits", pulled.stderr + again.stderr)
    # The account moved to encryption at that replica's first sync (it held an operation
    # in clear): another replica sees the edits through the sealed log alone.
    other = os.path.join(work, "stamps-other.sqlite")
    run(binary, other, "-c", f"login {user}")
    joined = run(binary, other, "sync", "--user", user, "--server", os.environ["NAVSTACK_SERVER_B"], "--token", tok)
    check(joined.returncode == 0 and titles(binary, other, user) == ["Edited 2"],
          "stamps: its last edit reached another replica", (joined.stderr, titles(binary, other, user)))
    # Of this navstack's format: the account holds its operations now.
    status, body = post(server, tok, {"replica": replica, "after": 0, "ops": [], "format": 3})
    check(status == 200 and body.get("ops") and all("sealed" in o and "value" not in o for o in body["ops"]),
          "stamps: the server holds the account's operations sealed only, the one sent in clear dropped", (status, body))


def clock_ahead(dynamic, work):
    user = "ahead"
    tok = token(user)
    server = os.environ["NAVSTACK_SERVER_A"]
    ahead = os.path.join(work, "ahead.sqlite")
    other = os.path.join(work, "other.sqlite")
    run(dynamic, ahead, "-c", f"login {user}")
    run(dynamic, other, "-c", f"login {user}")
    out = run(dynamic, ahead, "sync", "--user", user, "--server", server, "--token", tok)
    check(out.returncode == 0, "clock: a first sync", out.stderr)
    faked = dict(ENV, FAKETIME_DONT_FAKE_MONOTONIC="1")
    made = run(dynamic, ahead, "-c", "add Made 3 h ahead", env=faked, prefix=("faketime", "-f", "+3h"))
    out = run(dynamic, ahead, "sync", "--user", user, env=faked, prefix=("faketime", "-f", "+3h"))
    lines = out.stderr.strip().splitlines()
    check(made.returncode == 0 and out.returncode == 1 and len(lines) == 1
          and lines[0] == "navstack: sync: this machine's clock is 3 h ahead of the server's: fix the clock; "
                          "your changes are kept",
          "clock: a machine 3 h ahead is told so in one line, exit 1", f"made {made.returncode} {made.stderr!r}, sync {out.returncode} {out.stderr!r}")
    out = run(dynamic, ahead, "sync", "--user", user)
    check(out.returncode == 0 and out.stdout.startswith("sent 1,"),
          "clock: with the clock right again, the change made ahead is stamped again and sent", out.stdout + out.stderr)
    run(dynamic, other, "sync", "--user", user, "--server", server, "--token", tok)
    check(titles(dynamic, other, user) == ["Made 3 h ahead"], "clock: it reaches the other replica",
          titles(dynamic, other, user))


def refused_values():
    user = "values"
    tok = token(user)
    server = os.environ["NAVSTACK_SERVER_B"]
    replica = "%032x" % client_checks.RNG.getrandbits(128)
    cases = [
        ("a blank title", {"task": uuid4(), "field": "task", "value": task_value("   ")}, "ops[0] sets a task id or a task"),
        ("a title of 1 MiB", {"task": uuid4(), "field": "title", "value": "x" * (1 << 20)}, "ops[0] sets a task id or a title"),
        ("a task id that is not a uuid", {"task": "not-a-uuid", "field": "done", "value": True}, "ops[0] sets a task id"),
        ("a wrong type", {"task": uuid4(), "field": "done", "value": "yes"}, "ops[0] sets a task id or a done"),
    ]
    for what, fields, reason in cases:
        op = {"seq": 1, "millis": now_ms(), "counter": 0, **fields}
        status, body = post(server, tok, {"replica": replica, "after": 0, "ops": [op]})
        check(status == 400 and body.get("error", "").startswith(reason), f"values: {what} is refused", (status, body))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--dynamic-bin", required=True, help="a dynamically linked navstack, for faketime")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    dynamic = os.path.abspath(args.dynamic_bin)
    with tempfile.TemporaryDirectory() as work:
        copied_store(binary, work)
        stamps(binary, work)
        if shutil.which("faketime"):
            clock_ahead(dynamic, work)
        else:
            check(False, "clock: faketime is installed (scripts/test installs it)")
        refused_values()
    print(f"{client_checks.passed} passed, {client_checks.failed} failed")
    return 0 if client_checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
