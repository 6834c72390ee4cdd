#!/usr/bin/env python3
"""End-to-end checks of `navstack sync` over https, against the real navstack-server
serving TLS on loopback, with certificates made by `openssl` in a temporary folder.

Run inside scripts/sync-env (which starts PostgreSQL and two plain navstack-server
instances and exports NAVSTACK_PG_URL, NAVSTACK_SERVER_A, NAVSTACK_SERVER_BIN):

    scripts/sync-env python3 Tests/Sync/tls_checks.py --bin .build/release/navstack

The folder holds a private authority, and certificates it signs: one for 127.0.0.1, ::1
and localhost; one for another name only; one that expired. One navstack-server with
--tls-cert/--tls-key is started for each, on the same database.

Checks:
  - sync over https works with --ca, with NAVSTACK_CA, and with SSL_CERT_FILE (the
    system's authorities read from where it says), by address and by name, and with a
    server that offers only TLS 1.2 (a Python one in front of a plain navstack-server);
  - an unknown authority, a host-name mismatch, an expired certificate, a server that
    answers in plain HTTP and a server that offers only TLS 1.1 are each refused with one
    line naming the host and the reason, and nothing is sent: the server's log shows no
    request (the TLS 1.1 server, a Python one, receives no application data);
  - http:// to a host that is not this machine is refused before anything is sent or
    kept: exit 64 when given with --server, exit 1 when it was stored earlier;
  - http:// to this machine still works.
Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`.
"""
import argparse
import os
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import warnings

import client_checks
from client_checks import check

BASE_ENV = {key: value for key, value in os.environ.items()
            if key not in ("NAVSTACK_CA", "SSL_CERT_FILE", "SSL_CERT_DIR")}
ENV = dict(BASE_ENV, NAVSTACK_SYNC="0", LANG="C.UTF-8")
RUN = client_checks.RUN  # names this run's accounts (see client_checks)


def run(binary, store, *args, env=ENV, timeout=60):
    return subprocess.run([binary, "--store", store, *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, text=True)


def make_certificates(folder):
    """A private authority, and four server certificates it signs."""
    with open(os.path.join(folder, "names.ext"), "w") as f:
        f.write("basicConstraints = critical, CA:FALSE\n"
                "keyUsage = critical, digitalSignature\n"
                "extendedKeyUsage = serverAuth\n"
                "subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1\n")
    # The host named only in the subject's common name, as certificates once did.
    with open(os.path.join(folder, "cn-only.ext"), "w") as f:
        f.write("basicConstraints = critical, CA:FALSE\n"
                "keyUsage = critical, digitalSignature\n"
                "extendedKeyUsage = serverAuth\n")
    with open(os.path.join(folder, "other.ext"), "w") as f:
        f.write("basicConstraints = critical, CA:FALSE\n"
                "keyUsage = critical, digitalSignature\n"
                "extendedKeyUsage = serverAuth\n"
                "subjectAltName = DNS:other.example\n")
    # `openssl ca` sets any start and end date, so the expired certificate is made with it.
    with open(os.path.join(folder, "ca.cnf"), "w") as f:
        f.write("[ca]\ndefault_ca = test\n"
                "[test]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n"
                "default_md = sha256\npolicy = any\nunique_subject = no\n"
                "[any]\ncommonName = supplied\n")
    open(os.path.join(folder, "index.txt"), "w").close()
    with open(os.path.join(folder, "serial"), "w") as f:
        f.write("1000\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "30",
            "-subj", "/CN=navstack test authority",
            "-addext", "basicConstraints = critical, CA:TRUE",
            "-addext", "keyUsage = critical, keyCertSign, cRLSign", cwd=folder)
    for name, subject, ext in [("server", "127.0.0.1", "names.ext"), ("other", "other.example", "other.ext"),
                               ("expired", "127.0.0.1", "names.ext"), ("cn-only", "localhost", "cn-only.ext")]:
        openssl("req", "-new", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={subject}",
                cwd=folder)
        if name == "expired":
            openssl("ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-notext",
                    "-in", "expired.csr", "-out", "expired.pem", "-extfile", ext,
                    "-startdate", "20200101000000Z", "-enddate", "20210101000000Z", cwd=folder)
        else:
            openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", f"{name}.pem", "-days", "30", "-extfile", ext, cwd=folder)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TLSServer:
    """The real navstack-server serving https with one certificate, on the shared database."""

    def __init__(self, folder, name):
        self.port = free_port()
        self.log = os.path.join(folder, f"server-{name}.log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [os.environ["NAVSTACK_SERVER_BIN"], "--database", os.environ["NAVSTACK_PG_URL"],
                 "--listen", f"127.0.0.1:{self.port}",
                 "--tls-cert", os.path.join(folder, f"{name}.pem"), "--tls-key", os.path.join(folder, f"{name}.key")],
                stdout=log, stderr=subprocess.STDOUT)
        # Up once a TLS handshake completes (the certificate is not checked here).
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=2) as raw:
                    with context.wrap_socket(raw):
                        return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"navstack-server with {name}.pem did not start: " + open(self.log).read()[-2000:])
                time.sleep(0.05)

    def requests(self):
        """The requests the server's log shows."""
        with open(self.log) as log:
            return [line for line in log if "/v1/sync" in line]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class TLS12Proxy:
    """A Python TLS server that offers TLS 1.2 only, in front of a plain navstack-server:
    it relays each connection's bytes both ways and keeps the versions it negotiated."""

    def __init__(self, folder, upstream):
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.minimum_version = ssl.TLSVersion.TLSv1_2
        self.context.maximum_version = ssl.TLSVersion.TLSv1_2
        self.context.load_cert_chain(os.path.join(folder, "server.pem"), os.path.join(folder, "server.key"))
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.versions = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.relay, args=(raw,), daemon=True).start()

    def relay(self, raw):
        with raw:
            raw.settimeout(30)
            try:
                with self.context.wrap_socket(raw, server_side=True) as tls, \
                        socket.create_connection(self.upstream, timeout=30) as plain:
                    self.versions.append(tls.version())
                    # navstack sends one request a connection, then reads to the end.
                    request = b""
                    while b"\r\n\r\n" not in request:
                        request += tls.recv(65536)
                    head, _, body = request.partition(b"\r\n\r\n")
                    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                                   if line.lower().startswith(b"content-length:")), 0)
                    while len(body) < length:
                        body += tls.recv(65536)
                    plain.sendall(head + b"\r\n\r\n" + body)
                    while chunk := plain.recv(65536):
                        tls.sendall(chunk)
                    tls.unwrap()
            except (ssl.SSLError, OSError):
                pass

    def stop(self):
        self.listener.close()


