import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Synchronization
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

    /// Connections named by objects of their own, each remembering whether it was closed.
    private final class Opened: Sendable {
        let shed = Mutex(false)
        var id: ObjectIdentifier { ObjectIdentifier(self) }
        var wasShed: Bool { shed.withLock { $0 } }
    }

    private func open(_ connections: OpenConnections, _ address: String = "192.0.2.1") -> (Opened, Bool) {
        let opened = Opened()
        let admitted = connections.open(
            opened.id, address: address, shed: { opened.shed.withLock { $0 = true } }, logger: Logger(label: "test"))
        return (opened, admitted)
    }

    func testPastTheCapAStrangerBetweenRequestsGivesWayElseTheNewOneIsRefused() throws {
        let connections = OpenConnections(maximum: 3, perAddress: 3)
        let (device, _) = open(connections)
        let (busy, _) = open(connections)
        let (idle, _) = open(connections)
        connections.trust(device.id)
        connections.request(on: busy.id, begins: true)
        let (new, admitted) = open(connections, "198.51.100.7")
        XCTAssertTrue(admitted, "the idle stranger gives way")
        XCTAssertTrue(idle.wasShed)
        XCTAssertFalse(device.wasShed || busy.wasShed, "a device's connection and a request under way stay")
        XCTAssertEqual(connections.count, 3)
        // Now: the device, a request under way, the new stranger (between requests).
        let (newer, _) = open(connections)
        XCTAssertTrue(new.wasShed, "the oldest stranger between requests goes first")
        connections.trust(newer.id)
        XCTAssertFalse(open(connections).1, "none left to give way: refused")
        connections.request(on: busy.id, begins: false)
        XCTAssertTrue(open(connections).1, "its request over, the stranger gives way")
        XCTAssertTrue(busy.wasShed)
        connections.close(device.id)
        XCTAssertEqual(connections.count, 2)
        XCTAssertTrue(open(connections).1)
        XCTAssertEqual(connections.count, 3)
    }

    func testOneAddressHoldsItsShareOfStrangersAndTheOthersTheRest() throws {
        let connections = OpenConnections(maximum: 8)
        XCTAssertEqual(connections.perAddress, 2)
        let address = "203.0.113.9"
        let (device, _) = open(connections, address)
        let (stranger, _) = open(connections, address)
        connections.trust(device.id)
        // A device counts in no share: room for a second stranger.
        let (busy, admitted) = open(connections, address)
        XCTAssertTrue(admitted)
        XCTAssertFalse(stranger.wasShed)
        connections.request(on: busy.id, begins: true)
        // Past its share, the address's oldest stranger between requests gives way.
        let (newest, alsoAdmitted) = open(connections, address)
        XCTAssertTrue(alsoAdmitted)
        XCTAssertTrue(stranger.wasShed)
        XCTAssertFalse(device.wasShed || busy.wasShed, "a device and a stranger with a request under way stay")
        connections.request(on: newest.id, begins: true)
        XCTAssertFalse(open(connections, address).1, "past its share with no stranger between requests: refused")
        XCTAssertEqual(connections.count, 3)
        for index in 1...5 { XCTAssertTrue(open(connections, "198.51.100.\(index)").1, "other addresses get the rest") }
        XCTAssertEqual(connections.count, 8)
    }

    func testTheRefusalIsAnswered503AndClosed() throws {
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
