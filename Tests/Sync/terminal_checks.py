#!/usr/bin/env python3
"""`navstack sync` at a terminal, against servers that misbehave, and beside another
process on the same store.

Run inside scripts/sync-env (see client_checks.py), with tmux installed:

    scripts/sync-env python3 Tests/Sync/terminal_checks.py --bin .build/debug/navstack

Checks:
  - `sync --timeout SECONDS` ends in time whatever the server does: one that never
    answers, one that trickles its answer a byte at a time, one that answers `more: true`
    forever (small servers of this script's own, on loopback, each connection given up
    after 30 s); a bad value is a usage error (64).
  - at a terminal (tmux), a first sync of 100,000 tasks against the real server shows its
    progress on stderr, rewritten in place and blanked before the totals, and so does the
    next replica's first pull; with stderr a pipe, not a byte of it.
  - an interactive navstack with a server (tmux) never keeps another process from
    writing the store: not while it idles at the prompt after a change, nor while its
    automatic sync waits on a slow server.
  - at a terminal with no token anywhere, sync asks for it without echo (tmux): what is
    typed is not on the screen, is kept, and the terminal echoes again afterwards, also
    after Ctrl-C at the prompt.
  - at a terminal, the first sync of a new account asks for its passphrase twice without
    echo (two that differ keep nothing), and another device opens the account with it.
  - a store failure during a sync (the store locked by another process) is one sentence
    from the catalogs, in the language asked, naming no type or case.
Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from client_checks import ENV, check, run, sync, token
import client_checks

TASKS = 100_000


class MisbehavingServer:
    """A sync server on loopback that answers the way `mode` says:

    - `silent`: reads the request and never answers;
    - `trickle`: answers a byte every 50 ms (the answer would take a minute);
    - `more`: answers at once, with no operations and `more: true`, every time;
    - `slow`: answers an empty answer after `delay` seconds, naming the key a replica
      offered it (as a real server keeps an account's first key).

    Every connection is given up after `LIMIT` seconds, and all of them at `close()`.
    """
    LIMIT = 30

    def __init__(self, mode, delay=0.0):
        self.mode = mode
        self.delay = delay
        self.requests = 0
        self.key = None
        self.arrived = threading.Event()
        # When each answer was sent, on the monotonic clock.
        self.answered = []
        self.stopping = threading.Event()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.listener.settimeout(0.2)
        self.url = "http://127.0.0.1:%d" % self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def close(self):
        self.stopping.set()
        self.listener.close()

    def _serve(self):
        while not self.stopping.is_set():
            try:
                connection, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            threading.Thread(target=self._handle, args=(connection,), daemon=True).start()

    @staticmethod
    def _read_request(connection):
        connection.settimeout(5)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            body += chunk
        return body

    @staticmethod
    def _stored(request):
        """The answer's `stored` for `request`, as the server names what it stored: a
        client takes no answer that names another request's."""
        try:
            sent = json.loads(request)
        except ValueError:
            return b""
        seqs = [op.get("seq", 0) for op in sent.get("ops", [])]
        stored = {"replica": sent.get("replica", ""), "first": min(seqs, default=0), "last": max(seqs, default=0)}
        return b',"stored":' + json.dumps(stored).encode()

    @staticmethod
    def _answer(body):
        return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                b"Content-Length: %d\r\n\r\n" % len(body)) + body

    def _handle(self, connection):
        end = time.monotonic() + self.LIMIT
        with connection:
            try:
                request = self._read_request(connection)
                if request is None:
                    return
                if self.key is None:
                    try:
                        self.key = json.loads(request).get("key")
                    except ValueError:
                        pass
                self.requests += 1
                self.arrived.set()
                if self.mode == "silent":
                    connection.settimeout(0.2)
                    while time.monotonic() < end and not self.stopping.is_set():
                        try:
                            if connection.recv(1) == b"":
                                return  # the client gave up
                        except socket.timeout:
                            pass
                elif self.mode == "trickle":
                    answer = self._answer(b'{"ops":[],"last":0,"more":false}' + b" " * 1200)
                    for byte in answer:
                        if time.monotonic() > end or self.stopping.is_set():
                            return
                        connection.sendall(bytes([byte]))
                        time.sleep(0.05)
                elif self.mode == "more":
                    body = b'{"ops":[],"last":%d,"more":true%s}' % (self.requests, self._stored(request))
                    connection.sendall(self._answer(body))
                elif self.mode == "slow":
                    self.stopping.wait(self.delay)
                    key = b',"key":' + json.dumps(self.key).encode() if self.key else b""
                    connection.sendall(self._answer(b'{"ops":[],"last":0,"more":false' + key + self._stored(request) + b'}'))
                    self.answered.append(time.monotonic())
            except OSError:
                pass


