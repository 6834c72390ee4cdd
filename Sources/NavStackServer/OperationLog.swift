import Logging
import NavStackSync
import PostgresNIO

/// Each account's log of operations in PostgreSQL, in arrival order (`server_seq`). The
/// server keeps nothing else: what a request writes is one transaction here, so any number
/// of server instances can share one database.
public struct OperationLog: OperationStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// Whether the database answers: `SELECT 1`.
    public func ping(logger: Logger) async throws {
        try await client.query("SELECT 1", logger: logger).drain()
    }

    /// The account of `token`: one lookup of the token's SHA-256 by its primary key.
    public func account(token: String, logger: Logger) async throws -> Int64? {
        var account: Int64?
        for try await id in try await client.execute(TokenAccount(value: token), logger: logger) { account = id }
        return account
    }

    /// Pushes the request's operations into `account` in one transaction, then pulls the
    /// page that follows `after` (a request that writes nothing is that one statement). An
    /// operation naming a (replica, seq) the account holds with other content rolls the
    /// transaction back: ``Refusal/replicaTaken(_:)``.
    ///
    /// The transaction first takes the account's advisory lock, so the account's writers
    /// commit one at a time and in `server_seq` order: a reader that has seen `server_seq`
    /// N can never miss a row committed later below N. The lock is held for as few round
    /// trips as can be, the insert and the commit: the account's devices wait on it in turn
    /// (ten of them syncing at once waited 218 ms for it, the median, when it was held for
    /// the key's read and the page's too). The key is read before it, as a key once set
    /// never changes (the first offered is kept and nothing replaces it); an account
    /// without one is read again under the lock, where a key may have been offered
    /// meanwhile. The page is read after the commit, in one statement of its own.
    public func sync(account: Int64, request: SyncRequest, logger: Logger) async throws -> SyncOutcome {
        // Two operations of the request under one seq: the insert below keeps the first
        // and could not see the second's content.
        if let clash = request.clash(held: { _ in nil }) { throw Refusal.replicaTaken(clash) }
        return try await client.withConnection { connection in
            if !request.operations.isEmpty || request.key != nil || request.dropClear {
                let known = try await Self.key(of: account, on: connection, logger: logger)
                do {
                    try await connection.withTransaction(logger: logger) { connection in
                        for try await _ in try await connection.execute(AccountLock(value: account), logger: logger) {}
                        var held = known
                        if held == nil { held = try await Self.key(of: account, on: connection, logger: logger) }
                        try await Self.write(request, into: account, holding: held, on: connection, logger: logger)
                    }
                } catch let error as PostgresTransactionError {
                    throw error.closureError ?? error.beginError ?? error.commitError ?? error
                }
            }
            let page = try await Self.pull(account: account, request: request, on: connection, logger: logger)
            return SyncOutcome(account: account, answer: page)
        }
    }

    /// The account's key record; `nil` when it has none.
    private static func key(of account: Int64, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        var held: String?
        for try await key in try await connection.execute(AccountKey(value: account), logger: logger) {
            held = key.isEmpty ? nil : key
        }
        return held
    }

    /// Under the account's lock, with `held` its key record: the request's key rules
    /// (``SyncRequest/sealing(accountKey:clearAfter:)``), its operations, its drop.
    private static func write(
        _ request: SyncRequest, into account: Int64, holding held: String?, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        var clearAfter = false
        if request.asksForClearAfter(accountKey: held) {
            clearAfter =
                try await connection.query(
                    """
                    SELECT EXISTS (
                        SELECT 1 FROM op WHERE account_id = \(account) AND task <> '' AND server_seq > \(request.after))
                    """, logger: logger
                ).value(Bool.self) ?? false
        }
        let sealing = try request.sealing(accountKey: held, clearAfter: clearAfter)
        if sealing.setsKey, let key = sealing.key {
            try await connection.query("UPDATE account SET key = \(key) WHERE id = \(account)", logger: logger).drain()
        }
        if !request.operations.isEmpty {
            var taken: (place: Int64, seq: Int64)?
            for try await row in try await connection.execute(Insert(request, into: account), logger: logger) {
                taken = row
            }
            if let taken {
                throw Refusal.replicaTaken(
                    .replicaTaken(path: "ops[\(taken.place - 1)]", replica: request.replica, seq: taken.seq))
            }
        }
        if request.dropClear {
            try await connection.query("DELETE FROM op WHERE account_id = \(account) AND task <> ''", logger: logger).drain()
        }
    }

    /// The page after `after` and the account's highest `server_seq` in one statement
    /// (``Page``), read and put in order.
    private static func pull(
        account: Int64, request: SyncRequest, on connection: PostgresConnection, logger: Logger
    ) async throws -> SyncAnswer {
        let rows = try await connection.execute(Page(account: account, request: request), logger: logger)
        var highest: Int64 = 0
        var key = ""
        var operations: [SyncOperation] = []
        for try await (top, accountKey, serverSeq, replica, seq, millis, counter, task, field, value, old) in rows {
            highest = top
            key = accountKey
            // The row of an empty page: server_seq starts at 1.
            guard serverSeq > 0 else { continue }
            if task.isEmpty {
                operations.append(
                    .sealed(value, serverSeq: serverSeq, replica: replica, seq: seq, millis: millis, counter: Int64(counter)))
            } else {
                operations.append(
                    .init(
                        serverSeq: serverSeq, replica: replica, seq: seq, millis: millis, counter: Int64(counter), task: task,
                        field: SyncField(rawValue: field) ?? .task, value: value, old: old))
            }
        }
        operations.sort { $0.serverSeq < $1.serverSeq }
        var answer = SyncAnswer(after: request.after, highest: highest, following: operations)
        answer.key = key.isEmpty ? nil : key
        return answer
    }
}
