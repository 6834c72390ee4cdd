import Foundation
import Glibc
import NavStackHTTP

/// A real TCP server on the loopback interface for the client's tests: it accepts
/// connections and hands each, on a thread of its own, to the test's handler, which reads
/// and answers with plain socket calls. Stopped (and its threads waited for) by `stop()`.
final class TestServer: @unchecked Sendable {
    let port: Int
    let host: String
    private let listener: Int32
    private let handler: @Sendable (Peer) -> Void
    private let threads = DispatchGroup()

    /// Listens on 127.0.0.1, or on ::1 when `family` is AF_INET6, on a port the system picks.
    init(family: Int32 = AF_INET, handler: @escaping @Sendable (Peer) -> Void) throws {
        self.handler = handler
        listener = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw ServerError("socket", errno) }
        (host, port) = try bindLoopback(listener, family: family)
        guard listen(listener, 16) == 0 else { throw ServerError("listen", errno) }
        threads.enter()
        Thread { [self] in
            defer { threads.leave() }
            acceptLoop()
        }.start()
    }

    /// The server's address, for the client.
    var url: HTTPURL {
        get throws { try HTTPURL("http://\(host.contains(":") ? "[\(host)]" : host):\(port)") }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            threads.enter()
            Thread { [self] in
                defer { threads.leave() }
                handler(Peer(descriptor: connection))
                close(connection)
            }.start()
        }
    }

    /// Stops accepting and waits for the handlers to return (they return when the client
    /// is gone, if not before).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        _ = threads.wait(timeout: .now() + 30)
    }
}

/// One accepted connection, as a handler sees it. Every call blocks.
struct Peer: Sendable {
    let descriptor: Int32

    /// The request head (up to and including the empty line) and its Content-Length body,
    /// or nil when the client closed first.
    func readRequest() -> (head: String, body: [UInt8])? {
        var bytes: [UInt8] = []
        var end: Int?
        while end == nil {
            guard let more = read(upTo: 4096) else { return nil }
            bytes += more
            end = bytes.indices.first { bytes[$0...].starts(with: [13, 10, 13, 10]) }
        }
        let headEnd = end! + 4
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let length =
            head.split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = Array(bytes[headEnd...])
        while body.count < length {
            guard let more = read(upTo: length - body.count) else { return nil }
            body += more
        }
        return (head, body)
    }

    /// Up to `count` bytes, or nil at the end of the connection.
    func read(upTo count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max(1, min(count, 1 << 20)))
        let received = recv(descriptor, &buffer, buffer.count, 0)
        return received > 0 ? Array(buffer[..<received]) : nil
    }

    /// Writes all of `bytes`; false when the client has gone.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Reads and drops everything until the client closes.
    func drain() {
        while read(upTo: 1 << 16) != nil {}
    }

    /// Closes at once with a reset (SO_LINGER of 0) rather than an orderly end.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Ends the answer: the client reads the end of the connection.
    func finish() {
        shutdown(descriptor, Int32(SHUT_WR))
    }
}

/// Binds `socket` to the loopback address of `family` on a free port: the host and port.
func bindLoopback(_ socket: Int32, family: Int32) throws -> (String, Int) {
    var on: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    if family == AF_INET6 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw ServerError("bind", errno) }
        return ("::1", Int(UInt16(bigEndian: address.sin6_port)))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
    }
    guard bound else { throw ServerError("bind", errno) }
    return ("127.0.0.1", Int(UInt16(bigEndian: address.sin_port)))
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ call: String, _ code: Int32) { description = "\(call): \(String(cString: strerror(code)))" }
}