class OldTLSServer:
    """A Python TLS server that offers TLS 1.0 and 1.1 only, and keeps what it receives."""

    def __init__(self, folder):
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        with warnings.catch_warnings():
            # Python says these versions are deprecated: that is what this server is for.
            warnings.simplefilter("ignore", DeprecationWarning)
            self.context.minimum_version = ssl.TLSVersion.TLSv1
            self.context.maximum_version = ssl.TLSVersion.TLSv1_1
        self.context.set_ciphers("DEFAULT:@SECLEVEL=0")
        self.context.load_cert_chain(os.path.join(folder, "server.pem"), os.path.join(folder, "server.key"))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.received = b""
        self.handshakes = 0
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        try:
            raw, _ = self.listener.accept()
        except OSError:
            return
        with raw:
            raw.settimeout(10)
            try:
                with self.context.wrap_socket(raw, server_side=True) as tls:
                    self.handshakes += 1
                    while chunk := tls.recv(65536):
                        self.received += chunk
            except (ssl.SSLError, OSError):
                pass

    def stop(self):
        self.listener.close()
        self.thread.join(timeout=10)


def token(name):
    out = subprocess.run([os.environ["NAVSTACK_SERVER_BIN"], "--database", os.environ["NAVSTACK_PG_URL"],
                          "user", "add", name + RUN], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def kept_server(store):
    with sqlite3.connect(store) as db:
        row = db.execute("SELECT server FROM sync").fetchone()
    return row[0] if row else None


def refused(binary, store, server, url, words, tok, what, *extra):
    """A sync that must fail with one line naming the host and `words`, the server's log unchanged."""
    before = len(server.requests()) if server else 0
    out = run(binary, store, "sync", "--server", url, "--token", tok, *extra)
    lines = out.stderr.splitlines()
    host = url.split("//", 1)[1].split("/", 1)[0]
    line = lines[0] if lines else ""
    check(out.returncode == 1 and len(lines) == 1 and out.stdout == "" and host in line and words in line,
          f"{what}: refused with one line naming {host} and the reason", repr(out.stderr))
    if server:
        check(len(server.requests()) == before, f"{what}: nothing sent (the server's log shows no request)",
              "".join(server.requests()[before:]))
    return line


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/navstack")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    folder = tempfile.mkdtemp(prefix="navstack-tls.")
    make_certificates(folder)
    ca = os.path.join(folder, "ca.pem")
    servers = []
    try:
        good = TLSServer(folder, "server")
        servers.append(good)
        other = TLSServer(folder, "other")
        servers.append(other)
        expired = TLSServer(folder, "expired")
        servers.append(expired)
        cn_only = TLSServer(folder, "cn-only")
        servers.append(cn_only)
        old = OldTLSServer(folder)
        plain_host, plain_port = os.environ["NAVSTACK_SERVER_A"].split("//", 1)[1].split(":")
        proxy = TLS12Proxy(folder, (plain_host, int(plain_port)))

        user = "tls"
        tok = token(user)
        stores = {name: os.path.join(folder, f"{name}.sqlite") for name in ("a", "b", "c", "d", "e", "f")}
        for store in stores.values():
            run(binary, store, "-c", f"login {user}", "-c", "add Sent over TLS " + os.path.basename(store))

        # Sync over https with a private authority.
        out = run(binary, stores["a"], "sync", "--server", f"https://127.0.0.1:{good.port}", "--token", tok, "--ca", ca)
        check(out.returncode == 0 and out.stdout == "sent 1, received 0, conflicts 0\n"
              and out.stderr.startswith("navstack: sync: made a new key for this account's tasks")
              and out.stderr.count("\n") == 1,
              "sync over https with --ca works (and says it made the account's key)", out.stdout + out.stderr)
        check(len(good.requests()) >= 1, "the server's log shows the request", open(good.log).read()[-500:])
        out = run(binary, stores["b"], "sync", "--server", f"https://localhost:{good.port}", "--token", tok,
                  env=dict(ENV, NAVSTACK_CA=ca))
        check(out.returncode == 0 and out.stdout == "sent 1, received 1, conflicts 0\n",
              "sync over https by name, trusting NAVSTACK_CA", out.stdout + out.stderr)
        out = run(binary, stores["a"], "sync", env=dict(ENV, SSL_CERT_FILE=ca, SSL_CERT_DIR=folder))
        check(out.returncode == 0 and out.stdout == "sent 0, received 1, conflicts 0\n",
              "the system's authorities are read from SSL_CERT_FILE; the kept server and token are used",
              out.stdout + out.stderr)
        out = run(binary, stores["f"], "sync", "--server", f"https://localhost:{proxy.port}", "--token", tok, "--ca", ca)
        proxy.stop()
        check(out.returncode == 0 and out.stdout == "sent 1, received 2, conflicts 0\n" and proxy.versions and set(proxy.versions) == {"TLSv1.2"},
              "sync with a server that offers only TLS 1.2 works", f"{out.stdout}{out.stderr} {proxy.versions}")

        # Each failed check: one line, nothing sent.
        line = refused(binary, stores["c"], good, f"https://127.0.0.1:{good.port}", "unknown authority", tok,
                       "a certificate of an authority the system does not trust")
        check(line == f"navstack: sync: the server at 127.0.0.1:{good.port} is not trusted: its certificate is signed "
                      "by an unknown authority; your changes are kept and will be sent next time",
              "the unknown authority's line reads as it should", line)
        refused(binary, stores["c"], good, f"https://127.0.0.1:{good.port}", "unknown authority", tok,
                "a server certificate given as the authority", "--ca", os.path.join(folder, "other.pem"))
        line = refused(binary, stores["c"], other, f"https://127.0.0.1:{other.port}",
                       "its certificate is for other.example, not 127.0.0.1", tok,
                       "a certificate for another name", "--ca", ca)
        refused(binary, stores["c"], other, f"https://localhost:{other.port}",
                "its certificate is for other.example, not localhost", tok,
                "a certificate for another name, by name", "--ca", ca)
        refused(binary, stores["c"], expired, f"https://127.0.0.1:{expired.port}",
                "its certificate expired on 2021-01-01", tok, "an expired certificate", "--ca", ca)
        refused(binary, stores["c"], cn_only, f"https://localhost:{cn_only.port}",
                "its certificate is not for localhost", tok,
                "a certificate that names its host only as its common name (no subjectAltName)", "--ca", ca)
        plain = os.environ["NAVSTACK_SERVER_A"].split("//", 1)[1]
        refused(binary, stores["c"], None, f"https://{plain}", "answered in plain HTTP, not TLS", tok,
                "an https:// address of a server that speaks plain HTTP", "--ca", ca)
        refused(binary, stores["c"], None, f"https://127.0.0.1:{old.port}", "TLS handshake", tok,
                "a server that offers only TLS 1.1", "--ca", ca)
        old.stop()
        check(old.handshakes == 0 and old.received == b"", "the TLS 1.1 server received nothing",
              f"{old.handshakes} handshakes, {old.received[:80]!r}")
        missing = os.path.join(folder, "missing.pem")
        out = run(binary, stores["c"], "sync", "--server", f"https://127.0.0.1:{good.port}", "--token", tok,
                  "--ca", missing)
        check(out.returncode == 1 and out.stderr == f"navstack: sync: the certificate authorities in {missing} cannot be "
                                                    "read: No such file or directory; your changes are kept and will be sent next time\n",
              "an authority file that does not exist is named in one line", repr(out.stderr))
        fifo = os.path.join(folder, "authorities.fifo")
        os.mkfifo(fifo)
        began = time.monotonic()
        try:
            out = subprocess.run([binary, "--store", stores["c"], "sync", "--server", f"https://127.0.0.1:{good.port}",
                                  "--token", tok, "--ca", fifo, "--timeout", "3"],
                                 capture_output=True, text=True, env=ENV, timeout=15)
            waited = time.monotonic() - began
            check(out.returncode == 1 and waited < 5 and len(out.stderr.splitlines()) == 1 and fifo in out.stderr,
                  f"--ca naming a FIFO fails within --timeout, in one line naming it ({waited:.1f} s)", repr(out.stderr))
        except subprocess.TimeoutExpired:
            check(False, "--ca naming a FIFO fails within --timeout, in one line naming it", "still waiting after 15 s")
        # 20,001 authorities take OpenSSL longer to read than --timeout 1: the thread that
        # reads them is still at it when the process exits (OpenSSL's clean-up at exit
        # crashed under it, 3 runs in 10).
        many = os.path.join(folder, "many.pem")
        with open(ca) as source, open(many, "w") as f:
            f.write(source.read() * 20_001)
        outcomes = []
        for _ in range(10):
            began = time.monotonic()
            try:
                out = subprocess.run([binary, "--store", stores["c"], "sync", "--server", f"https://127.0.0.1:{good.port}",
                                      "--token", tok, "--ca", many, "--timeout", "1"],
                                     capture_output=True, text=True, env=ENV, timeout=15)
                outcomes.append((out.returncode, round(time.monotonic() - began, 1), out.stderr))
            except subprocess.TimeoutExpired:
                outcomes.append(("still running after 15 s", 15, ""))
        check(all(code in (0, 1) and waited < 3 and len(err.splitlines()) <= 1 for code, waited, err in outcomes),
              "--ca with 20,001 authorities ends within --timeout 1, without a crash, 10 runs in 10",
              repr([(code, waited) for code, waited, _ in outcomes]))
        out = run(binary, stores["c"], "sync", "--ca", ca)
        check(out.returncode == 0 and out.stdout == "sent 1, received 3, conflicts 0\n",
              "the changes refused were kept: they are sent once the authority is trusted", out.stdout + out.stderr)

        # http:// only for this machine.
        before = good.requests()
        for url in ("http://sync.example.org:8080", "http://10.0.0.5", "HTTP://128.0.0.1:8080", "http://[::2]:80"):
            out = run(binary, stores["d"], "sync", "--server", url, "--token", tok)
            lines = out.stderr.splitlines()
            check(out.returncode == 64 and len(lines) == 1 and "use https://" in lines[0] and kept_server(stores["d"]) in (None, ""),
                  f"--server {url} is refused with exit 64, one line that says to use https://, nothing kept",
                  f"exit {out.returncode}: {out.stderr!r}, kept {kept_server(stores['d'])!r}")
        out = run(binary, stores["d"], "sync", "--server", os.environ["NAVSTACK_SERVER_A"], "--token", tok)
        check(out.returncode == 0 and out.stdout.startswith("sent 1,"), "http:// to 127.0.0.1 still works",
              out.stdout + out.stderr)
        # A store kept an address of another machine (as an earlier navstack accepted it).
        with sqlite3.connect(stores["d"]) as db:
            db.execute("UPDATE sync SET server = 'http://sync.example.org:8080'")
        out = run(binary, stores["d"], "sync")
        lines = out.stderr.splitlines()
        check(out.returncode == 1 and len(lines) == 1 and "sync.example.org" in lines[0] and "use https://" in lines[0],
              "a stored http:// address of another machine is refused with exit 1 and one line", repr(out.stderr))
        auto = dict(BASE_ENV, LANG="C.UTF-8")
        auto.pop("NAVSTACK_SYNC", None)
        out = run(binary, stores["d"], "-c", "add Written with a stored http address", env=auto)
        notices = [line for line in out.stderr.splitlines() if "sync" in line]
        check(out.returncode == 0 and len(notices) == 1 and "use https://" in notices[0],
              "sync by itself with it: one notice, the command works", repr(out.stderr))
        check(good.requests() == before, "no request reached the TLS server meanwhile")

        # The other replica sees every task that was sent.
        out = run(binary, stores["e"], "sync", "--server", f"https://localhost:{good.port}", "--token", tok, "--ca", ca)
        check(out.returncode == 0 and out.stdout == "sent 1, received 5, conflicts 0\n",
              "a sixth replica receives the five others' tasks over https", out.stdout + out.stderr)
    finally:
        for server in servers:
            server.stop()

    print(f"{client_checks.passed} passed, {client_checks.failed} failed")
    sys.exit(1 if client_checks.failed else 0)


if __name__ == "__main__":
    main()
