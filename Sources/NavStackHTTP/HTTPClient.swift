import Glibc
import NavStackBytes
import Synchronization

/// Sends HTTP/1.1 requests over TLS (OpenSSL) or, to this machine only, plain TCP, with
/// nothing but the C library besides, so that the static navstack executable stays free of
/// Foundation's networking and its start-up cost.
///
/// One connection per request (`Connection: close`), unless `keepsConnections`: then a
/// connection whose answer allows it is kept for the next request to the same server with
/// the same trust, and a request on a kept connection that the server had closed meanwhile
/// goes again once on a new one (for requests that may be sent twice, as sync's are). The
/// whole request — resolving the host, connecting to each of its addresses in turn, the
/// TLS handshake, writing, reading the answer — ends by the deadline it is given, so a
/// screen waiting on the server is never held longer. OpenSSL is started at the first
/// `https://` request, not before.
public struct HTTPClient: Sendable {
    /// The largest answer body accepted, in bytes; a longer one is `responseTooLarge`.
    public var maximumResponseSize: Int
    /// The authorities an `https://` server's certificate must chain to.
    public var trust: TLSTrust
    /// Whether connections are kept for the next request (see above).
    public var keepsConnections: Bool

    public init(trust: TLSTrust = .system, maximumResponseSize: Int = 64 << 20, keepsConnections: Bool = false) {
        self.trust = trust
        self.maximumResponseSize = maximumResponseSize
        self.keepsConnections = keepsConnections
    }

    /// Sends `request` and reads the server's answer, whatever its status, within `deadline`.
    public func send(_ request: HTTPRequest, deadline budget: Duration) throws(HTTPError) -> HTTPResponse {
        try start(request, deadline: budget).response()
    }

    /// Sends `request` and leaves its answer to be read by ``HTTPExchange/response()``,
    /// so the caller can work while the server does; both end by `deadline`.
    public func start(_ request: HTTPRequest, deadline budget: Duration) throws(HTTPError) -> HTTPExchange {
        let deadline = Deadline(budget)
        try request.url.checkPlainText()
        let head = try request.head(keepingConnection: keepsConnections)
        guard keepsConnections else {
            return try start(request, head: head, on: open(request.url, by: deadline), by: deadline, keeping: nil)
        }
        let key = KeptConnections.Key(scheme: request.url.scheme, host: request.url.host, port: request.url.port, trust: trust)
        func fresh() throws(HTTPError) -> HTTPExchange {
            try start(request, head: head, on: open(request.url, by: deadline), by: deadline, keeping: key)
        }
        // On a kept connection written whole: if the server closed it meanwhile, the answer
        // says so and the request goes again (``HTTPExchange/response()``). One that could
        // not be written goes on a new connection at once.
        if let kept = KeptConnections.shared.take(key),
            let exchange = try? start(request, head: head, on: kept, by: deadline, keeping: key), exchange.sentWhole
        {
            exchange.again = fresh
            return exchange
        }
        return try fresh()
    }

    /// Writes the request on `connection`.
    private func start(
        _ request: HTTPRequest, head: [UInt8], on connection: Connection, by deadline: Deadline, keeping key: KeptConnections.Key?
    ) throws(HTTPError) -> HTTPExchange {
        var whole = try connection.socket.send(head, by: deadline)
        if whole { whole = try connection.socket.send(request.body, by: deadline) }
        return HTTPExchange(connection: connection, deadline: deadline, limit: maximumResponseSize, key: key, sentWhole: whole)
    }

    /// A new connection to the request's server, checked (TLS) when it is `https://`.
    private func open(_ url: HTTPURL, by deadline: Deadline) throws(HTTPError) -> Connection {
        let context = url.scheme == .https ? try TLSContext.shared(for: trust, by: deadline) : nil
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
        return Connection(socket)
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

/// An open connection to a server: its socket, closed when the last reference goes.
final class Connection {
    let socket: Socket

    init(_ socket: consuming Socket) {
        self.socket = socket
    }
}

/// The connections kept for the next request, at most one for each server and trust: a
/// sync's requests follow one another, each after the answer before it.
final class KeptConnections: Sendable {
    static let shared = KeptConnections()

    struct Key: Hashable, Sendable {
        let scheme: HTTPURL.Scheme
        let host: String
        let port: Int
        let trust: TLSTrust
    }

    private let kept = Mutex<[Key: UncheckedConnection]>([:])

    /// A connection is used by one request at a time: kept here only between them.
    /// Unchecked because a connection is a socket and an OpenSSL session (C state the
    /// compiler cannot follow), and `sending` cannot say that one taken out of the
    /// lock's dictionary is the caller's alone.
    private struct UncheckedConnection: @unchecked Sendable {
        let connection: Connection
    }

    /// The connection kept for `key`, unless anything came on it since its last answer
    /// (then it is let go: closed).
    func take(_ key: Key) -> Connection? {
        guard let connection = kept.withLock({ $0.removeValue(forKey: key)?.connection }) else { return nil }
        return connection.socket.hasInputWaiting ? nil : connection
    }

    func keep(_ connection: Connection, for key: Key) {
        kept.withLock { $0[key] = UncheckedConnection(connection: connection) }
    }
}

/// A request sent whose answer has not been read yet. Dropping it closes the connection,
/// unless its answer was read and the connection is kept for the next request.
public final class HTTPExchange {
    private let connection: Connection
    private let deadline: Deadline
    private let limit: Int
    /// Where the connection is kept after the answer, when the client keeps connections.
    private let key: KeptConnections.Key?
    /// Whether the request was written whole before the server closed the connection.
    let sentWhole: Bool
    /// The request again on a new connection, for a kept one the server had closed.
    var again: (() throws(HTTPError) -> HTTPExchange)?

    fileprivate init(connection: Connection, deadline: Deadline, limit: Int, key: KeptConnections.Key?, sentWhole: Bool) {
        self.connection = connection
        self.deadline = deadline
        self.limit = limit
        self.key = key
        self.sentWhole = sentWhole
    }

    /// The answer, read until its framing says it is complete or the server closes, by
    /// the deadline the request was given. On a kept connection that ends before any byte
    /// of an answer, the request goes once more on a new connection.
    public func response() throws(HTTPError) -> HTTPResponse {
        var reader = ResponseReader(limit: limit)
        let buffer = ByteRoom(capacity: 64 << 10)
        var received = 0
        while true {
            if let response = reader.response {
                if let key, reader.connectionMayBeKept { KeptConnections.shared.keep(connection, for: key) }
                return response
            }
            let count: Int
            do {
                count = try connection.socket.receive(into: buffer, by: deadline)
            } catch .connectionClosed where received == 0 && again != nil {
                count = 0
            }
            if count == 0 {
                if received == 0, let again {
                    // A kept connection the server had closed: nothing of this request was read.
                    return try again().response()
                }
                return try reader.finish()
            }
            received += count
            try buffer.withBytes(count) { bytes throws(HTTPError) in try reader.feed(bytes) }
        }
    }
}
