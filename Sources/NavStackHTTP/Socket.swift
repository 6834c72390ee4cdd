import CPosix
import Glibc
import NavStackBytes

/// A non-blocking TCP socket, closed when it goes away, and the TLS session over it once
/// ``secure(with:host:port:by:)`` has checked the server. Every wait is a `poll` bounded by
/// the request's deadline, so no call can hold the caller past it.
struct Socket: ~Copyable {
    let descriptor: Int32
    /// The TLS session once the server's certificate has passed its checks; sending and
    /// receiving then go through it. Nil for plain HTTP.
    var tls: TLSSession?

    init(family: Int32) throws(HTTPError) {
        descriptor = ns_tcp_socket(family)
        guard descriptor >= 0 else { throw .system(call: "socket", code: errno) }
        // The head and the body are written one after the other; without this the body's
        // first packet could wait for the server to acknowledge the head.
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        close(descriptor)
    }

    /// Connects to `address`: 0 when connected, else the `errno` of the failure.
    func connect(to address: SocketAddress, by deadline: Deadline) throws(HTTPError) -> Int32 {
        let result = address.bytes.withBytes { $0.lend { ns_connect(descriptor, $0, socklen_t($1)) } }
        if result == 0 { return 0 }
        guard errno == EINPROGRESS || errno == EINTR else { return errno }
        try wait(for: Int16(POLLOUT), by: deadline)
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    /// Writes all of `bytes` (sealed, over TLS). False when the server closed the
    /// connection first: it may have answered already (say, refusing a body too large),
    /// so the caller reads on.
    func send(_ bytes: [UInt8], by deadline: Deadline) throws(HTTPError) -> Bool {
        guard let tls else { return try sendPlain(bytes, by: deadline) }
        return try sendSealed(bytes, over: tls, by: deadline)
    }

    /// Reads what has arrived into `buffer` (opened, over TLS), waiting for something if
    /// nothing has: the count read, or 0 when the server has closed the connection.
    func receive(into buffer: borrowing ByteRoom, by deadline: Deadline) throws(HTTPError) -> Int {
        guard let tls else { return try receivePlain(into: buffer, by: deadline) }
        return try receiveSealed(into: buffer, over: tls, by: deadline)
    }

    /// Writes all of `bytes` to the connection as they are.
    func sendPlain(_ bytes: [UInt8], by deadline: Deadline) throws(HTTPError) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withBytes { $0.lend(from: sent) { ns_send(descriptor, $0, $1) } }
            if count >= 0 {
                sent += count
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLOUT), by: deadline)
            case EINTR: continue
            case EPIPE, ECONNRESET: return false
            case let code: throw .system(call: "send", code: code)
            }
        }
        return true
    }

    /// Reads what has arrived on the connection into `buffer`, as it is, waiting for
    /// something if nothing has: the count read, or 0 when the server has closed the
    /// connection. Past the deadline it throws `timedOut` even when bytes keep arriving
    /// (a server that never stops sending).
    func receivePlain(into buffer: borrowing ByteRoom, by deadline: Deadline) throws(HTTPError) -> Int {
        while true {
            guard deadline.remainingMilliseconds > 0 else { throw deadline.timedOut }
            let count = buffer.fill { recv(descriptor, $0, $1, 0) }
            if count >= 0 { return count }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLIN), by: deadline)
            case EINTR: continue
            case ECONNRESET: throw .connectionClosed
            case let code: throw .system(call: "recv", code: code)
            }
        }
    }

    /// Waits until the socket is ready for `events` (or has an error or hang-up to report,
    /// which the next call reads), or throws `timedOut` at the deadline.
    /// Whether anything came since the last answer was read (bytes, the server's close,
    /// an error): a kept connection with input waiting is not used again, as that input
    /// would be read as the next request's answer.
    var hasInputWaiting: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    private func wait(for events: Int16, by deadline: Deadline) throws(HTTPError) {
        while true {
            let milliseconds = deadline.remainingMilliseconds
            guard milliseconds > 0 else { throw deadline.timedOut }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .system(call: "poll", code: errno) }
        }
    }
}
