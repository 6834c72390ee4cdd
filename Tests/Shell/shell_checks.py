#!/usr/bin/env python3
"""The shell's one-shot commands against the built binary, each a process of its own.

Checked: a one-shot command neither reads nor moves where the profile's sessions are (a
later `-c` run opens where the session left it, its draft whole); the exit statuses;
an argument that is not UTF-8 refused before anything is read; an ID by its uuid's
start; `watch` going on when its input is /dev/null and ending when a pipe closes.

Usage: shell_checks.py --bin PATH. Prints one line a check, then 'N passed, M failed'.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    binary = os.path.abspath(parser.parse_args().bin)
    folder = tempfile.mkdtemp()
    env = dict(os.environ, NAVSTACK_STORE=os.path.join(folder, "s.sqlite"), NAVSTACK_NOW="2026-12-07T09:00:00Z",
               TZ="Europe/Lisbon", NAVSTACK_SYNC="0", LC_ALL="C.UTF-8")

    def run(*args, stdin=subprocess.DEVNULL):
        return subprocess.run([os.fsencode(binary)] + [a if isinstance(a, bytes) else a.encode() for a in args],
                              env=env, stdin=stdin, capture_output=True, timeout=30)

    # A session left inside a draft on the agenda tab, with a filter on the list.
    first = run("--sample", "-c", "login ana", "-c", "filter open +nothing", "-c", "tab agenda", "-c", "tab tasks",
                "-c", "root", "-c", "go tasks/2/edit", "-c", "title Half typed")
    check("a session is left in a draft", first.returncode == 0, first.stderr.decode())
    where_before = run("-c", "where").stdout.decode()

    added = run("add", "Buy", "bread", "due:tomorrow", "+shop")
    check("add says what it added", added.stdout.decode() == 'added 4 "Buy bread"\n', added)
    done = run("done", "4")
    check("done says what it did", done.stdout.decode() == 'completed 4 "Buy bread"\n', done)
    modified = run("modify", "1", "-nothing", "+fruit", "pri:H")
    check("modify takes -TAG as a word", modified.returncode == 0 and b"modified 1" in modified.stdout, modified)
    listed = run("--format", "json", "list", "+fruit")
    screen = json.loads(listed.stdout.decode().splitlines()[0])
    check("list filters a fresh list, not the session's", [t["id"] for t in screen["items"]] == [1], listed)
    shown = run("--format", "json", "show", "2")
    check("show prints the detail", json.loads(shown.stdout)["task"]["title"] == "Study SwiftUI", shown)
    undone = run("undo")
    check("undo says what it undid", undone.stdout.decode() == 'undid save of 1 "Buy fruit"\n', undone)

    where_after = run("-c", "where").stdout.decode()
    check("the session is where it was", where_after == where_before and "tasks/2/edit" in where_after,
          (where_before, where_after))
    draft = json.loads(run("--format", "json", "-c", "where").stdout.decode().splitlines()[0])
    check("its draft is whole", draft.get("draft", {}).get("title") == "Half typed", draft)

    uuid = json.loads(run("--format", "json", "show", "4").stdout)["task"]["uuid"]
    by_start = run("--format", "json", "show", uuid.replace("-", "")[:12].upper())
    check("an ID by the start of its uuid", json.loads(by_start.stdout)["task"]["id"] == 4, by_start)

    for args, status in [(["done"], 64), (["done", "99"], 1), (["done", "zz"], 1), (["modify", "1"], 64), (["modify", "1", "pri:Q"], 1),
                         (["add", b"bad \xff title"], 64), (["-c", b"add \xfe"], 64), (["frobnicate"], 64)]:
        before = run("--format", "json", "list").stdout
        result = run(*args)
        after = run("--format", "json", "list").stdout
        check(f"{args!r} exits {status}, one line, nothing changed",
              result.returncode == status and before == after and result.stderr.count(b"\n") >= 1, result)
    bad = run("add", b"x\xff")
    check("an argument not UTF-8 is named", bad.stderr.decode() == "navstack: argument 2: the text is not valid UTF-8\n",
          bad.stderr)

    # watch with /dev/null as input goes on; with a pipe, its end ends it.
    watch = subprocess.Popen([binary, "watch", "agenda"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    time.sleep(1.5)
    check("watch goes on when its input is /dev/null", watch.poll() is None, watch.poll())
    watch.terminate()
    watch.wait(timeout=10)
    piped = subprocess.Popen([binary, "watch", "agenda"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    time.sleep(0.5)
    piped.stdin.close()
    try:
        code = piped.wait(timeout=10)
    except subprocess.TimeoutExpired:
        piped.kill()
        code = None
    check("watch ends when its pipe closes", code == 0, code)

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
