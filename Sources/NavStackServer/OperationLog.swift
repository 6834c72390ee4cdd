import Logging
import NavStackSync
import PostgresNIO

/// Each account's log of operations in PostgreSQL, in arrival order (`server_seq`). The
/// server keeps nothing else: every request is one transaction here (or, when it writes
/// nothing, one statement), so any number of server instances can share one database.
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
        let rows = try await client.query(
            "SELECT account_id FROM token WHERE sha256 = sha256(convert_to(\(token), 'UTF8'))", logger: logger)
        var account: Int64?
        for try await id in rows.decode(Int64.self) { account = id }
        return account
    }

    /// Pushes the request's operations into `account` and pulls the page that follows
    /// `after`, in one transaction (one statement when there is nothing to write). An operation naming a (replica, seq) the account holds
    /// with other content rolls it back: ``Refusal/replicaTaken(_:)``.
    ///
    /// With operations to insert, the transaction first takes the account's advisory lock,
    /// so the account's writers commit one at a time and in `server_seq` order: a reader
    /// that has seen `server_seq` N can never miss a row committed later below N.
    public func sync(account: Int64, request: SyncRequest, logger: Logger) async throws -> SyncOutcome {
        // Two operations of the request under one seq: the insert below keeps the first
        // and could not see the second's content.
        if let clash = request.clash(held: { _ in nil }) { throw Refusal.replicaTaken(clash) }
        // A request that writes nothing is one statement, consistent on its own: no
        // transaction around it (two round trips fewer for a sync that only asks what is new).
        guard !request.operations.isEmpty || request.key != nil || request.dropClear else {
            return try await client.withConnection { connection in
                let page = try await Self.pull(account: account, request: request, on: connection, logger: logger)
                return SyncOutcome(account: account, answer: page)
            }
        }
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(account))", logger: logger).drain()
                let held = try await connection.query(
                    "SELECT coalesce(key, '') FROM account WHERE id = \(account)", logger: logger
                ).value(String.self).flatMap { $0.isEmpty ? nil : $0 }
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
                    let rows = try await connection.query(Self.insert(request, into: account), logger: logger)
                    var taken: (place: Int64, seq: Int64)?
                    for try await row in rows.decode((Int64, Int64).self) { taken = row }
                    if let taken {
                        throw Refusal.replicaTaken(
                            .replicaTaken(path: "ops[\(taken.place - 1)]", replica: request.replica, seq: taken.seq))
                    }
                }
                if request.dropClear {
                    try await connection.query("DELETE FROM op WHERE account_id = \(account) AND task <> ''", logger: logger)
                        .drain()
                }
                let page = try await Self.pull(account: account, request: request, on: connection, logger: logger)
                return SyncOutcome(account: account, answer: page)
            }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }

    /// All the operations in one statement, as arrays unnested; one already in the log
    /// (the same replica and seq) is left as it is, so a request sent again adds nothing
    /// twice. PostgreSQL numbers the rows of a function scan as it reads them, in the order
    /// sent; no replica depends on it (applying is the same in any order), so the rows are
    /// not sorted by their ordinal to make sure, which cost a third of the insert.
    ///
    /// The same statement returns the first operation (its place in the request, from 1,
    /// and its seq) that was not inserted because the log holds its (replica, seq) with
    /// other content; none when every one was inserted or is held as sent. Only the rows
    /// not inserted are looked up, each through the unique index (the lateral subquery's
    /// `OFFSET 0` keeps it a lookup per row: joined, PostgreSQL hashed every row the
    /// account holds from the replica, a cost that grew with the account on every push,
    /// 33 ms of 145 at 30,000 rows). The statement's snapshot does not see the rows it
    /// inserts, so what it finds was there before.
    private static func insert(_ request: SyncRequest, into account: Int64) -> PostgresQuery {
        let operations = request.operations
        var bindings = PostgresBindings(capacity: 9)
        bindings.append(account)
        bindings.append(request.replica)
        bindings.append(operations.map(\.seq))
        bindings.append(operations.map(\.millis))
        // The codec keeps counters within PostgreSQL's integer.
        bindings.append(operations.map { Int32($0.counter) })
        // A sealed payload goes in `value`, its task, field and old value empty.
        bindings.append(operations.map { $0.sealed == nil ? $0.task : "" })
        bindings.append(operations.map { $0.sealed == nil ? $0.field.rawValue : "" })
        bindings.append(operations.map { $0.sealed ?? $0.value })
        bindings.append(operations.map { $0.sealed == nil ? $0.old : "" })
        return PostgresQuery(
            unsafeSQL: """
                WITH sent AS (
                    SELECT * FROM unnest(
                        $3::bigint[], $4::bigint[], $5::integer[], $6::text[], $7::text[], $8::text[], $9::text[]
                    ) WITH ORDINALITY AS o(seq, millis, counter, task, field, value, old, place)
                ), inserted AS (
                    INSERT INTO op (account_id, replica, seq, millis, counter, task, field, value, old)
                    SELECT $1, $2, seq, millis, counter, task, field, value, old FROM sent
                    ON CONFLICT (account_id, replica, seq) DO NOTHING
                    RETURNING seq
                )
                SELECT sent.place, sent.seq
                FROM sent CROSS JOIN LATERAL (
                    SELECT held.millis, held.counter, held.task, held.field, held.value, held.old
                    FROM op AS held
                    WHERE held.account_id = $1 AND held.replica = $2 AND held.seq = sent.seq
                    OFFSET 0
                ) AS held
                WHERE NOT EXISTS (SELECT 1 FROM inserted WHERE inserted.seq = sent.seq)
                    AND (held.millis, held.counter, held.task, held.field, held.value, held.old)
                        IS DISTINCT FROM (sent.millis, sent.counter, sent.task, sent.field, sent.value, sent.old)
                ORDER BY sent.place
                LIMIT 1
                """,
            binds: bindings)
    }

    /// The page after `after` and the account's highest `server_seq` in one statement, so
    /// both come from one snapshot. One row more than a page is read to know whether
    /// there are more; the highest comes on every row, and on a row of nulls when the
    /// page is empty (coalesced to zeros and empty strings: decoding optionals costs more).
    /// The rows are put in order here: sorting them in the statement, after
    /// the join, costs PostgreSQL more than the whole rest of it.
    private static func pull(
        account: Int64, request: SyncRequest, on connection: PostgresConnection, logger: Logger
    ) async throws -> SyncAnswer {
        let rows = try await connection.query(
            """
            WITH page AS (
                SELECT server_seq, replica, seq, millis, counter, task, field, value, old
                FROM op
                WHERE account_id = \(account) AND server_seq > \(request.after) AND replica <> \(request.replica)
                    -- An account with a key serves sealed operations only: those kept in
                    -- clear wait to be dropped, sent again sealed by the replica that moved it.
                    AND (task = '' OR (SELECT key FROM account WHERE id = \(account)) IS NULL)
                ORDER BY server_seq
                LIMIT \(SyncLimits.pageSize + 1)
            )
            SELECT coalesce((SELECT max(server_seq) FROM op WHERE account_id = \(account)), 0),
                coalesce((SELECT key FROM account WHERE id = \(account)), ''),
                coalesce(page.server_seq, 0), coalesce(page.replica, ''), coalesce(page.seq, 0),
                coalesce(page.millis, 0), coalesce(page.counter, 0), coalesce(page.task, ''),
                coalesce(page.field, ''), coalesce(page.value, ''), coalesce(page.old, '')
            FROM (VALUES (1)) AS one LEFT JOIN page ON true
            """, logger: logger)
        var highest: Int64 = 0
        var key = ""
        var operations: [SyncOperation] = []
        for try await row in rows {
            let (top, accountKey, serverSeq, replica, seq, millis, counter, task, field, value, old) = try row.decode(
                (Int64, String, Int64, String, Int64, Int64, Int32, String, String, String, String).self)
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
