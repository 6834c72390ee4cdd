import Foundation
import Glibc
import XCTest

@testable import NavStackHTTP

/// What the client does before a TLS connection is verified: nothing of a request leaves
/// it. (The certificate checks against a real TLS server are in Tests/Sync/tls_checks.py.)
final class HTTPClientTLSTests: XCTestCase {
    private var servers: [TestServer] = []
    private var folder: URL!

    /// A private authority's certificate (its key was thrown away): enough to set up a
    /// client that trusts it, and nothing a server here can present.
    private static let authority = """
        -----BEGIN CERTIFICATE-----
        MIIBnDCCAUGgAwIBAgIUY2n6lwX8rzPMUHuInv5ck7GVYckwCgYIKoZIzj0EAwIw
        IjEgMB4GA1UEAwwXbmF2c3RhY2sgdGVzdCBhdXRob3JpdHkwIBcNMjYxMTI1MTA0
        NjA3WhgPMjEyNjExMDExMDQ2MDdaMCIxIDAeBgNVBAMMF25hdnN0YWNrIHRlc3Qg
        YXV0aG9yaXR5MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDvJV6VE61FAp4Vru
        dfNlMT+G0+mIgfq8hvpud/ye0Lnw44rmu3SeERBM5SQnW27Z98fHKSx4HsK+U3+Z
        9PAGh6NTMFEwHQYDVR0OBBYEFB3wLrS2kOXY0H3FDd2g+XdBdDFMMB8GA1UdIwQY
        MBaAFB3wLrS2kOXY0H3FDd2g+XdBdDFMMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZI
        zj0EAwIDSQAwRgIhAMnfxuAial1vAlMRu1U0pI4YSG7Ea22fzRxCkN6C/SDvAiEA
        r4yMBkkerE+uIo2bme+v9s2TnXJp6T+2vJ+5KKKuXks=
        -----END CERTIFICATE-----

        """

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private func serve(_ handler: @escaping @Sendable (Peer) -> Void) throws -> TestServer {
        let server = try TestServer(handler: handler)
        servers.append(server)
        return server
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A request that carries a token, to the test server over https.
    private func request(to server: TestServer) throws -> HTTPRequest {
        HTTPRequest(
            method: .post, url: try HTTPURL("https://127.0.0.1:\(server.port)/v1/sync"),
            headers: ["Authorization": "Bearer s3cret"], body: Array("{\"ops\": []}".utf8))
    }

    /// What reached a server, for the test to check once the client is done.
    private final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var _bytes: [UInt8] = []
        private var _connections = 0
        var bytes: [UInt8] { lock.withLock { _bytes } }
        var connections: Int { lock.withLock { _connections } }
        func connected() { lock.withLock { _connections += 1 } }
        func add(_ more: [UInt8]) { lock.withLock { _bytes += more } }
    }

    func testPlainHTTPToAnotherHostIsRefusedBeforeItIsResolved() throws {
        // .invalid has no address: a lookup would say so; the refusal comes first.
        XCTAssertThrowsError(
            try HTTPClient().send(HTTPRequest(method: .get, url: HTTPURL("http://sync.invalid:8080")), deadline: .seconds(10))
        ) {
            XCTAssertEqual($0 as? HTTPError, .plainTextRefused(host: "sync.invalid"))
        }
    }

    func testAServerThatAnswersInPlainHTTPGetsOnlyTheClientHello() throws {
        let received = Received()
        let server = try serve { peer in
            received.connected()
            guard let first = peer.read(upTo: 1 << 16) else { return }
            received.add(first)
            peer.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            peer.finish()
            while let more = peer.read(upTo: 1 << 16) { received.add(more) }
        }
        let client = HTTPClient(trust: .authority(file: try file("ca.pem", Self.authority)))
        XCTAssertThrowsError(try client.send(request(to: server), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .notTLS(host: "127.0.0.1", port: server.port))
            XCTAssertEqual("\($0)", "the server at 127.0.0.1:\(server.port) answered in plain HTTP, not TLS")
        }
        server.stop()
        // A TLS handshake record (22), then at most an alert (21): no request, no token.
        let bytes = received.bytes
        XCTAssertEqual(bytes.first, 22)
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("s3cret"))
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("POST"))
    }

    func testAServerThatClosesDuringTheHandshake() throws {
        let server = try serve { peer in
            _ = peer.read(upTo: 1 << 16)
        }
        let client = HTTPClient(trust: .authority(file: try file("ca.pem", Self.authority)))
        XCTAssertThrowsError(try client.send(request(to: server), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .connectionClosed)
        }
    }

    func testAServerThatNeverFinishesTheHandshakeTimesOut() throws {
        let server = try serve { peer in
            _ = peer.read(upTo: 1 << 16)
            peer.drain()
        }
        let client = HTTPClient(trust: .authority(file: try file("ca.pem", Self.authority)))
        XCTAssertThrowsError(try client.send(request(to: server), deadline: .milliseconds(300))) {
            XCTAssertEqual($0 as? HTTPError, .timedOut(.milliseconds(300)))
        }
    }

    func testAnAuthorityFileThatIsMissingIsSaidBeforeAnyConnection() throws {
        let received = Received()
        let server = try serve { _ in received.connected() }
        let missing = folder.appendingPathComponent("missing.pem").path
        XCTAssertThrowsError(try HTTPClient(trust: .authority(file: missing)).send(request(to: server), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .unreadableAuthorities(file: missing, reason: "No such file or directory"))
        }
        server.stop()
        XCTAssertEqual(received.connections, 0)
    }

    func testAnAuthorityFileWithNoCertificateIsSaid() throws {
        let received = Received()
        let server = try serve { _ in received.connected() }
        let notes = try file("notes.txt", "not a certificate\n")
        XCTAssertThrowsError(try HTTPClient(trust: .authority(file: notes)).send(request(to: server), deadline: .seconds(5))) {
            XCTAssertEqual($0 as? HTTPError, .unreadableAuthorities(file: notes, reason: "no certificate or crl found"))
        }
        server.stop()
        XCTAssertEqual(received.connections, 0)
    }
}
