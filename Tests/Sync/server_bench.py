#!/usr/bin/env python3
"""Times navstack-server against a real PostgreSQL, as scripts/sync-env starts them:

    swift build -c release --product navstack-server
    NAVSTACK_SERVER_BIN=.build/release/navstack-server \\
      scripts/sync-env python3 Tests/Sync/server_bench.py

Pushes 100,000 operations in 10 requests of 10,000 to server A, then pulls them all from
server B as another replica (10 pages), and prints the times. The request bodies are made
before the clock starts; each request is timed from sending to the last byte of the answer.
"""

import http.client
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_checks import PG_URL, RNG, SERVER_A, SERVER_B, SERVER_BIN, make_ops  # noqa: E402

TOTAL = 100_000
PER_REQUEST = 10_000


def connection(base):
    parsed = urllib.parse.urlsplit(base)
    return http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)


def post(conn, token, body):
    conn.request("POST", "/v1/sync", body=body,
                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    response = conn.getresponse()
    raw = response.read()
    if response.status != 200:
        raise SystemExit(f"{response.status}: {raw[:200]!r}")
    return raw


def main():
    token = subprocess.run([SERVER_BIN, "--database", PG_URL, "--log-level", "warning", "user", "add", "bench"],
                           capture_output=True, text=True, check=True).stdout.strip()
    writer, reader = "%032x" % RNG.getrandbits(128), "%032x" % RNG.getrandbits(128)
    ops = make_ops(TOTAL, tag="bench")
    # Each body's "after" is filled in from the previous answer's "last", as a client does;
    # the bodies are made before the clock starts with a placeholder of the same width.
    placeholder = b'"after":000000000000'
    bodies = [json.dumps({"replica": writer, "after": 0, "ops": ops[i:i + PER_REQUEST]}, separators=(",", ":"))
              .encode().replace(b'"after":0', placeholder, 1) for i in range(0, TOTAL, PER_REQUEST)]
    print(f"request body: {len(bodies[0]) / 1024 / 1024:.2f} MiB for {PER_REQUEST:,} ops")

    conn = connection(SERVER_A)
    times = []
    last = 0
    started = time.perf_counter()
    for body in bodies:
        before = time.perf_counter()
        answer = post(conn, token, body.replace(placeholder, b'"after":%12d' % last, 1))
        last = json.loads(answer)["last"]
        times.append(time.perf_counter() - before)
    push = time.perf_counter() - started
    conn.close()
    print(f"push {TOTAL:,} ops in {len(bodies)} requests to A: {push:.2f} s "
          f"({TOTAL / push:,.0f} ops/s; per request min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms)")

    conn = connection(SERVER_B)
    after, received, pages, times = 0, 0, 0, []
    started = time.perf_counter()
    while True:
        before = time.perf_counter()
        answer = json.loads(post(conn, token, json.dumps({"replica": reader, "after": after, "ops": []}).encode()))
        times.append(time.perf_counter() - before)
        received += len(answer["ops"])
        pages += 1
        after = answer["last"]
        if not answer["more"]:
            break
    pull = time.perf_counter() - started
    conn.close()
    print(f"pull {received:,} ops in {pages} pages from B: {pull:.2f} s "
          f"(per page min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms, JSON parsing in Python included)")

    conn = connection(SERVER_A)
    before = time.perf_counter()
    post(conn, token, bodies[0].replace(placeholder, b'"after":%12d' % last, 1))
    replay = time.perf_counter() - before
    conn.close()
    print(f"replay of one request of {PER_REQUEST:,} ops (nothing new to store): {replay * 1000:.0f} ms")

    def logged(variable, key):
        """The ms of the log lines of requests that moved 10,000 ops in the `key` direction."""
        with open(os.environ[variable]) as log:
            return sorted(float(re.search(r" ms=([0-9.]+)", line).group(1)) for line in log
                          if "path=/v1/sync" in line and f" {key}={PER_REQUEST} " in line)

    pushes, pulls = logged("NAVSTACK_SERVER_A_LOG", "ops_in"), logged("NAVSTACK_SERVER_B_LOG", "ops_out")
    if pushes and pulls:
        print(f"inside the server (its log's ms): push of {PER_REQUEST:,} median {pushes[len(pushes) // 2]:.0f} ms, "
              f"pull of {PER_REQUEST:,} median {pulls[len(pulls) // 2]:.0f} ms")
    return 0 if received == TOTAL else 1


if __name__ == "__main__":
    sys.exit(main())