class Tmux:
    """A tmux server of this script's own: fixed-size sessions, no user configuration."""

    def __init__(self, workdir):
        self.socket = "navstack-sync-%d" % os.getpid()
        self.workdir = workdir

    def tm(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "-u", *args], capture_output=True,
                              text=True)

    def start(self, name, command):
        """Runs `command` (a shell line) in a new detached session; the pane stays when it ends."""
        self.tm("new-session", "-d", "-s", name, "-c", self.workdir, "-x", "100", "-y", "30", command)
        self.tm("set-option", "-t", name, "remain-on-exit", "on")

    def screen(self, name):
        return self.tm("capture-pane", "-p", "-J", "-t", name, "-S", "-").stdout

    def cursor_line(self, name):
        row = self.tm("display-message", "-p", "-t", name, "#{cursor_y}").stdout.strip() or "0"
        return self.tm("capture-pane", "-p", "-t", name, "-S", row, "-E", row).stdout.rstrip()

    def at_prompt(self, name):
        """Whether the cursor stands at an empty prompt (`tasks> `, `tasks/1> `)."""
        return re.fullmatch(r"[a-z0-9/]+>", self.cursor_line(name)) is not None

    def type(self, name, text):
        self.tm("send-keys", "-t", name, "-l", "--", text)
        self.tm("send-keys", "-t", name, "Enter")

    def wait(self, condition, timeout):
        """Polls `condition` every 0.05 s; whether it held within `timeout` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if condition():
                return True
            time.sleep(0.05)
        return condition()

    def close(self):
        self.tm("kill-server")


def terminal_command(binary, store, workdir, *args, wait_for=None):
    """A shell line for a pane: navstack with the sync on (NAVSTACK_SYNC unset), its own XDG
    folders, then its exit status; with `wait_for`, it starts once that file exists."""
    line = ("env -u LC_ALL -u LC_CTYPE -u NAVSTACK_SYNC TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME=%s "
            "XDG_DATA_HOME=%s %s --store %s %s; echo EXIT=$?; sleep 120") % (
        shlex.quote(os.path.join(workdir, "state")), shlex.quote(os.path.join(workdir, "data")),
        shlex.quote(binary), shlex.quote(store), " ".join(shlex.quote(a) for a in args))
    if wait_for:
        line = "while [ ! -e %s ]; do sleep 0.05; done; %s" % (shlex.quote(wait_for), line)
    return line


def timed(function):
    start = time.monotonic()
    result = function()
    return result, time.monotonic() - start


def timeout_checks(binary, workdir):
    what = {"silent": "never answers", "trickle": "trickles its answer a byte at a time",
            "more": "answers more: true forever"}
    for mode in ("silent", "trickle", "more"):
        server = MisbehavingServer(mode)
        store = os.path.join(workdir, "timeout-%s.sqlite" % mode)
        run(binary, store, "-c", "login slow")
        try:
            # --migrate: a keyless answer with more to come is an account held in clear, which
            # a device moves only when told to; told, it pulls pages for as long as it may.
            out, took = timed(lambda: run(binary, store, "sync", "--server", server.url, "--token", "t",
                                          "--timeout", "2", "--migrate", timeout=60))
        finally:
            server.close()
        lines = out.stderr.splitlines()
        check(out.returncode == 1 and 1.9 <= took < 4 and server.requests >= 1 and len(lines) == 1
              and "within 2 s" in lines[0] and "kept" in lines[0],
              "a server that %s: sync --timeout 2 ends in %.1f s (%d requests), one line" % (what[mode], took,
                                                                                          server.requests),
              "exit %d, %r" % (out.returncode, out.stderr))
    store = os.path.join(workdir, "timeout-usage.sqlite")
    for value in ("0", "-1", "abc", "1.5", "", "99999999999999999999"):
        out = run(binary, store, "sync", "--server", "http://127.0.0.1:9", "--timeout", value)
        check(out.returncode == 64 and "--timeout" in out.stderr, "sync --timeout %r is a usage error (64)" % value,
              "exit %d, %r" % (out.returncode, out.stderr))
    out = run(binary, store, "sync", "--help")
    check(out.returncode == 0 and "--timeout <seconds>" in out.stdout, "sync --help lists --timeout", out.stdout)


def progress_checks(binary, workdir, tmux):
    server = os.environ["NAVSTACK_SERVER_A"]
    user = "progress"
    tok = token(user)
    first = os.path.join(workdir, "progress-a.sqlite")
    records = "\n".join(json.dumps({"title": "task %d" % i}) for i in range(TASKS)) + "\n"
    out = run(binary, first, "import", "--user", user, "-", stdin=records)
    check(out.returncode == 0, "%d tasks imported for the progress test" % TASKS, out.stderr)
    run(binary, first, "-c", "login " + user)

    def at_terminal(name, store, *args):
        """Runs navstack sync in a pane; what the pane received (raw bytes) and showed."""
        log = os.path.join(workdir, name + ".log")
        go = os.path.join(workdir, name + ".go")
        tmux.start(name, terminal_command(binary, store, workdir, "sync", *args, wait_for=go))
        tmux.tm("pipe-pane", "-t", name, "-o", "cat >> " + shlex.quote(log))
        open(go, "w").close()
        start = time.monotonic()
        finished = tmux.wait(lambda: "EXIT=" in tmux.screen(name), 600)
        took = time.monotonic() - start
        time.sleep(0.2)  # the last bytes through pipe-pane
        raw = open(log, "rb").read() if os.path.exists(log) else b""
        return finished, took, raw, tmux.screen(name)

    # A debug server takes some 3 s for each 10,000 operations: more than the 60 s default.
    finished, took, raw, screen = at_terminal("push", first, "--server", server, "--token", tok, "--timeout", "900")
    shown = [int(n.replace(b",", b"")) for n in re.findall(rb"\rsync: sent ([0-9,]+) of 100,000", raw)]
    lines = screen.splitlines()
    final = "sent %d, received 0, conflicts 0" % TASKS
    check(finished and final in lines and "EXIT=0" in lines, "a first sync of 100,000 tasks at a terminal (%.1f s)"
          % took, screen[-2000:])
    check(took > 1.5 and any(n < TASKS for n in shown) and shown == sorted(shown),
          "its progress is shown on stderr while it sends (%s)" % ", ".join(map(str, shown[:12])), repr(raw[-600:]))
    # The account's first sync made its key, which it says on stderr before the totals.
    made = rb"navstack: sync: made a new key[^\r\n]*\r?\n"
    check(re.search(rb"\r +\r(" + made + rb")?" + re.escape(final.encode()) + rb"\r?\n", raw) is not None
          and not any("sync: sent" in line for line in lines),
          "the progress line is blanked before the totals and leaves nothing on the screen", repr(raw[-600:]))

    # Another replica's first sync pulls them all: what it received is shown.
    second = os.path.join(workdir, "progress-b.sqlite")
    run(binary, second, "-c", "login " + user)
    finished, took, raw, screen = at_terminal("pull", second, "--server", server, "--token", tok, "--timeout", "900")
    received = [int(n.replace(b",", b"")) for n in re.findall(rb"\rsync: received ([0-9,]+)", raw)]
    check(finished and "sent 0, received %d, conflicts 0" % TASKS in screen.splitlines()
          and any(0 < n < TASKS for n in received),
          "a first pull of 100,000 operations at a terminal shows what it received (%.1f s: %s)"
          % (took, ", ".join(map(str, received[:12]))), repr(raw[-600:]))

    # The same pull with stderr a pipe: not a byte of progress, though it runs longer than
    # the second after which a terminal is shown it (SyncProgress.delay).
    third = os.path.join(workdir, "progress-c.sqlite")
    run(binary, third, "-c", "login " + user)
    env = dict(ENV)
    env.pop("NAVSTACK_SYNC", None)
    out, took = timed(lambda: run(binary, third, "sync", "--server", server, "--token", tok, "--timeout", "900", env=env,
                                  timeout=900))
    check(out.returncode == 0 and out.stderr == "" and out.stdout == "sent 0, received %d, conflicts 0\n" % TASKS
          and took > 1.0, "the same sync with stderr a pipe (%.1f s) writes nothing to it" % took,
          repr(out.stderr[:300]))


def idle_lock_checks(binary, workdir, tmux):
    server = os.environ["NAVSTACK_SERVER_A"]
    user = "idle"
    tok = token(user)
    store = os.path.join(workdir, "idle.sqlite")
    run(binary, store, "-c", "login " + user)
    out = sync(binary, store, server, tok)
    check(out.returncode == 0, "the idle test's store syncs with the server", out.stderr)
    tmux.start("idle", terminal_command(binary, store, workdir))
    ready = tmux.wait(lambda: tmux.at_prompt("idle"), 20)
    tmux.type("idle", "add Typed at the prompt")
    # The automatic sync runs before the prompt comes back.
    ready = ready and tmux.wait(lambda: "Typed at the prompt" in tmux.screen("idle") and tmux.at_prompt("idle"), 20)
    time.sleep(0.5)
    out, took = timed(lambda: run(binary, store, "-c", "add From another process"))
    check(ready and out.returncode == 0 and took < 1,
          "beside a terminal idle at its prompt after a change, another process adds a task in %.2f s" % took,
          out.stderr + tmux.screen("idle")[-800:])
    other = os.path.join(workdir, "idle-other.sqlite")
    run(binary, other, "-c", "login " + user)
    out = sync(binary, other, server, tok)
    titles = {t[0] for t in client_checks.tasks(binary, other, user).values()}
    check("Typed at the prompt" in titles, "the change typed at the prompt reached the server by itself",
          out.stdout + out.stderr + str(titles))
    tmux.type("idle", "quit")

    # The automatic sync waits on a slow server (1.5 s an answer, within its 2 s).
    slow = MisbehavingServer("slow", delay=1.5)
    store = os.path.join(workdir, "in-flight.sqlite")
    try:
        run(binary, store, "-c", "login " + user)
        out = sync(binary, store, slow.url, "t")
        check(out.returncode == 0, "a sync with the slow server finishes", out.stderr)
        tmux.start("flight", terminal_command(binary, store, workdir))
        ready = tmux.wait(lambda: tmux.at_prompt("flight"), 20)
        slow.arrived.clear()
        answers = len(slow.answered)
        tmux.type("flight", "add While the server thinks")
        ready = ready and slow.arrived.wait(10)
        out, took = timed(lambda: run(binary, store, "-c", "add Beside a sync in flight"))
        in_flight = len(slow.answered) == answers
        check(ready and out.returncode == 0 and took < 1 and in_flight,
              "while a terminal's automatic sync waits on the server, another process adds a task in %.2f s" % took,
              "in flight: %s; %s" % (in_flight, out.stderr + tmux.screen("flight")[-800:]))
        tmux.wait(lambda: tmux.at_prompt("flight"), 10)
        tmux.type("flight", "quit")
    finally:
        slow.close()


def store_failure_checks(binary, workdir):
    server = os.environ["NAVSTACK_SERVER_A"]
    user = "locked"
    tok = token(user)
    store = os.path.join(workdir, "locked.sqlite")
    run(binary, store, "-c", "login " + user, "-c", "add Waiting to be sent")
    sync(binary, store, server, tok)
    run(binary, store, "-c", "add Sent after the lock")
    # Another process holds the store's write lock for longer than navstack waits (5 s).
    holder = sqlite3.connect(store, isolation_level=None, timeout=1)
    holder.execute("BEGIN IMMEDIATE")
    try:
        out = run(binary, store, "sync", env=dict(ENV, LANG="pt_BR.UTF-8"), timeout=60)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    lines = out.stderr.splitlines()
    line = lines[0] if lines else ""
    internal = re.search(r"[A-Za-z_][A-Za-z0-9_]*\(|Error\b|Failure\b|storeFailure", line)
    check(out.returncode == 1 and len(lines) == 1 and line.startswith("navstack: sync: ")
          and "bloqueado por outro processo" in line and "suas mudanças ficam guardadas" in line and not internal,
          "a store locked during a sync fails with one sentence of the catalogs, in Portuguese", repr(out.stderr))
    out = run(binary, store, "sync")
    check(out.returncode == 0 and out.stdout.startswith("sent 1,"), "the next sync sends what was kept",
          out.stdout + out.stderr)


def token_prompt_checks(binary, workdir, tmux):
    """A sync at a terminal with no token anywhere asks for it without echo, and gives the
    terminal back as it was, even when interrupted."""
    user = "prompted"
    tok = token(user)
    store = os.path.join(workdir, "prompted.sqlite")
    run(binary, store, "-c", "login %s" % user, "-c", "add Sent after the prompt")
    server = os.environ["NAVSTACK_SERVER_A"]
    environment = "env -u NAVSTACK_TOKEN TERM=xterm-256color LANG=C.UTF-8 NAVSTACK_SYNC=0"
    echo = "stty -a | tr ' ' '\\n' | grep -x -- '-*echo' | sed 's/^/ECHO=/'"
    # The shell traps the interrupt, so it goes on after navstack ends and tells what the
    # terminal's echo is then.
    line = "trap 'echo INTERRUPTED' INT; %s %s --store %s sync --server %s; echo EXIT=$?; %s; sleep 120" % (
        environment, shlex.quote(binary), shlex.quote(store), shlex.quote(server), echo)
    tmux.start("ask", line)
    asked = tmux.wait(lambda: "not shown as you type" in tmux.screen("ask"), 20)
    tmux.type("ask", tok)
    finished = tmux.wait(lambda: "ECHO=" in tmux.screen("ask"), 30)
    screen = tmux.screen("ask")
    lines = screen.splitlines()
    check(asked and finished and "EXIT=0" in lines and any(l.startswith("sent 1,") for l in lines),
          "at a terminal with no token, sync asks for it and syncs with what is typed", screen)
    check(tok not in screen and tok[:8] not in screen, "the token typed is not shown", screen)
    check("ECHO=echo" in lines, "the terminal echoes again after the prompt", screen)
    with sqlite3.connect(store) as db:
        kept = db.execute("SELECT token FROM sync").fetchone()
    check(kept == (tok,), "the token typed is kept for the profile", str(kept))

    other = os.path.join(workdir, "interrupted.sqlite")
    run(binary, other, "-c", "login %s" % user)
    line = "trap 'echo INTERRUPTED' INT; %s %s --store %s sync --server %s; echo EXIT=$?; %s; sleep 120" % (
        environment, shlex.quote(binary), shlex.quote(other), shlex.quote(server), echo)
    tmux.start("interrupt", line)
    asked = tmux.wait(lambda: "not shown as you type" in tmux.screen("interrupt"), 20)
    tmux.tm("send-keys", "-t", "interrupt", "-l", "--", "half a tok")
    time.sleep(0.3)
    tmux.tm("send-keys", "-t", "interrupt", "C-c")
    finished = tmux.wait(lambda: "ECHO=" in tmux.screen("interrupt"), 20)
    screen = tmux.screen("interrupt")
    lines = screen.splitlines()
    check(asked and finished and "EXIT=130" in lines and "ECHO=echo" in lines and "half a tok" not in screen,
          "Ctrl-C at the prompt ends navstack (130) with the terminal's echo back on", screen)


def passphrase_prompt_checks(binary, workdir, tmux):
    """At a terminal, the first sync of a new account asks for its passphrase twice,
    without echo; two that differ keep nothing."""
    user = "new-passphrase"
    tok = token(user)
    server = os.environ["NAVSTACK_SERVER_A"]
    environment = "env -u NAVSTACK_SYNC_PASSPHRASE TERM=xterm-256color LANG=C.UTF-8 NAVSTACK_SYNC=0 NAVSTACK_TOKEN=%s" % tok
    secret = "typed at the prompt 42"
    for name, second, want in (("differ", secret + "!", "EXIT=1"), ("same", secret, "EXIT=0")):
        store = os.path.join(workdir, "passphrase-%s.sqlite" % name)
        run(binary, store, "-c", "login %s" % user, "-c", "add Sealed with a typed passphrase")
        line = "%s %s --store %s sync --server %s; echo EXIT=$?; sleep 120" % (
            environment, shlex.quote(binary), shlex.quote(store), shlex.quote(server))
        tmux.start(name, line)
        asked = tmux.wait(lambda: "A new passphrase" in tmux.screen(name), 20)
        tmux.type(name, secret)
        again = tmux.wait(lambda: "The same passphrase again" in tmux.screen(name), 10)
        tmux.type(name, second)
        finished = tmux.wait(lambda: "EXIT=" in tmux.screen(name), 30)
        screen = tmux.screen(name)
        lines = screen.splitlines()
        if name == "differ":
            check(asked and again and finished and want in lines
                  and "navstack: sync: the two passphrases typed differ: nothing was kept" in lines,
                  "a new account's passphrase typed twice differently: one line, exit 1", screen)
        else:
            check(asked and again and finished and want in lines and any(l.startswith("sent 1,") for l in lines),
                  "a new account's passphrase is asked for twice at a terminal, and the sync seals with it", screen)
        check(secret not in screen, "the passphrase typed is not shown (%s)" % name, screen)
    # Another device opens the account with the same passphrase, given in the environment.
    other = os.path.join(workdir, "passphrase-other.sqlite")
    run(binary, other, "-c", "login %s" % user)
    out = run(binary, other, "sync", "--server", server, "--token", tok, env=dict(ENV, NAVSTACK_SYNC_PASSPHRASE=secret))
    titles = {t[0] for t in client_checks.tasks(binary, other, user).values()}
    check(out.returncode == 0 and titles == {"Sealed with a typed passphrase"},
          "another device opens the account with the passphrase typed", out.stderr + str(titles))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/navstack")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    workdir = tempfile.mkdtemp(prefix="navstack-sync-terminal.")
    for folder in ("state", "data"):
        os.makedirs(os.path.join(workdir, folder))
    tmux = Tmux(workdir)
    try:
        timeout_checks(binary, workdir)
        token_prompt_checks(binary, workdir, tmux)
        passphrase_prompt_checks(binary, workdir, tmux)
        store_failure_checks(binary, workdir)
        idle_lock_checks(binary, workdir, tmux)
        progress_checks(binary, workdir, tmux)
    finally:
        tmux.close()
        shutil.rmtree(workdir, ignore_errors=True)
    print("%d passed, %d failed" % (client_checks.passed, client_checks.failed))
    sys.exit(1 if client_checks.failed else 0)


if __name__ == "__main__":
    main()
