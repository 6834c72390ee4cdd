import Foundation
import Glibc
import NavStackBytes
import XCTest

@testable import NavStackHTTP

/// The client against a real server on the loopback interface: what it sends, every way an
/// answer can be framed, and every way a server can fail it.
final class HTTPClientTests: XCTestCase {
    private var servers: [TestServer] = []
    private let client = HTTPClient()

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    private func serve(family: Int32 = AF_INET, _ handler: @escaping @Sendable (Peer) -> Void) throws -> TestServer {
        let server = try TestServer(family: family, handler: handler)
        servers.append(server)
        return server
    }

    /// What a handler saw, for the test to check once the answer is in.
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var _head = ""
        var head: String {
            get { lock.withLock { _head } }
            set { lock.withLock { _head = newValue } }
        }
    }

    // MARK: Answers

    func testAPostBodyIsEchoedBack() throws {
        let seen = Seen()
        let server = try serve { peer in
            guard let (head, body) = peer.readRequest() else { return }
            seen.head = head
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n\r\n")
            peer.write(body)
        }
        let body = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let url = try server.url.appending("/v1/sync")
        let response = try client.send(
            HTTPRequest(
                method: .post, url: url, headers: ["Authorization": "Bearer t0ken", "Content-Type": "application/json"], body: body),
            deadline: .seconds(10))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "application/octet-stream")
        XCTAssertEqual(response.headers["content-length"], String(body.count))
        XCTAssertEqual(response.body, body)
        XCTAssertEqual(
            seen.head,
            "POST /v1/sync HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
                + "Authorization: Bearer t0ken\r\nContent-Type: application/json\r\n\r\n")
    }

    func testAChunkedAnswerArrivingInPieces() throws {
        let pieces = [
            "HTTP/1.1 200 OK\r\nTransfer-", "Encoding: chunked\r\n\r", "\n6\r\n{\"op", "s\"\r", "\n1;x=y\r\n:\r\n",
            "7\r\n [], \"m\r\n8\r\nore\": 1}\r\n0\r", "\nTrailer-Field: t\r\n", "\r\n",
        ]
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            for piece in pieces {
                peer.write(piece)
                usleep(2000)
            }
            peer.drain()
        }
        let response = try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(5))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "{\"ops\": [], \"more\": 1}")
    }

    func testALargeChunkedAnswer() throws {
        let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 100_000)
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<30 {
                peer.write(String(chunk.count, radix: 16) + "\r\n")
                peer.write(chunk)
                peer.write("\r\n")
            }
            peer.write("0\r\n\r\n")
            peer.drain()
        }
        let response = try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(10))
        XCTAssertEqual(response.body.count, 3_000_000)
        XCTAssertTrue(response.body.allSatisfy { $0 == UInt8(ascii: "z") })
    }

    func testAnAnswerThatEndsWithTheConnection() throws {
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nline one\n")
            usleep(5000)
            peer.write("line two\n")
        }
        let response = try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(5))
        XCTAssertEqual(
            response, HTTPResponse(status: 200, headers: ["content-type": "text/plain"], body: Array("line one\nline two\n".utf8)))
    }

    func testAnErrorStatusIsAnAnswerNotAFailure() throws {
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 401 Unauthorized\r\nContent-Length: 26\r\n\r\n{\"error\": \"bad token\"}\n   ")
        }
        let response = try client.send(HTTPRequest(method: .post, url: server.url.appending("v1/sync")), deadline: .seconds(5))
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "{\"error\": \"bad token\"}\n   ")
    }

    func testAServerThatAnswersBeforeReadingALargeBody() throws {
        // As the sync server does with a body over its limit: it answers 413 from the
        // Content-Length, then reads and drops the rest so that the answer is not lost.
        let server = try serve { peer in
            guard peer.read(upTo: 1024) != nil else { return }
            peer.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n\r\n")
            peer.finish()
            peer.drain()
        }
        let body = [UInt8](repeating: 1, count: 9 << 20)
        let response = try client.send(HTTPRequest(method: .post, url: server.url, body: body), deadline: .seconds(10))
        XCTAssertEqual(response.status, 413)
    }

    func testAnIPv6Server() throws {
        let server: TestServer
        do {
            server = try serve(family: AF_INET6) { peer in
                guard peer.readRequest() != nil else { return }
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nv6")
            }
        } catch {
            throw XCTSkip("no IPv6 loopback here: \(error)")
        }
        let response = try client.send(HTTPRequest(method: .get, url: HTTPURL("http://[::1]:\(server.port)/health")), deadline: .seconds(5))
        XCTAssertEqual(response.body, Array("v6".utf8))
    }

    /// What takes no time limit of its own (a name lookup, authorities read from a mount
    /// that hangs) is done on a thread of its own: the caller gets its value, or
    /// `timedOut` at its deadline, however long the work goes on.
    func testWorkOnAThreadOfItsOwnEndsAtTheDeadline() throws {
        XCTAssertEqual(try TimedWork.run(by: Deadline(.seconds(5))) { 42 }, 42)
        let release = Semaphore()
        XCTAssertThrowsError(
            try TimedWork.run(by: Deadline(.milliseconds(200))) { () -> Int in
                release.wait()
                return 0
            }
        ) { error in
            XCTAssertEqual(error as? HTTPError, .timedOut(.milliseconds(200)), "the caller is not held by the work")
        }
        release.signal()
    }

    func testAHostNameIsResolved() throws {
        let server = try serve { peer in
            guard let (head, _) = peer.readRequest() else { return }
            let host = head.split(separator: "\r\n").first { $0.hasPrefix("Host: ") } ?? ""
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: \(host.utf8.count)\r\n\r\n\(host)")
        }
        let response = try client.send(HTTPRequest(method: .get, url: HTTPURL("http://localhost:\(server.port)")), deadline: .seconds(5))
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "Host: localhost:\(server.port)")
    }

    // MARK: Failures

    func testAPortWithNoServerIsRefused() throws {
        // A socket bound but not listening: the port is taken, and a connection is refused.
        let bound = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(bound) }
        let (_, port) = try bindLoopback(bound, family: AF_INET)
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: HTTPURL("http://127.0.0.1:\(port)")), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .refused(host: "127.0.0.1", port: port))
            XCTAssertEqual("\($0)", "the server at 127.0.0.1:\(port) refused the connection")
        }
    }

    func testEachAddressIsTriedInTurn() throws {
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 204 No Content\r\n\r\n")
        }
        let bound = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(bound) }
        let (_, closedPort) = try bindLoopback(bound, family: AF_INET)
        let refusing = try XCTUnwrap(Resolver.lookUp("127.0.0.1", port: closedPort, numeric: true))
        let listening = try XCTUnwrap(Resolver.lookUp("127.0.0.1", port: server.port, numeric: true))
        let deadline = Deadline(.seconds(5))

        let socket = try HTTPClient.connect(to: refusing + listening, host: "h", port: 1, by: deadline)
        XCTAssertTrue(try socket.send(Array("GET / HTTP/1.1\r\n\r\n".utf8), by: deadline))
        do {
            _ = try HTTPClient.connect(to: refusing + refusing, host: "h", port: 1, by: deadline)
            XCTFail("connected to a port with no server")
        } catch {
            XCTAssertEqual(error, .refused(host: "h", port: 1))
        }
    }

    func testAnUnknownHostCannotBeResolved() throws {
        // .invalid is reserved (RFC 6761): no resolver gives it an address.
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: HTTPURL("https://sync.invalid:8080")), deadline: .seconds(10)))
        {
            XCTAssertEqual($0 as? HTTPError, .cannotResolve(host: "sync.invalid"))
        }
    }

    func testAServerThatNeverAnswersTimesOut() throws {
        let server = try serve { peer in
            _ = peer.readRequest()
            peer.drain()
        }
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .milliseconds(300))) {
            XCTAssertEqual($0 as? HTTPError, .timedOut(.milliseconds(300)))
            XCTAssertEqual("\($0)", "the server did not answer within 300 ms")
        }
    }

    func testAServerThatAnswersTooSlowlyTimesOut() throws {
        // Every byte comes well within the time given, but the whole answer does not.
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            guard peer.write("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n") else { return }
            while peer.write("x") { usleep(20_000) }
        }
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .milliseconds(300))) {
            XCTAssertEqual($0 as? HTTPError, .timedOut(.milliseconds(300)))
        }
    }

    func testAServerThatClosesMidBody() throws {
        for answer in [
            "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nonly this",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nonly\r\n",
            "HTTP/1.1 200 OK\r\nContent-",
            "",
        ] {
            let server = try serve { peer in
                guard peer.readRequest() != nil else { return }
                peer.write(answer)
            }
            XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(5)), answer) {
                XCTAssertEqual($0 as? HTTPError, .connectionClosed, answer)
            }
        }
    }

    func testAServerThatResetsMidBody() throws {
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npart")
            usleep(20_000)
            peer.reset()
        }
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .connectionClosed)
        }
    }

    func testAnAnswerThatIsNotHTTP() throws {
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("SSH-2.0-OpenSSH_9.2\r\n\r\n")
        }
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .malformedResponse("the status line is \"SSH-2.0-OpenSSH_9.2\""))
        }
    }

    func testAnAnswerLargerThanTheLimit() throws {
        let big = [UInt8](repeating: 7, count: (1 << 20) + 1)
        for head in ["Content-Length: \(big.count)\r\n", "", "Transfer-Encoding: chunked\r\n"] {
            let server = try serve { peer in
                guard peer.readRequest() != nil else { return }
                peer.write("HTTP/1.1 200 OK\r\n\(head)\r\n")
                if head.isEmpty {
                    peer.write(big)
                } else if head.hasPrefix("Transfer") {
                    for _ in 0..<((1 << 20) / 4096 + 1) {
                        guard peer.write("1000\r\n") && peer.write([UInt8](repeating: 7, count: 4096)) && peer.write("\r\n") else { return }
                    }
                } else {
                    peer.write(big)
                }
            }
            XCTAssertThrowsError(
                try HTTPClient(maximumResponseSize: 1 << 20).send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(5)), head
            ) {
                XCTAssertEqual($0 as? HTTPError, .responseTooLarge(limit: 1 << 20), head)
            }
        }
    }

    func testTheDefaultLimitIs64MiB() throws {
        let server = try serve { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: \((64 << 20) + 1)\r\n\r\n")
            peer.drain()
        }
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .responseTooLarge(limit: 64 << 20))
            XCTAssertEqual("\($0)", "the server's answer is larger than 64 MiB")
        }
    }

    func testAServerThatClosesBeforeReadingABodyDoesNotEndTheProcess() throws {
        // The request as a whole: the client stops writing at the first error and reports
        // the connection closed. The test below writes again after that error.
        let server = try serve { peer in
            _ = peer.read(upTo: 1)
        }
        let body = [UInt8](repeating: 2, count: 32 << 20)
        for _ in 0..<3 {
            XCTAssertThrowsError(try client.send(HTTPRequest(method: .post, url: server.url, body: body), deadline: .seconds(10))) {
                XCTAssertEqual($0 as? HTTPError, .connectionClosed)
            }
        }
    }

    // MARK: Kept connections

    /// Connections and requests a server saw.
    private final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var _connections = 0
        private var _heads: [String] = []
        var connections: Int { lock.withLock { _connections } }
        var heads: [String] { lock.withLock { _heads } }
        func connected() { lock.withLock { _connections += 1 } }
        func read(_ head: String) { lock.withLock { _heads.append(head) } }
    }

    /// A server that answers every request on a connection until the client closes it, or
    /// only the first `perConnection` of them, then closes (or resets) without a word.
    private func keepingServer(
        _ counts: Counts, perConnection: Int = .max, reset: Bool = false, answer: String = ""
    ) throws -> TestServer {
        try serve { peer in
            counts.connected()
            var served = 0
            while served < perConnection, let (head, body) = peer.readRequest() {
                counts.read(head)
                let text = "request \(counts.heads.count): \(body.count) bytes"
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\(answer)\r\n\(text)")
                served += 1
            }
            if reset { peer.reset() }
        }
    }

    func testAKeptConnectionCarriesTheRequestsThatFollow() throws {
        let counts = Counts()
        let server = try keepingServer(counts)
        let client = HTTPClient(keepsConnections: true)
        for n in 1...3 {
            let response = try client.send(HTTPRequest(method: .post, url: server.url, body: Array("abc".utf8)), deadline: .seconds(10))
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "request \(n): 3 bytes")
        }
        XCTAssertEqual(counts.connections, 1)
        XCTAssertEqual(counts.heads.count, 3)
        XCTAssertFalse(counts.heads.contains { $0.lowercased().contains("connection:") }, "HTTP/1.1 keeps it unless told")
    }

    func testAKeptConnectionWithInputWaitingIsNotUsedAgain() throws {
        // The server answers the first request, then sends a stray copy of its answer on
        // the kept connection: read as the next request's answer, it would say the next
        // request was taken when the server never read it.
        let counts = Counts()
        let server = try serve { peer in
            counts.connected()
            var served = 0
            while let (head, body) = peer.readRequest() {
                counts.read(head)
                served += 1
                let text = "request \(counts.heads.count): \(body.count) bytes"
                let answer = "HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)"
                peer.write(answer)
                if served == 1 {
                    usleep(100_000)
                    peer.write(answer)
                }
            }
        }
        let client = HTTPClient(keepsConnections: true)
        let request = HTTPRequest(method: .post, url: try server.url, body: Array("abc".utf8))
        XCTAssertEqual(String(decoding: try client.send(request, deadline: .seconds(10)).body, as: UTF8.self), "request 1: 3 bytes")
        usleep(300_000)
        XCTAssertEqual(
            String(decoding: try client.send(request, deadline: .seconds(10)).body, as: UTF8.self), "request 2: 3 bytes",
            "the stray copy is not taken for the answer")
        let (connections, heads) = (counts.connections, counts.heads.count)
        XCTAssertEqual(connections, 2, "the connection with input waiting was let go")
        XCTAssertEqual(heads, 2)
    }

    func testARequestOnAKeptConnectionTheServerEndedGoesAgainOnANewOne() throws {
        for reset in [false, true] {
            let counts = Counts()
            let server = try keepingServer(counts, perConnection: 1, reset: reset)
            let client = HTTPClient(keepsConnections: true)
            for n in 1...4 {
                // A request without a body is written whole before the end is seen: its
                // answer's read finds it; a body's write may find it first.
                let body: [UInt8] = n % 2 == 0 ? [1, 2] : []
                let response = try client.send(
                    HTTPRequest(method: body.isEmpty ? .get : .post, url: server.url, body: body), deadline: .seconds(10))
                XCTAssertEqual(
                    String(decoding: response.body, as: UTF8.self), "request \(n): \(body.count) bytes", "reset: \(reset)")
            }
            // Each request after the first went on the kept connection, found it ended, then on a new one.
            XCTAssertEqual(counts.connections, 4, "reset: \(reset)")
            XCTAssertEqual(counts.heads.count, 4, "each request reached the server once")
        }
    }

    func testAnAnswerThatSaysCloseLeavesNothingKept() throws {
        let counts = Counts()
        let server = try keepingServer(counts, answer: "Connection: close\r\n")
        let client = HTTPClient(keepsConnections: true)
        for _ in 1...2 {
            XCTAssertEqual(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(10)).status, 200)
        }
        XCTAssertEqual(counts.connections, 2)
    }

    func testANewConnectionThatEndsBeforeAnAnswerIsNotTriedAgain() throws {
        let counts = Counts()
        let server = try serve { peer in
            counts.connected()
            _ = peer.readRequest()
        }
        let client = HTTPClient(keepsConnections: true)
        XCTAssertThrowsError(try client.send(HTTPRequest(method: .get, url: server.url), deadline: .seconds(10))) {
            XCTAssertEqual($0 as? HTTPError, .connectionClosed)
        }
        XCTAssertEqual(counts.connections, 1)
    }

    func testWritingToAResetConnectionDoesNotRaiseSIGPIPE() throws {
        // After a reset, the first write reports it (unless a read did) and any later one
        // is EPIPE, which raises SIGPIPE and ends the process unless the client asks the
        // kernel not to: without MSG_NOSIGNAL this test never returns.
        let server = try serve { peer in peer.reset() }
        let deadline = Deadline(.seconds(5))
        let addresses = try XCTUnwrap(Resolver.lookUp("127.0.0.1", port: server.port, numeric: true))
        let socket = try HTTPClient.connect(to: addresses, host: "127.0.0.1", port: server.port, by: deadline)
        let buffer = ByteRoom(capacity: 16)
        // The read waits for the reset; Linux reports it as an error, gVisor as the end.
        do {
            let count = try socket.receive(into: buffer, by: deadline)
            XCTAssertEqual(count, 0)
        } catch {
            XCTAssertEqual(error, .connectionClosed)
        }
        let bytes = [UInt8](repeating: 3, count: 1 << 16)
        // A busy machine may take the first writes before it reports the reset.
        for _ in 0..<3 { _ = try? socket.send(bytes, by: deadline) }
        XCTAssertFalse(try socket.send(bytes, by: deadline), "a reset connection takes no more bytes")
    }
}

/// A count that `wait` takes one from, waiting while it is 0 (POSIX's semaphore).
private final class Semaphore: @unchecked Sendable {
    private var semaphore = sem_t()

    init() { sem_init(&semaphore, 0, 0) }
    deinit { sem_destroy(&semaphore) }

    func wait() { while sem_wait(&semaphore) != 0 {} }
    func signal() { sem_post(&semaphore) }
}
