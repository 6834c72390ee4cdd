#!/usr/bin/env python3
"""End-to-end checks of navstack-server: two real server instances on one real PostgreSQL,
as scripts/sync-env starts them (it exports where they are):

    scripts/sync-env python3 Tests/Sync/server_checks.py

Each check prints `ok - …` or `not ok - …`; the last line is `N passed, M failed`, and the
exit status is 1 when any failed. Standard library only.
"""

import base64
import hashlib
import http.client
import json
import os
import random
import resource
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import zlib

SERVER_A = os.environ["NAVSTACK_SERVER_A"]
SERVER_B = os.environ["NAVSTACK_SERVER_B"]
PG_URL = os.environ["NAVSTACK_PG_URL"]
SERVER_BIN = os.environ["NAVSTACK_SERVER_BIN"]
A_PID_FILE = os.environ["NAVSTACK_SERVER_A_PID_FILE"]
A_LOG = os.environ["NAVSTACK_SERVER_A_LOG"]

FIELDS = ["task", "title", "notes", "done", "parent", "position"]
passed = 0
failed = 0


def seeded():
    """The seed of the replica ids and the made-up token these checks draw: NAVSTACK_TEST_SEED,
    else one drawn for the run."""
    value = os.environ.get("NAVSTACK_TEST_SEED", "")
    if value and not value.isdigit():
        sys.exit(f"NAVSTACK_TEST_SEED={value}: a seed is a whole number from 0")
    return int(value) if value else random.SystemRandom().randrange(1 << 31)


SEED = seeded()
RNG = random.Random(SEED)


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"not ok - {name}" + (f": {detail}" if detail else "")
              + f"\n  (seed {SEED}: NAVSTACK_TEST_SEED={SEED} draws the same again)")
    sys.stdout.flush()


def address(base):
    parsed = urllib.parse.urlsplit(base)
    return parsed.hostname, parsed.port


def call(base, method, path, body=None, token=None, headers=None, timeout=60):
    """One request on a new connection: (status, JSON body or None, raw body)."""
    host, port = address(base)
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    all_headers = dict(headers or {})
    if token is not None:
        all_headers["Authorization"] = f"Bearer {token}"
    if body is not None and not isinstance(body, (bytes, str)):
        body = json.dumps(body, separators=(",", ":"))
    if body is not None:
        all_headers.setdefault("Content-Type", "application/json")
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return response.status, parsed, raw


def sync(base, token, replica, after=0, ops=(), key=None):
    body = {"replica": replica, "after": after, "ops": list(ops)}
    if key is not None:
        body["key"] = key
    return call(base, "POST", "/v1/sync", body, token=token)


