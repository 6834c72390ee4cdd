import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import XCTest

@testable import NavStackServer

/// The timeouts of one connection on an embedded event loop, whose clock moves only when
/// a test moves it, and the cap on connections.
final class ConnectionLimitsTests: XCTestCase {
    private let limits = ConnectionLimits(
        headerTimeout: .seconds(10), bodyTimeout: .seconds(30), idleTimeout: .seconds(20), maximumConnections: 2)
    private let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "h", path: "/v1/sync"))

    private func connection() throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: RequestDeadlines(limits: limits, logger: Logger(label: "test")), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return (channel, loop)
    }

    private func answer(_ channel: EmbeddedChannel, status: HTTPResponse.Status = .ok) throws {
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: status)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    func testANewConnectionWithoutAWholeHeadIsClosedAtTheHeaderTimeout() throws {
        let (channel, loop) = try connection()
        loop.advanceTime(by: .seconds(9))
        XCTAssertTrue(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        XCTAssertFalse(channel.isActive)
    }

    func testABodyMustAllArriveWithinTheBodyTimeoutOfItsHead() throws {
        let (channel, loop) = try connection()
        loop.advanceTime(by: .seconds(9))
        try channel.writeInbound(head)
        loop.advanceTime(by: .seconds(20))
        XCTAssertTrue(channel.isActive, "the header timeout no longer runs")
        // A byte now and then does not move the clock.
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{")))
        loop.advanceTime(by: .seconds(9))
        XCTAssertTrue(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        XCTAssertFalse(channel.isActive)
    }

    func testNoClockRunsWhileARequestIsAnsweredThenTheIdleOneDoes() throws {
        let (channel, loop) = try connection()
        try channel.writeInbound(head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        loop.advanceTime(by: .seconds(3600))
        XCTAssertTrue(channel.isActive)
        try answer(channel)
        guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self) else { return XCTFail() }
        XCTAssertNil(response.headerFields[.connection], "a request read whole keeps its connection")
        loop.advanceTime(by: .seconds(19))
        XCTAssertTrue(channel.isActive)
        // The next request's head within the idle timeout: its body's clock runs.
        try channel.writeInbound(head)
        loop.advanceTime(by: .seconds(29))
        XCTAssertTrue(channel.isActive)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try answer(channel)
        loop.advanceTime(by: .seconds(20))
        XCTAssertFalse(channel.isActive, "closed 20 s after the answer")
    }

    func testAnAnswerBeforeTheBodyIsReadSaysCloseAndClosesTheConnection() throws {
        let (channel, _) = try connection()
        try channel.writeInbound(head)
        try answer(channel, status: .unauthorized)
        guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self) else { return XCTFail() }
        XCTAssertEqual(response.status, .unauthorized)
        XCTAssertEqual(response.headerFields[.connection], "close")
        guard case .end = try channel.readOutbound(as: HTTPResponsePart.self) else { return XCTFail() }
        XCTAssertFalse(channel.isActive, "the rest of the body is never read")
    }

    func testPastTheCapAConnectionIsAnswered503AndClosed() throws {
        let connections = OpenConnections(maximum: 2)
        let logger = Logger(label: "test")
        XCTAssertEqual(
            [connections.open(logger: logger), connections.open(logger: logger), connections.open(logger: logger)],
            [true, true, false])
        connections.close()
        XCTAssertTrue(connections.open(logger: logger))
        XCTAssertEqual(connections.count, 2)

        let channel = EmbeddedChannel(handler: TooBusyAnswer())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        let written = try XCTUnwrap(channel.readOutbound(as: ByteBuffer.self))
        XCTAssertEqual(
            String(buffer: written),
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 71\r\n"
                + "Connection: close\r\n\r\n"
                + #"{"error":"the server has too many connections open; try again shortly"}"#)
        XCTAssertFalse(channel.isActive)
    }
}
