import Glibc

/// Sends HTTP/1.1 requests over TLS (OpenSSL) or, to this machine only, plain TCP, with
/// nothing but the C library besides, so that the static navstack executable stays free of
/// Foundation's networking and its start-up cost.
///
/// One connection per request (`Connection: close`). The whole request — resolving the
/// host, connecting to each of its addresses in turn, the TLS handshake, writing, reading
/// the answer — ends by the deadline it is given, so a screen waiting on the server is
/// never held longer. OpenSSL is started at the first `https://` request, not before.
public struct HTTPClient: Sendable {
    /// The largest answer body accepted, in bytes; a longer one is `responseTooLarge`.
    public var maximumResponseSize: Int
    /// The authorities an `https://` server's certificate must chain to.
    public var trust: TLSTrust

    public init(trust: TLSTrust = .system, maximumResponseSize: Int = 64 << 20) {
        self.trust = trust
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends `request` and reads the server's answer, whatever its status, within `deadline`.
    public func send(_ request: HTTPRequest, deadline budget: Duration) throws(HTTPError) -> HTTPResponse {
        try start(request, deadline: budget).response()
    }

    /// Sends `request` and leaves its answer to be read by ``HTTPExchange/response()``,
    /// so the caller can work while the server does; both end by `deadline`.
    public func start(_ request: HTTPRequest, deadline budget: Duration) throws(HTTPError) -> HTTPExchange {
        let deadline = Deadline(budget)
        let url = request.url
        try url.checkPlainText()
        let head = try request.head()
        let context = url.scheme == .https ? try TLSContext.shared(for: trust) : nil
        var addresses = try Resolver.addresses(of: url.host, port: url.port, by: deadline)
        if url.scheme == .http {
            // `localhost` as the resolver gives it: only its loopback addresses.
            addresses.removeAll { !$0.isLoopback }
            guard !addresses.isEmpty else { throw .plainTextRefused(host: url.host) }
        }
        var socket = try Self.connect(to: addresses, host: url.host, port: url.port, by: deadline)
        if let context {
            try socket.secure(with: context, host: url.host, port: url.port, by: deadline)
        }
        if try socket.send(head, by: deadline) {
            _ = try socket.send(request.body, by: deadline)
        }
        return HTTPExchange(socket: socket, deadline: deadline, limit: maximumResponseSize)
    }

    /// A socket connected to the first of `addresses` that accepts. When none does, the
    /// error says `refused` if any address refused (a server that is not running), else
    /// why the last one could not be reached.
    static func connect(to addresses: [SocketAddress], host: String, port: Int, by deadline: Deadline) throws(HTTPError) -> Socket {
        var refused = false
        var lastFailure: Int32 = 0
        for address in addresses {
            let socket = try Socket(family: address.family)
            let failure = try socket.connect(to: address, by: deadline)
            if failure == 0 { return socket }
            refused = refused || failure == ECONNREFUSED
            lastFailure = failure
        }
        if refused { throw .refused(host: host, port: port) }
        throw .unreachable(host: host, port: port, reason: systemMessage(lastFailure))
    }

}

/// A request sent whose answer has not been read yet. Dropping it closes the connection.
public final class HTTPExchange {
    private let socket: Socket
    private let deadline: Deadline
    private let limit: Int

    fileprivate init(socket: consuming Socket, deadline: Deadline, limit: Int) {
        self.socket = socket
        self.deadline = deadline
        self.limit = limit
    }

    /// The answer, read until its framing says it is complete or the server closes, by
    /// the deadline the request was given.
    public func response() throws(HTTPError) -> HTTPResponse {
        var reader = ResponseReader(limit: limit)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            if let response = reader.response { return response }
            let count = try socket.receive(into: buffer, by: deadline)
            if count == 0 { return try reader.finish() }
            try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
