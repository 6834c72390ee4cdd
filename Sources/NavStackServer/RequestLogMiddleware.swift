import Hummingbird
import Logging

/// Logs one line per request: method, path, status, milliseconds, account, operations in
/// and out, and for a refusal its reason. What a route or Hummingbird throws goes on as a
/// ``ServerError``, which Hummingbird answers.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status, since: start)
            return response
        } catch {
            let refusal = Self.refusal(for: error, request: request)
            log(request, context, status: refusal.status, refusal: refusal, since: start)
            throw refusal
        }
    }

    /// The refusal an error means: a route's own, or Hummingbird's 404 for a path no route
    /// has (405 when the path has a route for another method); anything else failed.
    static func refusal(for error: any Error, request: Request) -> ServerError {
        switch error {
        case let refusal as ServerError:
            return refusal
        case let error as HTTPError where error.status == .notFound:
            if let method = SyncRoutes.methods[request.uri.path] { return .methodNotAllowed(allowed: method.rawValue) }
            return .notFound
        default:
            return .failed
        }
    }

    private func log(
        _ request: Request, _ context: Context, status: HTTPResponse.Status, refusal: ServerError? = nil,
        since start: ContinuousClock.Instant
    ) {
        let facts = context.facts.current
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "path": "\(request.uri.path)",
            "status": "\(status.code)",
            "ms": "\(Self.milliseconds(start.duration(to: .now)))",
            "ops_in": "\(facts.operationsIn)",
            "ops_out": "\(facts.operationsOut)",
        ]
        if let account = facts.account { metadata["account"] = "\(account)" }
        if let refusal {
            // The reason in the message: metadata values are not quoted in the line.
            let level: Logger.Level = status.code >= 500 ? .error : .info
            context.logger.log(level: level, "request refused: \(refusal.message)", metadata: metadata)
        } else {
            context.logger.info("request", metadata: metadata)
        }
    }

    /// Milliseconds with one decimal.
    static func milliseconds(_ duration: Duration) -> String {
        let tenths = duration.components.seconds * 10_000 + duration.components.attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
