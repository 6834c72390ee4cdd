import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow: a new connection without a whole request
/// head within ``ConnectionLimits/headerTimeout``, a body not all there within
/// ``ConnectionLimits/bodyTimeout`` of its head, a connection without the next head within
/// ``ConnectionLimits/idleTimeout`` of an answer. No clock runs while a request is being
/// answered (the database has its own deadline).
///
/// It also ends a connection whose request is answered before its body was read (a bad
/// token, a body too large): the answer says `Connection: close`, and the rest of a
/// stranger's body is never read.
///
/// One per connection, after the HTTP codec; it runs on the connection's event loop.
final class RequestDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What the connection is waiting for, for the log line when it is closed.
    enum Wait: Equatable {
        case firstHead, body, nextHead

        var reason: String {
            switch self {
            case .firstHead: "no request head in time"
            case .body: "the request's body did not arrive in time"
            case .nextHead: "no next request in time"
            }
        }
    }

    private let limits: ConnectionLimits
    private let logger: Logger
    /// Requests whose head was read and whose answer is not all written.
    private var unanswered = 0
    /// Whether the last request's head was read and its end not yet.
    private var readingBody = false
    /// Whether the answer being written ends the connection.
    private var closingAfterAnswer = false
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { wait(.firstHead, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil { wait(.firstHead, context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopWaiting()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopWaiting()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            readingBody = true
            wait(.body, context: context)
        case .body:
            break
        case .end:
            readingBody = false
            stopWaiting()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where readingBody && unanswered == 1:
            // The request being answered is the one whose body is still coming.
            closingAfterAnswer = true
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            unanswered -= 1
            if closingAfterAnswer {
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.cascade(to: promise)
                context.writeAndFlush(data, promise: written)
                let channel = context.channel
                written.futureResult.whenComplete { _ in channel.close(promise: nil) }
                return
            }
            context.write(data, promise: promise)
            if unanswered == 0 && !readingBody { wait(.nextHead, context: context) }
        }
    }

    /// Starts the clock of `wait`, replacing any other.
    private func wait(_ wait: Wait, context: ChannelHandlerContext) {
        stopWaiting()
        let limit =
            switch wait {
            case .firstHead: limits.headerTimeout
            case .body: limits.bodyTimeout
            case .nextHead: limits.idleTimeout
            }
        let logger = logger
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limit)) { [weak self] in
            self?.timer = nil
            logger.debug("closed a slow connection", metadata: ["reason": "\(wait.reason)"])
            context.close(promise: nil)
        }
    }

    private func stopWaiting() {
        timer?.cancel()
        timer = nil
    }
}
