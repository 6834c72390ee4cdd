import Hummingbird
import Logging
import NavStackCore

/// Answers every error as `{"error": "…"}` with its status, and logs one line per request:
/// method, path, status, milliseconds, account, operations in and out.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response {
        let start = ContinuousClock.now
        let response: Response
        var refusal: Refusal?
        do {
            response = try await next(request, context)
        } catch {
            let refused = Self.refusal(for: error, request: request)
            refusal = refused
            response = Self.response(for: refused)
        }
        let elapsed = start.duration(to: .now)
        let facts = context.facts.current
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "path": "\(request.uri.path)",
            "status": "\(response.status.code)",
            "ms": "\(Self.milliseconds(elapsed))",
            "ops_in": "\(facts.operationsIn)",
            "ops_out": "\(facts.operationsOut)",
        ]
        if let account = facts.account { metadata["account"] = "\(account)" }
        if let refusal {
            // The reason in the message: metadata values are not quoted in the line.
            let level: Logger.Level = refusal.status.code >= 500 ? .error : .info
            context.logger.log(level: level, "request refused: \(refusal.message)", metadata: metadata)
        } else {
            context.logger.info("request", metadata: metadata)
        }
        return response
    }

    static func refusal(for error: any Error, request: Request) -> Refusal {
        switch error {
        case let refusal as Refusal:
            return refusal
        case let error as HTTPError where error.status == .notFound:
            if let method = SyncRoutes.methods[request.uri.path] { return .methodNotAllowed(allowed: method.rawValue) }
            return .notFound
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            return .tooLarge
        default:
            return .failed
        }
    }

    static func response(for refusal: Refusal) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if case .methodNotAllowed(let allowed) = refusal { headers[.allow] = allowed }
        var body = ByteBuffer()
        body.writeStaticString("{\"error\":")
        body.writeString(refusal.message.jsonQuoted)
        body.writeStaticString("}")
        return Response(status: refusal.status, headers: headers, body: .init(byteBuffer: body))
    }

    /// Milliseconds with one decimal.
    static func milliseconds(_ duration: Duration) -> String {
        let tenths = duration.components.seconds * 10_000 + duration.components.attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
