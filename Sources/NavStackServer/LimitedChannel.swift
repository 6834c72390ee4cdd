import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// A connection as the server takes it: served by `Base` (HTTP/1.1, maybe over TLS) with
/// ``RequestDeadlines`` when ``OpenConnections`` admits it; else answered 503 and closed at
/// once, so that a flood of connections costs the server no more than the cap.
struct LimitedChannel<Base: ServerChildChannel>: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        /// `nil` for a connection refused.
        let served: Base.Value?
    }

    let base: Base
    let connections: OpenConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let id = ObjectIdentifier(channel)
        let address = channel.remoteAddress?.ipAddress ?? ""
        guard connections.open(id, address: address, shed: { channel.close(promise: nil) }, logger: logger) else {
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(TooBusyAnswer())
                return Value(channel: channel, served: nil)
            }
        }
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.close(id) }
        return base.setup(channel: channel, logger: logger).map { Value(channel: channel, served: $0) }
    }

    func handle(value: Value, logger: Logger) async {
        guard let served = value.served else { return }
        await base.handle(value: served, logger: logger)
    }
}

/// The connections open, and which may give way to a new one.
///
/// At most ``maximum`` connections, and ``perAddress`` strangers of one address (a
/// stranger: a connection that has shown no good token). Past either, a new connection
/// takes the place of the oldest stranger between requests (of that address, past its
/// share: a flood of idle keep-alive connections, or of half-sent heads), which is closed;
/// only when there is none is the new one refused. A device's connection, once its
/// sync's token is found good, is never closed to make room and counts in no address's
/// share (many devices behind one address each sync), and a new device's gets in past
/// any number of strangers.
final class OpenConnections: Sendable {
    let maximum: Int
    /// The most strangers of one address: a quarter of ``maximum`` (at least one).
    let perAddress: Int

    private struct Entry {
        let address: String
        /// When it was opened, in the order connections came.
        let order: Int
        /// Whether a request with a good token came on it.
        var trusted = false
        /// Requests under way on it.
        var requests = 0
        let shed: @Sendable () -> Void
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Strangers by address.
        var byAddress: [String: Int] = [:]
        var opened = 0
        var full = false
    }

    private let state = Mutex(State())

    init(maximum: Int, perAddress: Int? = nil) {
        self.maximum = maximum
        self.perAddress = perAddress ?? max(1, maximum / 4)
    }

    /// Counts a new connection in, closing a stranger to make room when it must (through
    /// the `shed` given when the stranger was opened); `false` when there is no room. Being
    /// full is logged once, until there is room again.
    func open(_ id: ObjectIdentifier, address: String, shed: @escaping @Sendable () -> Void, logger: Logger) -> Bool {
        let (opened, filled, stranger) = state.withLock { state -> (Bool, Bool, Entry?) in
            var stranger: Entry?
            if state.byAddress[address, default: 0] >= perAddress {
                guard let found = Self.oldestStranger(in: state, of: address) else { return Self.refused(&state) }
                stranger = state.entries.removeValue(forKey: found)
            } else if state.entries.count >= maximum {
                guard let found = Self.oldestStranger(in: state, of: nil) else { return Self.refused(&state) }
                stranger = state.entries.removeValue(forKey: found)
            }
            if let stranger { Self.countOut(stranger.address, in: &state) }
            state.opened += 1
            state.entries[id] = Entry(address: address, order: state.opened, shed: shed)
            state.byAddress[address, default: 0] += 1
            state.full = false
            return (true, false, stranger)
        }
        stranger?.shed()
        if filled {
            logger.warning(
                "as many connections open as the server takes, none of them a stranger between requests; new ones are answered 503",
                metadata: ["connections": "\(maximum)", "per_address": "\(perAddress)"])
        }
        return opened
    }

    private static func refused(_ state: inout State) -> (Bool, Bool, Entry?) {
        defer { state.full = true }
        return (false, !state.full, nil)
    }

    /// The oldest connection (of `address`, when given) with no good token and no request
    /// under way.
    private static func oldestStranger(in state: State, of address: String?) -> ObjectIdentifier? {
        var oldest: (id: ObjectIdentifier, order: Int)?
        for (id, entry) in state.entries where !entry.trusted && entry.requests == 0 {
            if let address, entry.address != address { continue }
            if oldest.map({ entry.order < $0.order }) ?? true { oldest = (id, entry.order) }
        }
        return oldest?.id
    }

    /// Counts a connection out (once closed; nothing when it was closed to make room).
    func close(_ id: ObjectIdentifier) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            if !entry.trusted { Self.countOut(entry.address, in: &state) }
        }
    }

    /// A request with a good token came on the connection: it never gives way, and no
    /// longer counts in its address's share of strangers.
    func trust(_ id: ObjectIdentifier) {
        state.withLock { state in
            guard let entry = state.entries[id], !entry.trusted else { return }
            state.entries[id]?.trusted = true
            Self.countOut(entry.address, in: &state)
        }
    }

    /// A stranger of `address` less.
    private static func countOut(_ address: String, in state: inout State) {
        let left = state.byAddress[address, default: 1] - 1
        state.byAddress[address] = left > 0 ? left : nil
    }

    /// A request begins (`true`) or ends on the connection: one under way never gives way.
    func request(on id: ObjectIdentifier, begins: Bool) {
        state.withLock { $0.entries[id]?.requests += begins ? 1 : -1 }
    }

    var count: Int { state.withLock { $0.entries.count } }
}

/// Tells ``OpenConnections`` when a request is under way on a connection.
struct ConnectionUseMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let connections: OpenConnections

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        connections.request(on: context.connection, begins: true)
        defer { connections.request(on: context.connection, begins: false) }
        return try await next(request, context)
    }
}

/// What a connection past the cap gets: ``ServerError/tooBusy`` as a whole HTTP/1.1 answer,
/// written as soon as the connection is up, then the connection closed. What the client
/// sent is read past.
final class TooBusyAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// The answer's bytes.
    static let answer: ByteBuffer = {
        let refusal = ServerError.tooBusy
        var body = refusal.body
        var bytes = ByteBuffer()
        bytes.writeString("HTTP/1.1 \(refusal.status.code) \(refusal.status.reasonPhrase)\r\n")
        bytes.writeString("Content-Type: application/json\r\nContent-Length: \(body.readableBytes)\r\n")
        bytes.writeString("Connection: close\r\n\r\n")
        bytes.writeBuffer(&body)
        return bytes
    }()

    private var answered = false

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        answer(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func answer(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let channel = context.channel
        context.writeAndFlush(NIOAny(Self.answer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
