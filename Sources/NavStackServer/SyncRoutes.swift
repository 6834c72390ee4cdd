import Hummingbird
import Logging
import NavStackBytes
import NavStackSync
import PostgresNIO

/// The two endpoints: POST /v1/sync and GET /health, over an operation log: PostgreSQL's
/// when serving, memory's in tests.
public struct SyncRoutes: Sendable {
    let log: any OperationStore
    /// How long a request waits for the database before it is answered with 503.
    let databaseDeadline: Duration
    /// How long /health waits for `SELECT 1`.
    let healthDeadline: Duration
    /// The server's wall clock in milliseconds since 1970, which no operation's stamp may
    /// pass by more than ``SyncDrift/maximumMillis``.
    let now: @Sendable () -> Int64
    /// The accounts of tokens found good: a sync with one of them is one round trip.
    let tokens: TokenCache
    /// What the bodies of the syncs under way may hold together.
    let bodies: BodyBudget
    /// The connections open, told which carry a good token and a request under way
    /// (`nil`: none told, in the tests).
    let connections: OpenConnections?

    /// `tokens`: the server's cache of tokens found good; PostgreSQL's server gives one
    /// that a ``TokenWatch`` keeps (the store confirms a held token either way).
    init(
        log: any OperationStore, databaseDeadline: Duration = .seconds(5), healthDeadline: Duration = .seconds(2),
        now: @escaping @Sendable () -> Int64 = SyncClock.wallMillis, tokens: TokenCache = TokenCache(trusted: true),
        bodies: BodyBudget = BodyBudget(), connections: OpenConnections? = nil
    ) {
        self.bodies = bodies
        self.connections = connections
        self.log = log
        self.databaseDeadline = databaseDeadline
        self.healthDeadline = healthDeadline
        self.now = now
        self.tokens = tokens
    }

    /// The paths and the methods each one answers; another method gets 405.
    static let methods: [String: HTTPRequest.Method] = ["/v1/sync": .post, "/health": .get]

    public func router() -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: RequestLogMiddleware())
        if let connections { router.add(middleware: ConnectionUseMiddleware(connections: connections)) }
        router.post("/v1/sync") { request, context in try await sync(request, context: context) }
        router.get("/health") { _, context in try await health(context: context) }
        return router
    }

    /// A push and a pull. Before a byte of the body is read, the token is looked up, unless
    /// it was found good before (``TokenCache``: then the sync's first statement confirms
    /// it): a stranger's body is never collected. The body read, the request is refused
    /// when it is not one, when an operation is stamped too far ahead of the server's clock
    /// or sets a value the app would refuse, and when it names a (replica, seq) held with
    /// other content.
    func sync(_ request: Request, context: ServerContext) async throws -> Response {
        guard let authorization = request.headers[.authorization] else { throw ServerError.missingToken }
        let token = try BearerToken.parse(authorization: authorization)
        let length = request.headers[.contentLength].flatMap(Int.init)
        if let length, length > SyncLimits.maximumBodyBytes { throw ServerError.tooLarge }
        let log = self.log
        let logger = context.logger
        let cached = tokens.holder(of: token)
        let account: TokenHolder
        if let cached {
            account = cached
        } else {
            let generation = tokens.generation
            let found = try await Self.database(within: databaseDeadline) { try await log.account(token: token, logger: logger) }
            guard let found else { throw ServerError.badToken }
            account = found
            tokens.remember(token, as: found, since: generation)
        }
        context.facts.record { $0.account = account.id }
        connections?.trust(context.connection)
        // The body's share of what all bodies may hold, taken before a byte of it is read
        // and kept until the answer is made (the request decoded from it lives as long).
        let share = max(0, length ?? SyncLimits.maximumBodyBytes)
        guard bodies.take(share, for: account.id) else { throw ServerError.bodiesFull }
        defer { bodies.give(share, for: account.id) }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: context.maxUploadSize)
        } catch is NIOTooManyBytesError {
            throw ServerError.tooLarge
        } catch {
            throw ServerError.truncatedBody
        }
        let syncRequest: SyncRequest
        do throws(SyncWireError) {
            syncRequest = try body.readableBytesView.withByteView { bytes throws(SyncWireError) in try SyncRequest(json: bytes) }
        } catch {
            throw ServerError.malformed(error)
        }
        context.facts.record { $0.operationsIn = syncRequest.operations.count }
        let serverMillis = now()
        if let refused = syncRequest.refusal(now: serverMillis) {
            if case .stampAhead = refused { throw ServerError.stampAhead(refused, serverMillis: serverMillis) }
            throw ServerError.malformed(refused)
        }
        let confirming = cached == nil ? nil : token
        let outcome: SyncOutcome
        do {
            outcome = try await Self.database(within: databaseDeadline) {
                try await log.sync(account: account, request: syncRequest, confirming: confirming, logger: logger)
            }
        } catch {
            // Revoked, or its account removed: looked up again next time.
            if error == .badToken { tokens.forget(token) }
            throw error
        }
        // A key once set never changes: held with the token, the account's next syncs are
        // the one statement of an account with its key.
        if outcome.answer.key != account.key { tokens.update(token, key: outcome.answer.key) }
        context.facts.record { $0.operationsOut = outcome.answer.operations.count }
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: outcome.answer.json())))
    }

    func health(context: ServerContext) async throws -> Response {
        let log = self.log
        let logger = context.logger
        try await Self.database(within: healthDeadline) { try await log.ping(logger: logger) }
        var body = ByteBuffer()
        body.writeStaticString("{\"status\":\"ok\"}")
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }

    /// Runs `work` against the database, giving up after `deadline` (``Deadlines``: the
    /// work is cancelled). Errors from the database become ``ServerError/databaseUnavailable``
    /// or ``ServerError/databaseFailed``; a ``ServerError`` passes through, and so does a log's
    /// ``SyncLogError``, as the server's.
    static func database<Result: Sendable>(
        within deadline: Duration, _ work: @escaping @Sendable () async throws -> Result
    ) async throws(ServerError) -> Result {
        do {
            guard let result = try await Deadlines.shared.run(within: deadline, work) else { throw ServerError.databaseUnavailable }
            return result
        } catch let refusal as ServerError {
            throw refusal
        } catch let refusal as SyncLogError {
            throw ServerError(refusal)
        } catch {
            // An answer from PostgreSQL: it refused the statement, unless it is shutting
            // down or cannot take connections (SQLSTATE classes 08, 53 and 57).
            guard let state = sqlState(of: error) else { throw .databaseUnavailable }
            throw ["08", "53", "57"].contains(state.prefix(2)) ? .databaseUnavailable : .databaseFailed
        }
    }
}