def psql(sql):
    result = subprocess.run(["psql", PG_URL, "-Atqc", sql], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def user(*words):
    """`navstack-server user WORDS…`: its exit status, standard output and standard error."""
    result = subprocess.run([SERVER_BIN, "--database", PG_URL, "--log-level", "warning", "user", *words],
                            capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def add_user(name):
    code, out, _ = user("add", name)
    return code, out


def new_user(name):
    code, out = add_user(name)
    assert code == 0, f"user add {name} failed"
    return out.strip()


def key_record(name):
    """A key record as the server reads it (SyncKeyShape), its salt from `name`, without a
    write check: the account takes writes from its tokens, as one keyed before write keys."""
    salt = base64.b64encode(hashlib.sha256(name.encode()).digest()[:16]).decode()
    check = base64.b64encode(bytes(72)).decode()
    return json.dumps({"kdf": "pbkdf2-hmac-sha256", "iterations": 100000, "salt": salt, "check": check},
                      separators=(",", ":"))


def new_sealed_user(name):
    """A user whose account holds a key record (given by a first sync), so that its pushes
    are sealed operations: the server's usual push, one statement (navstack_push_page)."""
    token = new_user(name)
    status = sync(SERVER_A, token, new_replica(), 0, [], key=key_record(name))[0]
    assert status == 200 and psql(f"SELECT key FROM account WHERE name = '{name}'") == key_record(name), status
    return token


def account_id(name):
    return int(psql(f"SELECT id FROM account WHERE name = '{name}'"))


def op_count(account, replica=None):
    where = f"account_id = {account}" + (f" AND replica = '{replica}'" if replica else "")
    return int(psql(f"SELECT count(*) FROM op WHERE {where}"))


def new_replica():
    return "%032x" % RNG.getrandbits(128)


def tag_code(tag):
    """Four hexadecimal digits that tell a tag's tasks apart."""
    return "%04x" % (zlib.crc32(tag.encode()) & 0xFFFF)


def task_id(tag, seq):
    """Task `seq` of `tag` as a uuid, the only task id the server takes."""
    return f"{seq:08x}-{tag_code(tag)}-4000-8000-000000000000"


def make_ops(count, first_seq=1, tag="t"):
    ops = []
    for index in range(count):
        seq = first_seq + index
        field = FIELDS[seq % len(FIELDS)]
        op = {"seq": seq, "millis": 1_700_000_000_000 + seq, "counter": seq % 7, "task": task_id(tag, seq),
              "field": field}
        if field == "task":
            op["value"] = {"title": f"task {seq}", "notes": "ü ✓ \"quoted\"", "done": False, "position": seq}
        elif field == "done":
            op["value"] = seq % 2 == 0
        elif field == "position":
            op["value"] = -seq
        elif field == "parent":
            op["value"] = None
        else:
            op["value"] = f"{field} {seq} é"
            op["old"] = f"before {seq}"
        ops.append(op)
    return ops


def seal(ops, salt=""):
    """The operations as a sealed account's: stamps kept, the rest an opaque payload."""
    return [{"seq": op["seq"], "millis": op["millis"], "counter": op["counter"],
             "sealed": base64.b64encode(json.dumps([op["task"], op["field"], op.get("value"), op.get("old"), salt])
                                        .encode()).decode()} for op in ops]


def same_op(sent, got, replica):
    return (got.get("replica") == replica and got.get("seq") == sent["seq"] and got.get("millis") == sent["millis"]
            and got.get("counter") == sent["counter"] and got.get("task") == sent["task"]
            and got.get("field") == sent["field"] and got.get("value") == sent["value"]
            and got.get("old") == sent.get("old") and isinstance(got.get("server_seq"), int))


def raw_exchange(base, head, body_chunks, read_timeout=10):
    """Sends a hand-made request and returns (status line or '', whether the server closed
    the connection before everything was sent)."""
    host, port = address(base)
    sock = socket.create_connection((host, port), timeout=read_timeout)
    closed_early = False
    try:
        sock.sendall(head)
        for chunk in body_chunks:
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                closed_early = True
                break
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        return status_line(sock, read_timeout), closed_early
    finally:
        sock.close()


def healthy(base):
    try:
        status, body, _ = call(base, "GET", "/health", timeout=5)
        return status == 200 and body == {"status": "ok"}
    except OSError:
        return False


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(*options, files=None):
    """Another navstack-server on the database, on a free port, with `options` and at most
    `files` open files; (process, base URL) once /health answers. Its log goes beside A's."""
    port = free_port()
    log = open(os.path.join(os.path.dirname(A_LOG), f"server-{port}.log"), "ab")

    def limit_files():
        if files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    process = subprocess.Popen([SERVER_BIN, "--database", PG_URL, "--listen", f"127.0.0.1:{port}", *options],
                               stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
                               preexec_fn=limit_files)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not healthy(base) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return process, base


def stop_server(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def status_line(sock, timeout):
    """The first line the server sends on `sock` within `timeout` s ('' for none, or
    when it closed or reset the connection first)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n" not in data:
            part = sock.recv(4096)
            if not part:
                break
            data += part
    except (socket.timeout, ConnectionResetError):
        pass
    return data.split(b"\r\n", 1)[0].decode("latin-1") if b"\r\n" in data else ""


def seconds_until_closed(sock, limit):
    """How long until the server closes `sock` (None if it has not within `limit` s);
    anything it sends first is read past."""
    began = time.monotonic()
    sock.settimeout(limit)
    try:
        while sock.recv(4096):
            pass
    except socket.timeout:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - began


def memory_kib(pid, key):
    """A line of /proc/PID/status in KiB: VmRSS (now) or VmHWM (the peak)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


# --- checks -----------------------------------------------------------------------------

def check_health_and_users():
    check("GET /health answers 200 {\"status\":\"ok\"} on both servers", healthy(SERVER_A) and healthy(SERVER_B))
    code, out = add_user("alice")
    check("user add prints the token alone: 64 lowercase hex digits and a newline",
          code == 0 and len(out) == 65 and out.endswith("\n") and all(c in "0123456789abcdef" for c in out[:64]),
          repr(out))
    code2, out2, err2 = user("add", "alice")
    check("user add of an existing account is refused with one line naming user token, exit 1",
          code2 == 1 and out2 == "" and len(err2.splitlines()) == 1 and "already an account 'alice'" in err2
          and "user token alice" in err2, f"{code2} {out2!r} {err2!r}")
    code3, out3, _ = user("token", "alice")
    check("user token gives an account another, different token that works on both servers",
          code3 == 0 and len(out3) == 65 and out3 != out and sync(SERVER_A, out3.strip(), new_replica())[0] == 200
          and sync(SERVER_B, out.strip(), new_replica())[0] == 200, f"{code3} {out3!r}")
    return out.strip()


def check_revoke_and_remove():
    """Tokens stop at once on every instance: each request looks its token up."""
    first = new_user("grace")
    code, second, _ = user("token", "grace")
    second = second.strip()
    code_list, listed, _ = user("list")
    check("user list prints each account's name, a tab and its token count, sorted by name",
          code_list == 0 and "grace\t2" in listed.splitlines() and listed.splitlines() == sorted(listed.splitlines()),
          repr(listed))
    writer = new_replica()
    status, _, _ = sync(SERVER_A, first, writer, 0, make_ops(3, tag="gr"))
    check("grace pushes 3 operations", status == 200)
    stranger = new_replica()
    status, _, _ = sync(SERVER_A, first, stranger, 0, make_ops(2, tag="st"))
    code, out, err = user("drop-replica", "grace", stranger)
    kept = psql(f"SELECT count(*) FROM op WHERE account_id = {account_id('grace')} AND replica = '{writer}'")
    check("user drop-replica removes what one replica sent, says how many, and keeps the rest",
          status == 200 and code == 0 and out == f"dropped 2 operations of replica {stranger} from 'grace'\n" and kept == "3",
          f"{status} {code} {out!r} {err!r} kept {kept}")
    code, _, err = user("drop-replica", "nobody", stranger)
    check("user drop-replica of no such account fails with one line", code == 1 and err.count("\n") == 1, repr(err))
    code, out, err = user("revoke", "grace")
    check("user revoke says how many tokens it stopped", code == 0 and out == "revoked 2 tokens of 'grace'\n",
          f"{code} {out!r} {err!r}")
    refused = [sync(server, token, new_replica())[0] for server in (SERVER_A, SERVER_B) for token in (first, second)]
    check("every revoked token is refused with 401 at once, on both servers", refused == [401] * 4, str(refused))
    code, third, _ = user("token", "grace")
    status, body, _ = sync(SERVER_B, third.strip(), new_replica())
    check("a new token after a revoke works and the account's log is still there",
          code == 0 and status == 200 and len(body["ops"]) == 3, f"{status} {body}")
    account = account_id("grace")
    code, out, err = user("remove", "grace")
    check("user remove says what it removed", code == 0 and out == "removed 'grace' with 1 token and 3 operations\n",
          f"{code} {out!r} {err!r}")
    refused = [sync(server, third.strip(), new_replica())[0] for server in (SERVER_A, SERVER_B)]
    check("after user remove its token is refused on both servers", refused == [401, 401], str(refused))
    check("user remove leaves nothing of the account in the database",
          psql(f"SELECT (SELECT count(*) FROM op WHERE account_id = {account}) + "
               f"(SELECT count(*) FROM token WHERE account_id = {account}) + "
               f"(SELECT count(*) FROM account WHERE id = {account})") == "0")
    for words in (("token", "grace"), ("revoke", "grace"), ("remove", "grace")):
        code, out, err = user(*words)
        check(f"user {words[0]} of an account that does not exist: exit 1, one line",
              code == 1 and out == "" and len(err.splitlines()) == 1 and "no account 'grace'" in err,
              f"{code} {out!r} {err!r}")


def big_sync_head(host, port, token):
    """The head of a sync that says 8,000,000 bytes of body follow."""
    return (f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: 8000000\r\n\r\n").encode()


def no_body_status(base, token):
    """(status line, seconds) for a sync whose head says 8,000,000 bytes of body and sends
    none: at once when the token is checked before the body, never when the body is read."""
    host, port = address(base)
    sock = socket.create_connection((host, port), timeout=10)
    began = time.monotonic()
    sock.sendall(big_sync_head(host, port, token))
    line = status_line(sock, 5)
    waited = time.monotonic() - began
    sock.close()
    return line, waited


def check_revoked_while_held():
    """A server holds the account of a token it found good (its TokenCache) and confirms
    the token in the sync's first statement. Revoked, the token is forgotten by both servers
    at once (the database tells them: a trigger on the token table), so its next request is
    refused before its body is read. Should a server still hold it (its word disabled here:
    the trigger off while the tokens are deleted), every kind of sync with it is refused 401
    by the statement, nothing of it kept and nothing of the account told (not the key another
    key would meet with 409), and then it is forgotten too."""
    for sealed in (False, True):
        kind = "sealed " if sealed else ""
        for told in (True, False):
            name = f"held-{'sealed-' if sealed else ''}{'told' if told else 'untold'}"
            token = new_sealed_user(name) if sealed else new_user(name)
            account = account_id(name)
            key = key_record(name) if sealed else None
            writer = new_replica()
            ops = seal(make_ops(2, tag="hj")) if sealed else make_ops(2, tag="hj")
            before = [sync(server, token, writer, 0, ops, key=key)[0] for server in (SERVER_A, SERVER_B)]
            before += [sync(server, token, new_replica(), 0, [], key=key)[0] for server in (SERVER_A, SERVER_B)]
            if told:
                user("revoke", name)
                # The word reaches the servers as the revoke commits; a moment for a busy
                # machine to hand it on (without it, the body would be waited for: 5 s).
                time.sleep(0.2)
                answers = [no_body_status(server, token) for server in (SERVER_A, SERVER_B)]
                check(f"a {kind}token both servers held, revoked: each refuses its next request before the body"
                      f" ({', '.join(f'{waited:.2f} s' for _, waited in answers)})",
                      before == [200] * 4 and all(line.startswith("HTTP/1.1 401 ") and waited < 1
                                                  for line, waited in answers), f"before={before} {answers}")
                continue
            psql("ALTER TABLE token DISABLE TRIGGER navstack_tokens_gone")
            psql(f"DELETE FROM token WHERE account_id = {account}")
            psql("ALTER TABLE token ENABLE TRIGGER navstack_tokens_gone")
            more = seal(make_ops(2, first_seq=3, tag="hj")) if sealed else make_ops(2, first_seq=3, tag="hj")
            refused = [
                sync(SERVER_A, token, writer, 0, more, key=key),  # a push (sealed: one statement)
                sync(SERVER_B, token, new_replica(), 0, [], key=key),  # a pull
                sync(SERVER_A, token, new_replica(), 0, [], key=key_record("another")),  # a key: 409 if it were good
            ]
            check(f"a {kind}token both servers still hold after it went (untold) is refused 401 by the sync's statement"
                  f" for a push, a pull and another key; nothing kept",
                  before == [200] * 4 and [status for status, _, _ in refused] == [401] * 3
                  and all(body == {"error": "bad token"} for _, body, _ in refused) and op_count(account) == 2,
                  f"before={before} refused={[(status, body) for status, body, _ in refused]} ops={op_count(account)}")
            answers = [no_body_status(server, token) for server in (SERVER_A, SERVER_B)]
            check(f"once refused, the untold {kind}token is looked up again before its body on both servers"
                  f" ({', '.join(f'{waited:.2f} s' for _, waited in answers)})",
                  all(line.startswith("HTTP/1.1 401 ") and waited < 1 for line, waited in answers), str(answers))


def until(condition):
    """Whether `condition` holds within 10 s (asked every 50 ms)."""
    deadline = time.monotonic() + 10
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


def waiting(*queries):
    """How many statements that start with one of `queries` wait for a lock in PostgreSQL."""
    matching = " OR ".join(f"query LIKE '{query}%'" for query in queries)
    return int(psql(f"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND ({matching})"))


def advisory_lock_held():
    return int(psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")) > 0


def remove_behind_the_lock(name, account):
    """A psql session that holds `account`'s advisory lock (its transaction open, errors
    kept), then `user remove name` started on a thread and queued behind the lock:
    (session, whether the lock was held, the removal's result once done, its thread,
    whether it queued)."""
    session = subprocess.Popen(["psql", PG_URL, "-Atq", "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    session.stdin.write(f"BEGIN; SELECT pg_advisory_xact_lock({account});\n")
    session.stdin.flush()
    held = until(advisory_lock_held)
    removed = {}
    remover = threading.Thread(target=lambda: removed.update(result=user("remove", name)))
    remover.start()
    queued = until(lambda: waiting("SELECT 1 FROM pg_advisory_xact_lock") >= 1)
    return session, held, removed, remover, queued


def check_remove_during_push(sealed=False):
    """A push whose token was good when it came, waiting for the account's lock while `user
    remove` takes the account away, is refused as a token that no longer works (401), not
    as a failure of the server (500). On a sealed account too, whose push waits for the lock
    inside navstack_token_push_page."""
    name = "sealed-ivy" if sealed else "ivy"
    token = new_sealed_user(name) if sealed else new_user(name)
    account = account_id(name)
    holder, held, removed, remover, queued = remove_behind_the_lock(name, account)
    pushed = {}
    ops = seal(make_ops(2, tag="iv")) if sealed else make_ops(2, tag="iv")
    pusher = threading.Thread(target=lambda: pushed.update(result=sync(SERVER_A, token, new_replica(), 0, ops)))
    pusher.start()
    # A sealed account's push waits inside navstack_token_push_page (SERVER_A holds the
    # token it gave the key with, and the key: one statement), another's on the lock itself.
    lock = "SELECT 1 FROM pg_advisory_xact_lock"
    both = until(lambda: waiting(lock) == 1 and waiting("SELECT * FROM navstack_token_push_page(") == 1 if sealed
                 else waiting(lock) == 2)
    holder.stdin.write("COMMIT;\n")
    holder.stdin.close()
    holder.wait(timeout=10)
    remover.join(timeout=20)
    pusher.join(timeout=20)
    status, body, _ = pushed.get("result", (None, None, None))
    code, out, _ = removed.get("result", (None, "", ""))
    check(f"a {'sealed ' if sealed else ''}push waiting while user remove takes its account is refused 401, not 500",
          held and queued and both and code == 0 and status == 401 and body == {"error": "bad token"},
          f"held={held} queued={queued} both={both} remove={code} {out!r} push={status} {body}")
    check(f"nothing of the removed {'sealed ' if sealed else ''}account is left after the push it refused",
          psql(f"SELECT (SELECT count(*) FROM op WHERE account_id = {account}) + "
               f"(SELECT count(*) FROM account WHERE id = {account})") == "0")


def check_remove_while_a_push_writes():
    """`user remove` meets a push that holds the account's lock and has yet to write its
    operations: the removal waits for the lock before it locks the account's row, in the
    order a push takes them, so neither waits on the other for ever (PostgreSQL would end
    one of them with `deadlock detected`): the push's write commits, then the account and
    everything it wrote go."""
    name = "jay"
    new_user(name)
    account = account_id(name)
    pusher, held, removed, remover, queued = remove_behind_the_lock(name, account)
    # The push's write: an operation of the account (its foreign key reads the account's row).
    pusher.stdin.write(f"INSERT INTO op (account_id, replica, seq, millis, counter, task, field, value) "
                       f"VALUES ({account}, 'jay-replica', 1, 0, 0, 'task', 'title', '\"x\"'); COMMIT;\n")
    pusher.stdin.close()
    pushed = pusher.wait(timeout=20)
    errors = pusher.stderr.read()
    remover.join(timeout=20)
    code, out, err = removed.get("result", (None, "", ""))
    check("user remove and a push that holds the account's lock finish both, with no deadlock",
          held and queued and pushed == 0 and code == 0
          and out == f"removed '{name}' with 1 token and 1 operation\n",
          f"held={held} queued={queued} push={pushed} {errors!r} remove={code} {out!r} {err!r}")
    check("nothing of the account is left after it",
          psql(f"SELECT (SELECT count(*) FROM op WHERE account_id = {account}) + "
               f"(SELECT count(*) FROM account WHERE id = {account})") == "0")


def check_push_and_pull(token):
    account = account_id("alice")
    one, two = new_replica(), new_replica()
    ops = make_ops(6, tag="pp")
    status, body, _ = sync(SERVER_A, token, one, 0, ops)
    highest = int(psql(f"SELECT max(server_seq) FROM op WHERE account_id = {account}"))
    # Every answer names the log's restore epoch, the same from every server on the database.
    epoch = psql("SELECT epoch FROM log_epoch")
    # Every answer names what it stored of its request: the replica and the range of its seqs.
    check("a push on A answers 200 without the pushing replica's own ops, last at the account's highest, "
          "naming the replica and the seqs stored",
          status == 200 and body == {"ops": [], "last": highest, "more": False, "epoch": epoch,
                                     "stored": {"replica": one, "first": 1, "last": 6}}, f"{status} {body}")
    status, body, _ = sync(SERVER_B, token, two, 0)
    check("every answer, from either server, names the database's restore epoch",
          len(epoch) == 32 and body.get("epoch") == epoch, f"{epoch} {body.get('epoch')}")
    got = body["ops"] if status == 200 else []
    check("a pull on B by another replica returns them in order, every field as sent",
          len(got) == 6 and all(same_op(s, g, one) for s, g in zip(ops, got))
          and [g["server_seq"] for g in got] == sorted(g["server_seq"] for g in got)
          and body["last"] == highest and body["more"] is False, f"{status} {body}")
    status, body, _ = sync(SERVER_B, token, one, 0)
    check("the pushing replica's own ops are not returned to it", status == 200 and body["ops"] == [], f"{body}")
    status, body, _ = sync(SERVER_A, token, two, highest)
    check("a pull after the highest server_seq returns nothing, last unchanged",
          status == 200 and body == {"ops": [], "last": highest, "more": False, "epoch": epoch,
                                     "stored": {"replica": two, "first": 0, "last": 0}}, f"{body}")
    status, body, _ = sync(SERVER_A, token, two, highest + 1000)
    check("a pull after a server_seq past the highest keeps `after` as last",
          status == 200 and body == {"ops": [], "last": highest + 1000, "more": False, "epoch": epoch,
                                     "stored": {"replica": two, "first": 0, "last": 0}}, f"{body}")

    before = op_count(account)
    replay = [sync(SERVER_A, token, one, 0, ops)[0], sync(SERVER_B, token, one, 0, ops)[0]]
    check("a replayed request (on A and on B) answers 200 and adds nothing twice",
          replay == [200, 200] and before == 6 and op_count(account) == 6, f"{replay} {before} {op_count(account)}")

    # Pushing and pulling in the same request: the pull sees what others pushed.
    ops3 = make_ops(2, first_seq=1, tag="mix")
    status, body, _ = sync(SERVER_B, token, two, highest, ops3)
    newest = int(psql(f"SELECT max(server_seq) FROM op WHERE account_id = {account}"))
    check("a push by another replica stores its ops; its answer skips them, last at the new highest",
          status == 200 and body["ops"] == [] and body["last"] == newest > highest, f"{body}")
    status, body, _ = sync(SERVER_A, token, one, highest)
    check("and the first replica then pulls exactly those two",
          status == 200 and len(body["ops"]) == 2 and all(same_op(s, g, two) for s, g in zip(ops3, body["ops"])),
          f"{body}")


def check_paging():
    token = new_user("pager")
    account = account_id("pager")
    writer, reader = new_replica(), new_replica()
    ops = make_ops(25_000, tag="pg")
    started = time.monotonic()
    statuses = [sync(SERVER_A, token, writer, 0, ops[i:i + 10_000])[0] for i in range(0, 25_000, 10_000)]
    push_seconds = time.monotonic() - started
    check(f"25,000 ops pushed in 3 requests ({push_seconds:.2f} s)",
          statuses == [200, 200, 200] and op_count(account) == 25_000, f"{statuses} {op_count(account)}")
    highest = int(psql(f"SELECT max(server_seq) FROM op WHERE account_id = {account}"))
    after, pages, got = 0, [], []
    started = time.monotonic()
    for _ in range(4):
        status, body, _ = sync(SERVER_B, token, reader, after)
        if status != 200:
            pages.append((status, None, None))
            break
        pages.append((len(body["ops"]), body["more"], body["last"]))
        got.extend(body["ops"])
        after = body["last"]
        if not body["more"]:
            break
    pull_seconds = time.monotonic() - started
    shape = [(count, more) for count, more, _ in pages]
    check(f"they are pulled in 3 pages of 10,000, 10,000 and 5,000 with more true, true, false ({pull_seconds:.2f} s)",
          shape == [(10_000, True), (10_000, True), (5_000, False)], f"{pages}")
    check("each page's last is its last op's server_seq, the final one the account's highest",
          len(pages) == 3 and pages[0][2] == got[9_999]["server_seq"] and pages[1][2] == got[19_999]["server_seq"]
          and pages[2][2] == highest, f"{pages} highest {highest}")
    check("the pages hold every op once, in the order sent",
          [g["seq"] for g in got] == list(range(1, 25_001)) and all(same_op(s, g, writer) for s, g in zip(ops, got)))
    return token


def check_accounts_apart(alice, pager):
    bob = new_user("bob")
    replica = new_replica()
    ops = make_ops(3, tag="bob")
    sync(SERVER_A, bob, replica, 0, ops)
    status, body, _ = sync(SERVER_B, bob, new_replica(), 0)
    check("a user sees only their own ops", status == 200 and [g["task"] for g in body["ops"]] == [o["task"] for o in ops],
          f"{body}")
    alice_sees = sync(SERVER_A, alice, new_replica(), 0)[1]["ops"]
    pager_sees = sync(SERVER_B, pager, new_replica(), 0)[1]["ops"]
    check("two users never see each other's ops",
          all(g["replica"] != replica for g in alice_sees + pager_sees)
          and not any(g["task"][9:13] == tag_code("pg") for g in alice_sees))


def check_refusals(token):
    replica = new_replica()
    good = {"replica": replica, "after": 0, "ops": []}

    def refused(name, status_expected, *args, **kwargs):
        status, body, raw = call(*args, **kwargs)
        one_line = isinstance(body, dict) and list(body) == ["error"] and isinstance(body["error"], str) \
            and body["error"] and "\n" not in body["error"]
        check(f"{name} → {status_expected} {{\"error\":…}}", status == status_expected and one_line,
              f"{status} {raw[:200]!r}")
        return body["error"] if one_line else ""

    refused("no token", 401, SERVER_A, "POST", "/v1/sync", good)
    refused("an unknown token", 401, SERVER_A, "POST", "/v1/sync", good, token="0" * 64)
    refused("a token of the wrong shape", 401, SERVER_A, "POST", "/v1/sync", good, token="not-a-token")
    refused("another scheme than Bearer", 401, SERVER_A, "POST", "/v1/sync", good, headers={"Authorization": "Basic " + token})
    refused("malformed JSON", 400, SERVER_A, "POST", "/v1/sync", b'{"replica": "', token=token)
    refused("an empty body", 400, SERVER_A, "POST", "/v1/sync", b"", token=token)
    refused("a body that is not an object", 400, SERVER_A, "POST", "/v1/sync", b"[1,2]", token=token)
    message = refused("`after` of the wrong type", 400, SERVER_A, "POST", "/v1/sync",
                      {"replica": replica, "after": "0", "ops": []}, token=token)
    check("the reason names the member", "after" in message, message)
    refused("a negative `after`", 400, SERVER_A, "POST", "/v1/sync", {"replica": replica, "after": -1, "ops": []},
            token=token)
    refused("a bad replica", 400, SERVER_A, "POST", "/v1/sync", {"replica": "ABC", "after": 0, "ops": []}, token=token)
    refused("a missing replica", 400, SERVER_A, "POST", "/v1/sync", {"after": 0, "ops": []}, token=token)
    bad_field = make_ops(3)
    bad_field[2]["field"] = "colour"
    message = refused("a bad field", 400, SERVER_A, "POST", "/v1/sync", {"replica": replica, "after": 0, "ops": bad_field},
                      token=token)
    check("the reason says which op and member", "ops[2].field" in message, message)
    wrong = make_ops(1)
    wrong[0]["seq"] = 1.5
    refused("a seq that is not whole", 400, SERVER_A, "POST", "/v1/sync", {"replica": replica, "after": 0, "ops": wrong},
            token=token)
    wrong = make_ops(1)
    wrong[0]["task"] = "x" * 65
    refused("a task longer than 64 characters", 400, SERVER_A, "POST", "/v1/sync",
            {"replica": replica, "after": 0, "ops": wrong}, token=token)
    wrong = make_ops(1)
    wrong[0]["task"] = "a\u0000b"
    refused("a task holding NUL", 400, SERVER_A, "POST", "/v1/sync", {"replica": replica, "after": 0, "ops": wrong},
            token=token)
    wrong = make_ops(1)
    del wrong[0]["value"]
    refused("an op without value", 400, SERVER_A, "POST", "/v1/sync", {"replica": replica, "after": 0, "ops": wrong},
            token=token)
    refused("10,001 ops in one request", 400, SERVER_A, "POST", "/v1/sync",
            {"replica": replica, "after": 0, "ops": make_ops(10_001)}, token=token)
    check("nothing refused was stored", op_count(account_id("alice"), replica) == 0)
    refused("an unknown path", 404, SERVER_A, "GET", "/v2/nothing")
    refused("GET on /v1/sync", 405, SERVER_A, "GET", "/v1/sync")
    refused("POST on /health", 405, SERVER_A, "POST", "/health", b"{}")

    host, port = address(SERVER_A)
    body = json.dumps(good).encode()
    head = (f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body) + 1000}\r\n\r\n").encode()
    status_line, _ = raw_exchange(SERVER_A, head, [body], read_timeout=10)
    check("a truncated body (Content-Length past the bytes, then closed) is refused or dropped",
          status_line == "" or " 400 " in status_line, status_line)
    check("and the server still answers /health", healthy(SERVER_A))

    size = 50 * 1024 * 1024
    head = (f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode()
    chunk = b" " * (1024 * 1024)
    status_line, closed_early = raw_exchange(SERVER_A, head, (chunk for _ in range(50)), read_timeout=30)
    check("a 50 MB body → 413 (or the connection closed early)",
          " 413 " in status_line or (status_line == "" and closed_early), f"{status_line!r} closed early {closed_early}")
    # Streamed without a Content-Length: refused once it passes 8 MiB.
    head = (f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    piece = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
    status_line, closed_early = raw_exchange(SERVER_A, head, (piece for _ in range(12)), read_timeout=30)
    check("a chunked body streamed past 8 MiB → 413 (or the connection closed early)",
          " 413 " in status_line or (status_line == "" and closed_early), f"{status_line!r} closed early {closed_early}")
    check("and the server still answers /health after both", healthy(SERVER_A))


def check_formats_and_old_keys():
    """A format no navstack knows is refused, never stored, first on a new account too; an
    account keyed before write checks takes no snapshot and no drop_clear from anyone; and
    a replica that `user drop-replica` removed is named gone to a device that keeps its
    operations set aside (issue 61)."""
    token = new_user("formats")
    account = account_id("formats")
    replica = new_replica()
    body = {"replica": replica, "after": 0, "ops": make_ops(1, tag="fmt"), "format": 1_000_000}
    status, answer, _ = call(SERVER_A, "POST", "/v1/sync", body, token=token)
    check("a push naming format 1,000,000 first on a new account → 400 naming it",
          status == 400 and "format 1000000 is not one this server knows" in answer.get("error", ""), f"{status} {answer}")
    check("and nothing of it was stored: the account's format is still 1",
          psql(f"SELECT format FROM account WHERE id = {account}") == "1" and op_count(account) == 0)
    body["format"] = 2
    status, _, _ = call(SERVER_A, "POST", "/v1/sync", body, token=token)
    check("a clear client of the current format writes and sets it",
          status == 200 and psql(f"SELECT format FROM account WHERE id = {account}") == "2")

    token = new_user("oldkey")
    account = account_id("oldkey")
    salt = base64.b64encode(b"s" * 16).decode()
    check_text = base64.b64encode(b"c" * 72).decode()
    record = json.dumps({"kdf": "pbkdf2-hmac-sha256", "iterations": 100_000, "salt": salt, "check": check_text},
                        separators=(",", ":"))
    device, hostile = new_replica(), new_replica()
    status, answer, _ = sync(SERVER_A, token, device, key=record)
    check("an account takes a key record without a write check (made before write keys)",
          status == 200 and answer.get("key") == record, f"{status} {answer}")
    sealed = [{"seq": seq, "millis": 1_700_000_000_000 + seq, "counter": 0,
               "sealed": base64.b64encode(b"garbage %d" % seq * 4).decode()} for seq in (1, 2, 3)]
    status, answer, _ = call(SERVER_A, "POST", "/v1/sync", {"replica": hostile, "after": 0, "ops": sealed}, token=token)
    check("a token holder still writes sealed bytes to it", status == 200, f"{status} {answer}")
    status, answer, _ = call(SERVER_A, "POST", "/v1/sync", {"replica": device, "after": 0, "ops": sealed[:1]}, token=token)
    last = answer.get("last", 0) if status == 200 else 0
    snapshot = {"replica": hostile, "after": last, "ops": [], "own_seq": 3,
                "snapshot": {"seq": last, "sealed": base64.b64encode(b"bogus" * 10).decode()}}
    status, answer, _ = call(SERVER_A, "POST", "/v1/sync", snapshot, token=token)
    check("but no snapshot, which would drop the account's log → 400",
          status == 400 and "no write check" in answer.get("error", ""), f"{status} {answer}")
    status, answer, _ = call(SERVER_B, "POST", "/v1/sync", {"replica": hostile, "after": last, "ops": [], "drop_clear": True},
                             token=token)
    check("and no drop_clear → 400", status == 400, f"{status} {answer}")
    check("the log is whole", op_count(account) == 4 and psql(f"SELECT count(*) FROM snapshot WHERE account_id = {account}") == "0")
    code, out, _ = user("drop-replica", "oldkey", hostile)
    status, answer, _ = call(SERVER_B, "POST", "/v1/sync", {"replica": device, "after": last, "ops": [],
                                                             "aside": [hostile, device]}, token=token)
    check("once drop-replica removed a replica, a device that keeps its operations aside is told it is gone",
          code == 0 and status == 200 and answer.get("gone") == [hostile], f"{code} {out!r} {status} {answer}")


def check_replica_taken(sealed=False):
    """A (replica, seq) held with other content is refused with 409 and nothing of that
    request is kept (issue 27, item 1); the same content sent again is taken as held. On a
    sealed account too, where the push is one statement (navstack_push_page)."""
    name = "sealed-frank" if sealed else "frank"
    token = new_sealed_user(name) if sealed else new_user(name)
    account = account_id(name)
    replica = new_replica()
    kind = "sealed " if sealed else ""
    shown = seal if sealed else (lambda ops, salt="": ops)
    ops = make_ops(3, tag="held")
    first = [sync(SERVER_A, token, replica, 0, shown(ops))[0], sync(SERVER_B, token, replica, 0, shown(ops))[0]]
    check(f"3 {kind}ops pushed, then sent again on A and B: 200 twice, 3 kept",
          first == [200, 200] and op_count(account) == 3, f"{first} {op_count(account)}")

    def refused(what, base, sent, index, seq):
        status, body, raw = sync(base, token, replica, 0, sent)
        error = body.get("error", "") if isinstance(body, dict) else ""
        check(f"{kind}{what} → 409 naming the op, the replica and the seq, nothing of it kept",
              status == 409 and list(body) == ["error"] and error.startswith(f"ops[{index}] reuses seq {seq} of replica {replica}")
              and op_count(account) == 3, f"{status} {raw[:300]!r} {op_count(account)}")

    # ops: seq 1 sets a title (old "before 1"), seq 2 notes, seq 3 done.
    refused("a held seq with another stamp beside a new seq", SERVER_A,
            shown([ops[0], dict(ops[1], millis=ops[1]["millis"] + 1)] + make_ops(1, first_seq=4, tag="held")), 1, 2)
    refused("a held seq with another old value", SERVER_B, shown([dict(ops[0], old="before something else")]), 0, 1)
    refused("a held seq with another value", SERVER_B, shown([dict(ops[2], value=not ops[2]["value"])]), 0, 3)
    new = make_ops(1, first_seq=5, tag="held")[0]
    refused("one new seq twice in a request with other content", SERVER_A,
            shown([new]) + shown([dict(new, value=new["value"] - 1)]), 1, 5)
    status = sync(SERVER_A, token, new_replica(), 0, shown([dict(op, value="another replica's") for op in ops[:2]]))[0]
    check(f"another replica's same {kind}seqs are its own: 200", status == 200, status)


def check_concurrent_writers(sealed=False):
    """Writers on both servers push to one account while a reader pulls again and again
    from where it left off: the account's lock makes server_seq the commit order, so the
    reader gets every op exactly once. On a sealed account too, where each push is one
    statement that takes the lock, inserts, reads the page and commits (navstack_push_page)."""
    token = new_sealed_user("sealed-dave") if sealed else new_user("dave")
    shown = seal if sealed else (lambda ops: ops)
    writers = [new_replica() for _ in range(4)]
    reader = new_replica()
    per_request, requests = 200, 6
    failures = []

    def write(index, replica):
        base = SERVER_A if index % 2 == 0 else SERVER_B
        last = 0
        for number in range(requests):
            ops = shown(make_ops(per_request, first_seq=number * per_request + 1, tag=f"w{index}"))
            status, body, _ = sync(base, token, replica, last, ops)
            if status != 200:
                failures.append(status)
            else:
                last = body["last"]

    threads = [threading.Thread(target=write, args=(i, r)) for i, r in enumerate(writers)]
    for thread in threads:
        thread.start()
    received, after = [], 0
    while any(thread.is_alive() for thread in threads):
        status, body, _ = sync(SERVER_B if len(received) % 2 else SERVER_A, token, reader, after)
        if status == 200:
            received.extend((g["replica"], g["seq"]) for g in body["ops"])
            after = body["last"]
    for thread in threads:
        thread.join()
    while True:
        status, body, _ = sync(SERVER_A, token, reader, after)
        received.extend((g["replica"], g["seq"]) for g in body["ops"])
        after = body["last"]
        if not body["more"]:
            break
    expected = {(r, seq) for r in writers for seq in range(1, per_request * requests + 1)}
    check(f"a reader pulling while 4 writers push to A and B gets all {len(expected):,} {'sealed ' if sealed else ''}ops "
          "exactly once",
          not failures and len(received) == len(expected) and set(received) == expected,
          f"failures {failures}, received {len(received)}, distinct {len(set(received))}, expected {len(expected)}")


def check_token_before_body():
    """A made-up token is refused before a byte of the body is read (issue 27, item 5)."""
    process, base = start_server()
    host, port = address(base)
    made_up = "%064x" % RNG.getrandbits(256)
    head = big_sync_head(host, port, made_up)
    try:
        line, waited = no_body_status(base, made_up)
        check(f"a made-up token with Content-Length 8000000 and no body is answered 401 at once ({waited:.2f} s)",
              line.startswith("HTTP/1.1 401 ") and waited < 1, repr(line))

        count, chunk = 40, b" " * 65536
        before_now, before_peak = memory_kib(process.pid, "VmRSS"), memory_kib(process.pid, "VmHWM")
        lines = []

        def send_all():
            with socket.create_connection((host, port), timeout=30) as flood:
                flood.sendall(head)
                try:
                    for _ in range(8_000_000 // len(chunk) + 1):
                        flood.sendall(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                lines.append(status_line(flood, 30))

        threads = [threading.Thread(target=send_all) for _ in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        after_now, after_peak = memory_kib(process.pid, "VmRSS"), memory_kib(process.pid, "VmHWM")
        print(f"# {count} connections with made-up tokens sending 8 MB bodies: the server's RSS {before_now / 1024:.1f} MB"
              f" → {after_now / 1024:.1f} MB, its peak {before_peak / 1024:.1f} MB → {after_peak / 1024:.1f} MB")
        answered = sum(line.startswith("HTTP/1.1 401 ") for line in lines)
        check(f"{count} connections with made-up tokens sending 8 MB bodies are each answered 401, and the server's"
              f" peak memory grows by less than 16 MB ({(after_peak - before_peak) / 1024:.1f} MB)",
              answered == count and after_peak - before_peak < 16 * 1024, f"{answered} answered 401: {set(lines)}")
    finally:
        stop_server(process)


def half_sent(host, port, head=None):
    """A connection that sends part of a request's head and then nothing."""
    sock = socket.create_connection((host, port), timeout=10)
    sock.sendall(head or f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: appl".encode())
    return sock


def check_half_sent_closed():
    """With the default timeouts, a half-sent request is closed within 30 s (issue 27, item 6)."""
    host, port = address(SERVER_A)
    sock = half_sent(host, port)
    waited = seconds_until_closed(sock, 35)
    sock.close()
    check(f"a half-sent request head is closed within 30 s ({'not closed' if waited is None else f'{waited:.1f} s'})",
          waited is not None and waited <= 30, waited)


def split_held(sockets):
    """The sockets the server holds open without a word yet, and the first line of what it
    wrote on each of the others (b"" for one it closed), looked at without waiting."""
    held, lines = [], []
    for sock in sockets:
        sock.setblocking(False)
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            held.append(sock)
            continue
        except OSError:
            data = b""
        lines.append(data.split(b"\r\n", 1)[0])
    return held, lines


def check_slow_client_flood(token):
    """A flood of half-sent heads from one address holds at most the address's share of
    --max-connections (a quarter): each new one takes the place of the oldest (strangers
    between requests give way), so a new connection is served; a real client keeps
    syncing on its connection; the timeouts close what is half sent."""
    cap, header, body_timeout, idle = 100, 5, 3, 5
    process, base = start_server("--max-connections", str(cap), "--header-timeout", str(header), "--body-timeout",
                                 str(body_timeout), "--idle-timeout", str(idle), files=256)
    host, port = address(base)
    flood = []
    try:
        check(f"a server with --max-connections {cap} and header, body and idle timeouts of {header}, {body_timeout} "
              f"and {idle} s starts (at most 256 open files)",
              process.poll() is None and healthy(base))
        replica = new_replica()
        client = http.client.HTTPConnection(host, port, timeout=10)

        def client_sync(ops):
            body = json.dumps({"replica": replica, "after": 0, "ops": ops}, separators=(",", ":"))
            client.request("POST", "/v1/sync", body=body,
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            response = client.getresponse()
            return response.status, json.loads(response.read())

        first = client_sync(make_ops(2, tag="flood"))
        sock = client.sock
        began = time.monotonic()
        for _ in range(300):
            try:
                flood.append(half_sent(host, port))
            except OSError:
                break
        time.sleep(0.5)
        held, lines = split_held(flood)
        answered = sum(1 for line in lines if line.startswith(b"HTTP/1.1 503 "))
        print(f"# {len(flood)} half-sent requests in {time.monotonic() - began:.2f} s: {answered} answered 503, "
              f"{len(held)} held open")
        share = cap // 4
        check(f"300 half-sent requests from one address: at most its share of {share} held, the older ones closed to "
              f"make room ({len(held)} held)", len(flood) == 300 and len(held) <= share, f"{len(flood)} {answered} {len(held)}")
        status, body, _ = call(base, "GET", "/health", timeout=5)
        check("a new connection meanwhile is served, in a half-sent one's place: /health 200",
              status == 200, f"{status} {body}")
        second = client_sync(make_ops(3, tag="flood"))
        answered_at = time.monotonic()
        check("a real client's keep-alive POST /v1/sync succeeds before and during the flood",
              first[0] == 200 and second[0] == 200 and client.sock is sock and time.monotonic() - began < header,
              f"{first} {second} {time.monotonic() - began:.1f} s")
        # Each held one, from when the flood began: all were sent within its first second.
        closed = [None if seconds_until_closed(each, header + 5) is None else time.monotonic() - began
                  for each in held[:5]]
        check(f"the half-sent requests held are closed by the {header} s header timeout "
              f"({', '.join('not' if c is None else f'{c:.1f}' for c in closed)} s after the flood began)",
              all(c is not None and c <= header + 2 for c in closed), closed)
        deadline = time.monotonic() + header + 3
        while not healthy(base) and time.monotonic() < deadline:
            time.sleep(0.1)
        check("then a new connection is served again: /health 200", healthy(base))
        waited = seconds_until_closed(sock, idle + 5)
        idled = None if waited is None else time.monotonic() - answered_at
        check(f"the real client's idle connection is closed by the {idle} s idle timeout "
              f"({'not closed' if idled is None else f'{idled:.1f} s after its answer'})",
              idled is not None and idle - 1 <= idled <= idle + 2, idled)
        head = (f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"replica\":").encode()
        slow = half_sent(host, port, head)
        waited = seconds_until_closed(slow, body_timeout + 5)
        slow.close()
        check(f"a body that stops halfway is closed by the {body_timeout} s body timeout "
              f"({'not closed' if waited is None else f'{waited:.1f} s'})",
              waited is not None and waited <= body_timeout + 2, waited)
        check("the server ran throughout", process.poll() is None and healthy(base))
    finally:
        for each in flood:
            each.close()
        stop_server(process)

    process, base = start_server(files=128)
    stop_server(process)
    with open(os.path.join(os.path.dirname(A_LOG), f"server-{address(base)[1]}.log")) as log:
        text = log.read()
    check("under a limit of 128 open files, the default cap of 512 connections comes down to 64, and the log says so",
          "fewer connections than asked" in text and "connections=64" in text, text[-300:])


def check_idle_strangers_flood(token):
    """A flood of keep-alive connections that ask GET /health now and then (inside the idle
    timeout) and never show a token fills the cap: a device still syncs within 2 s, its new
    connection taking the place of the oldest of them, and so does a new /health. The
    issue's numbers: 600 strangers against the default cap (512)."""
    cap, flood_size = 512, 600
    process, base = start_server("--idle-timeout", "30", files=2048)
    host, port = address(base)
    flood = []
    try:
        request = f"GET /health HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
        answered = 0
        for _ in range(flood_size):
            sock = socket.create_connection((host, port), timeout=5)
            flood.append(sock)
            sock.sendall(request)
            line = status_line(sock, 5)
            answered += line.startswith("HTTP/1.1 200")
        print(f"# {flood_size} keep-alive strangers past a cap of {cap}: {answered} answered 200")
        began = time.monotonic()
        status, body, _ = sync(base, token, new_replica(), 0, make_ops(2, tag="ka"))
        took = time.monotonic() - began
        check(f"{flood_size} idle keep-alive strangers past a cap of {cap}: a device syncs within 2 s",
              status == 200 and took < 2, f"{status} {body} {took:.1f} s")
        status, body, _ = call(base, "GET", "/health", timeout=5)
        check("and a new GET /health is answered 200", status == 200, f"{status} {body}")
        check("the server ran throughout", process.poll() is None and healthy(base))
    finally:
        for sock in flood:
            sock.close()
        stop_server(process)


def check_bodies_in_flight_bounded(token):
    """A token holder's 100 connections, each sending an 8 MiB body but its last byte,
    hold at most the server's budget for one account's bodies (16 MiB; 64 MiB for all):
    the rest are answered 503 at once, unread; the server's memory stays under a bound;
    another account's device syncs meanwhile, within 2 s."""
    process, base = start_server("--body-timeout", "20", files=512)
    host, port = address(base)
    held = []
    try:
        other = new_user("body-other")
        rss_before = memory_kib(process.pid, "VmRSS")
        size = 8 << 20
        head = (f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode()
        chunk = b"x" * (1 << 20)

        def send(sock):
            try:
                sock.sendall(head)
                left = size - 1
                while left > 0:
                    sent = sock.send(chunk[:min(len(chunk), left)])
                    left -= sent
            except OSError:
                pass

        sockets = [socket.create_connection((host, port), timeout=30) for _ in range(100)]
        senders = [threading.Thread(target=send, args=(sock,)) for sock in sockets]
        began = time.monotonic()
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(timeout=60)
        sent_in = time.monotonic() - began
        time.sleep(1)
        held, answered = split_held(sockets)
        rss = memory_kib(process.pid, "VmRSS")
        peak = memory_kib(process.pid, "VmHWM")
        refused = sum(1 for line in answered if line.startswith(b"HTTP/1.1 503 "))
        print(f"# 100 bodies of 8 MiB but a byte in {sent_in:.1f} s: {len(held)} held, {refused} answered 503; "
              f"RSS {rss_before // 1024} -> {rss // 1024} MB, peak {peak // 1024} MB")
        check("past the account's share of the bodies in flight, a sync is answered 503 at once, its body unread",
              len(held) <= 2 and refused >= 98, f"held {len(held)}, 503 {refused}, others {answered[:3]}")
        check("the server's memory stays under 200 MB (884 MB before the bound)", peak < 200 * 1024,
              f"peak {peak // 1024} MB")
        began = time.monotonic()
        status, body, _ = sync(base, other, new_replica(), 0, make_ops(2, tag="bo"))
        took = time.monotonic() - began
        check("another account's device syncs meanwhile, within 2 s", status == 200 and took < 2,
              f"{status} {body} {took:.1f} s")
        check("the server ran throughout", process.poll() is None and healthy(base))
    finally:
        for sock in held:
            sock.close()
        stop_server(process)


def postgres(action):
    """Stops or starts the PostgreSQL of scripts/sync-env through scripts/lib/postgres.sh."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    port = str(urllib.parse.urlsplit(PG_URL).port)
    command = 'source scripts/lib/postgres.sh && if [ "$1" = stop ]; then pg_stop "$2"; else pg_start "$2" "$3"; fi'
    return subprocess.run(["bash", "-c", command, "_", action, os.environ["NAVSTACK_PG_SOCKET_DIR"], port],
                          cwd=root).returncode == 0


def check_database_stopped():
    token = new_user("erin")
    replica = new_replica()
    stopped = postgres("stop")
    began = time.monotonic()
    status, body, _ = call(SERVER_B, "GET", "/health")
    check("with the database stopped, /health → 503 {\"error\":…} within 2 s",
          stopped and status == 503 and isinstance(body, dict) and "error" in body and time.monotonic() - began < 3,
          f"{status} {body}")
    began = time.monotonic()
    status, body, _ = sync(SERVER_B, token, replica, 0, make_ops(3, tag="down"))
    check("and a sync → 503 {\"error\":…} within 5 s",
          status == 503 and isinstance(body, dict) and "error" in body and time.monotonic() - began < 6, f"{status} {body}")
    started = postgres("start")
    deadline = time.monotonic() + 20
    while not healthy(SERVER_B) and time.monotonic() < deadline:
        time.sleep(0.1)
    status, body, _ = sync(SERVER_B, token, replica, 0, make_ops(3, tag="down"))
    check("the database started again, the same server answers: /health 200 and the sync stores its ops",
          started and healthy(SERVER_B) and status == 200 and op_count(account_id("erin"), replica) == 3,
          f"{status} {body}")

    # Each server listens again for tokens that go (TokenWatch: a second after its
    # connection failed), and a revoke reaches both.
    def listening():
        return int(psql("SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN \"navstack_tokens_gone\";'"))
    deadline = time.monotonic() + 10
    while listening() < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    listeners = listening()
    held = [sync(server, token, new_replica())[0] for server in (SERVER_A, SERVER_B)]
    user("revoke", "erin")
    time.sleep(0.2)  # as in check_revoked_while_held
    answers = [no_body_status(server, token) for server in (SERVER_A, SERVER_B)]
    check(f"after the restart both servers listen for tokens that go again ({listeners} listening), and a token they"
          f" held, revoked, is refused before its body ({', '.join(f'{waited:.2f} s' for _, waited in answers)})",
          listeners == 2 and held == [200, 200]
          and all(line.startswith("HTTP/1.1 401 ") and waited < 1 for line, waited in answers),
          f"listening={listeners} held={held} {answers}")


def restart_a():
    host, port = address(SERVER_A)
    with open(A_LOG, "ab") as log:
        process = subprocess.Popen([SERVER_BIN, "--database", PG_URL, "--listen", f"{host}:{port}"],
                                   stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
    with open(A_PID_FILE, "w") as pid_file:
        pid_file.write(f"{process.pid}\n")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if healthy(SERVER_A):
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.05)
    return False


def check_kill_mid_request():
    token = new_user("carol")
    account = account_id("carol")
    host, port = address(SERVER_A)
    outcomes = []
    for round_number, delay in enumerate([0.0, 0.03, 0.3]):
        replica = new_replica()
        body = json.dumps({"replica": replica, "after": 0, "ops": make_ops(10_000, tag=f"k{round_number}")},
                          separators=(",", ":")).encode()
        head = (f"POST /v1/sync HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        with open(A_PID_FILE) as pid_file:
            pid = int(pid_file.read().strip())
        sock = socket.create_connection((host, port), timeout=10)
        sock.sendall(head + body)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        try:
            answer = sock.recv(64)
        except OSError:
            answer = b""
        sock.close()
        # The killed process is gone once its port stops answering.
        deadline = time.monotonic() + 10
        while healthy(SERVER_A) and time.monotonic() < deadline:
            time.sleep(0.02)
        count = op_count(account, replica)
        outcomes.append("answered" if answer.startswith(b"HTTP/1.1 200") else f"{count} stored")
        check(f"kill -9 of A {int(delay * 1000)} ms into a push of 10,000 ops leaves none or all of them ({count})",
              count in (0, 10_000), f"{count}")
        check("A starts again on the same database", restart_a())
        status = call(SERVER_A, "POST", "/v1/sync", body, token=token)[0]
        # What the log holds of this replica, every column as the server keeps it.
        held = json.loads(psql("SELECT coalesce(json_agg(json_build_object('seq', seq, 'millis', millis, 'counter', "
                               "counter, 'task', task, 'field', field, 'value', value::json, 'old', old::json) ORDER BY seq), "
                               f"'[]') FROM op WHERE account_id = {account} AND replica = '{replica}'"))
        sent = [dict(op, old=op.get("old")) for op in json.loads(body)["ops"]]
        check("the request sent again leaves exactly the 10,000 ops sent, each once with its content",
              status == 200 and held == sent,
              f"{status}, {len(held)} held; first differences: {[(s, h) for s, h in zip(sent, held) if s != h][:2]}")
    print(f"# kill -9 outcomes: {', '.join(outcomes)}")


def main():
    started = time.monotonic()
    def timed(step, *args):
        began = time.monotonic()
        result = step(*args)
        print(f"# {step.__name__}: {time.monotonic() - began:.1f} s")
        return result

    alice = timed(check_health_and_users)
    timed(check_push_and_pull, alice)
    pager = timed(check_paging)
    timed(check_accounts_apart, alice, pager)
    timed(check_refusals, alice)
    timed(check_formats_and_old_keys)
    timed(check_replica_taken)
    timed(check_replica_taken, True)
    timed(check_concurrent_writers)
    timed(check_concurrent_writers, True)
    timed(check_token_before_body)
    timed(check_revoke_and_remove)
    timed(check_revoked_while_held)
    timed(check_remove_during_push)
    timed(check_remove_during_push, True)
    timed(check_remove_while_a_push_writes)
    timed(check_half_sent_closed)
    timed(check_slow_client_flood, alice)
    timed(check_bodies_in_flight_bounded, alice)
    timed(check_idle_strangers_flood, alice)
    timed(check_kill_mid_request)
    timed(check_database_stopped)
    check("B answered throughout", healthy(SERVER_B))
    print(f"# {time.monotonic() - started:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
