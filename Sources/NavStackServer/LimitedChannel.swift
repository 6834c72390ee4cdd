import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// A connection as the server takes it: served by `Base` (HTTP/1.1, maybe over TLS) with
/// ``RequestDeadlines`` while fewer than the cap are open; past the cap, answered 503 and
/// closed at once, so that a flood of connections costs the server no more than the cap.
struct LimitedChannel<Base: ServerChildChannel>: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        /// `nil` for a connection past the cap.
        let served: Base.Value?
    }

    let base: Base
    let connections: OpenConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connections.open(logger: logger) else {
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(TooBusyAnswer())
                return Value(channel: channel, served: nil)
            }
        }
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.close() }
        return base.setup(channel: channel, logger: logger).map { Value(channel: channel, served: $0) }
    }

    func handle(value: Value, logger: Logger) async {
        guard let served = value.served else { return }
        await base.handle(value: served, logger: logger)
    }
}

/// How many connections are open, and the most that may be.
final class OpenConnections: Sendable {
    let maximum: Int
    private let state = Mutex((open: 0, full: false))

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Counts a new connection in, unless the cap is reached (then `false`). Reaching the
    /// cap is logged once, until there is room again.
    func open(logger: Logger) -> Bool {
        let (opened, filled) = state.withLock { state -> (Bool, Bool) in
            guard state.open < maximum else {
                defer { state.full = true }
                return (false, !state.full)
            }
            state.open += 1
            state.full = false
            return (true, false)
        }
        if filled {
            logger.warning(
                "as many connections open as the server takes; new ones are answered 503",
                metadata: ["connections": "\(maximum)"])
        }
        return opened
    }

    func close() {
        state.withLock { $0.open -= 1 }
    }

    var count: Int { state.withLock { $0.open } }
}

/// What a connection past the cap gets: ``Refusal/tooBusy`` as a whole HTTP/1.1 answer,
/// written as soon as the connection is up, then the connection closed. What the client
/// sent is read past.
final class TooBusyAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// The answer's bytes.
    static let answer: ByteBuffer = {
        let refusal = Refusal.tooBusy
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
