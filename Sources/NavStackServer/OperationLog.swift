import Logging
import NavStackSync
import PostgresNIO

/// Each account's log of operations in PostgreSQL, in arrival order (`server_seq`). The
/// server keeps nothing else: what a request writes is one transaction here, so any number
/// of server instances can share one database.
public struct OperationLog: OperationStore {
    let client: PostgresClient
    /// The log's restore epoch, which every answer names (``Migrations/epoch(on:logger:)``).
    let epoch: String?

    public init(client: PostgresClient, epoch: String? = nil) {
        self.client = client
        self.epoch = epoch
    }

    /// Whether the database answers: `SELECT 1`.
    public func ping(logger: Logger) async throws {
        try await client.query("SELECT 1", logger: logger).drain()
    }

    /// The account of `token` and its key record: one lookup of the token's SHA-256 by its
    /// primary key.
    public func account(token: String, logger: Logger) async throws -> TokenHolder? {
        var account: TokenHolder?
        for try await found in try await client.execute(TokenAccount(value: token), logger: logger) { account = found }
        return account
    }

    /// Pushes the request's operations into `account` in one transaction, then pulls the
    /// page that follows `after` (a request that writes nothing is that one statement;
    /// the usual push reads the page in its own statement, under its lock). An
    /// operation naming a (replica, seq) the account holds with other content rolls the
    /// transaction back: ``ServerError/replicaTaken(_:)``.
    ///
    /// The write first takes the account's advisory lock, so the account's writers commit
    /// one at a time and in `server_seq` order: a reader that has seen `server_seq` N can
    /// never miss a row committed later below N. The lock is held for as few round trips
    /// as can be: the account's devices wait on it in turn (ten of them syncing at once
    /// waited 218 ms for it, the median, when it was held for the key's read and the
    /// page's too). The key is the one read with the token, before it, as a key once set
    /// never changes (the first offered is kept and nothing replaces it). A push of
    /// operations to an account with its key, the usual sync, is then one statement that
    /// takes the lock, inserts, reads the page and commits (``PushPage``: the page's read,
    /// not a round trip, added to the time the lock is held); anything else (a key
    /// offered to an account without one, which is read again under the lock, where a key
    /// may have been offered meanwhile; a snapshot; dropping the operations in clear) is a
    /// transaction that takes the lock first, and its page is read after the commit, in
    /// one statement of its own.
    ///
    /// With `token`, the holder came from the server's ``TokenCache``, not from a lookup
    /// in this request: the first statement that reads or writes the account confirms
    /// that the token still names it (``TokenPushPage``, ``TokenPage``, or
    /// ``ConfirmToken`` first in the transaction), and a refusal that tells something
    /// of the account (its key, a seq it holds) is given only once the token is
    /// confirmed. A token that no longer names the account is ``ServerError/badToken``.
    public func sync(account holder: TokenHolder, request: SyncRequest, confirming token: String?, logger: Logger)
        async throws -> SyncOutcome
    {
        let account = holder.id
        // A format no navstack knows is never stored (nor read), before anything else.
        do throws(SyncLogError) {
            try request.knownFormat()
        } catch {
            throw ServerError(error)
        }
        // Two operations of the request under one seq: the insert below keeps the first
        // and could not see the second's content.
        if let clash = request.clash(held: { _ in nil }) { throw ServerError.replicaTaken(clash) }
        return try await client.withConnection { connection in
            var unconfirmed = token
            var pushed: PageRead?
            if !request.operations.isEmpty || request.key != nil || request.dropClear || request.snapshot != nil {
                do {
                    if let key = holder.key, !request.dropClear, request.snapshot == nil {
                        // Operations (or nothing) for an account with its key: the write is
                        // the push alone, which takes the lock, reads the page after it and
                        // commits, one statement.
                        pushed = try await Self.write(
                            request, into: account, holding: key, readingPage: true, confirming: unconfirmed,
                            on: connection, logger: logger)
                        if pushed != nil { unconfirmed = nil }
                    } else {
                        try await connection.withTransaction(logger: logger) { connection in
                            if let token = unconfirmed { try await Self.confirm(token, names: account, on: connection, logger: logger) }
                            for try await _ in try await connection.execute(AccountLock(value: account), logger: logger) {}
                            var held = holder.key
                            if held == nil { held = try await Self.key(of: account, on: connection, logger: logger) }
                            _ = try await Self.write(
                                request, into: account, holding: held, readingPage: false, confirming: nil, on: connection,
                                logger: logger)
                        }
                        unconfirmed = nil
                    }
                } catch {
                    // A transaction's error wraps the statement's.
                    let failure =
                        (error as? PostgresTransactionError).map { $0.closureError ?? $0.beginError ?? $0.commitError ?? $0 }
                        ?? error
                    throw Self.accountGone(failure) ? ServerError.badToken : failure
                }
            }
            var page = try await Self.pull(
                account: account, request: request, read: pushed, confirming: unconfirmed, on: connection, logger: logger)
            page.epoch = epoch
            // Everything the request sent is in the log once this is reached (each
            // operation inserted, or held already with the same content): the answer says so.
            page.stored = SyncStored(request)
            if !request.aside.isEmpty { page.gone = try await Self.gone(of: request, account: account, on: connection, logger: logger) }
            return SyncOutcome(account: account, answer: page)
        }
    }

    /// Throws ``ServerError/badToken`` unless `token` names `account` (``ConfirmToken``).
    private static func confirm(_ token: String, names account: Int64, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        var confirmed = false
        for try await _ in try await connection.execute(ConfirmToken(token: token, account: account), logger: logger) {
            confirmed = true
        }
        guard confirmed else { throw ServerError.badToken }
    }

    /// Whether the database refused a write for naming an account that is not there (a
    /// foreign key, SQLSTATE 23503): `user remove` took it while the request, whose token
    /// was good when it came, waited for the account's lock. Its token no longer works.
    private static func accountGone(_ error: any Error) -> Bool {
        sqlState(of: error) == "23503"
    }

    /// The account's key record; `nil` when it has none. An account no longer there (`user
    /// remove` took it while the request waited for its lock) is ``ServerError/badToken``.
    private static func key(of account: Int64, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        var row: String?
        for try await key in try await connection.execute(AccountKey(value: account), logger: logger) { row = key }
        guard let row else { throw ServerError.badToken }
        return row.isEmpty ? nil : row
    }

    /// Under the account's lock, with `held` its key record: the request's key rules
    /// (``SyncRequest/sealing(accountKey:clearAfter:)``), its operations, its drop. With
    /// `readingPage`, for a write that is its push's statement alone (committed as it
    /// ends, not in a transaction committed later), the push reads the page after it
    /// (``PushPage``, or ``TokenPushPage`` confirming `token`), which is returned. With
    /// `token`, a refusal of the key rules is given once the token is confirmed.
    private static func write(
        _ request: SyncRequest, into account: Int64, holding held: String?, readingPage: Bool, confirming token: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> PageRead? {
        // A token comes with the usual push only, to an account with its key: the scan for
        // operations in clear below (asked only without one) never runs before it is confirmed.
        assert(token == nil || !request.asksForClearAfter(accountKey: held))
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
        let sealing: (key: String?, setsKey: Bool)
        do throws(SyncLogError) {
            sealing = try request.sealing(accountKey: held, clearAfter: clearAfter)
        } catch {
            if let token { try await confirm(token, names: account, on: connection, logger: logger) }
            throw ServerError(error)
        }
        // The format's rule, after the key's (`navstack_format`): the push of a page
        // statement runs it itself, under the lock it takes.
        if request.writes, !(readingPage && !request.operations.isEmpty) {
            do {
                for try await _ in try await connection.execute(Format(account: account, format: request.format), logger: logger) {}
            } catch {
                if let held = Format.heldFormat(error) { throw ServerError.formatNeeded(format: held) }
                throw error
            }
        }
        if sealing.setsKey, let key = sealing.key {
            try await connection.query("UPDATE account SET key = \(key) WHERE id = \(account)", logger: logger).drain()
        }
        var page: PageRead?
        if !request.operations.isEmpty {
            do {
                if readingPage, let token {
                    page = try await read(TokenPushPage(request, into: account, confirming: token), on: connection, logger: logger)
                } else if readingPage {
                    page = try await read(PushPage(request, into: account), on: connection, logger: logger)
                } else {
                    for try await _ in try await connection.execute(Push(request, into: account), logger: logger) {}
                }
            } catch {
                if sqlState(of: error) == TokenPushPage.badTokenState { throw ServerError.badToken }
                if let held = Format.heldFormat(error) { throw ServerError.formatNeeded(format: held) }
                guard let taken = Push.takenOperation(error) else { throw error }
                throw ServerError.replicaTaken(
                    .replicaTaken(path: "ops[\(taken.place - 1)]", replica: request.replica, seq: taken.seq))
            }
        }
        if request.dropClear {
            try await connection.query("DELETE FROM op WHERE account_id = \(account) AND task <> ''", logger: logger).drain()
        }
        if let snapshot = request.snapshot {
            let past = HoldsPast(account: account, replica: request.replica, seq: request.ownSeq)
            for try await seq in try await connection.execute(past, logger: logger) {
                throw ServerError.replicaTaken(.replicaTaken(path: "own_seq", replica: request.replica, seq: seq))
            }
            for try await _ in try await connection.execute(StoreSnapshot(account: account, snapshot: snapshot), logger: logger) {}
        }
        return page
    }

    /// The page after `after` and the account's facts in one statement (``Page``, or the
    /// push's ``PushPage`` that read them already: `read`), read and put in order. A pull
    /// that starts from the account's snapshot
    /// (``SyncRequest/startsFromSnapshot(seq:trimmed:)``, which the statement's page
    /// follows too) reads the snapshot next; if another replaced it in between, the two
    /// are read again in one repeatable-read transaction, which sees them as of one moment
    /// (the newer snapshot may have dropped operations that followed the older).
    private static func pull(
        account: Int64, request: SyncRequest, read pushed: PageRead?, confirming token: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> SyncAnswer {
        let statement = Page(account: account, after: request.after, replica: request.replica)
        let page: PageRead
        if let pushed {
            page = pushed
        } else if let token {
            // No row at all: the token no longer names the account.
            guard let read = try await read(TokenPage(token: token, page: statement), on: connection, logger: logger) else {
                throw ServerError.badToken
            }
            page = read
        } else {
            page = try await read(statement, on: connection, logger: logger) ?? PageRead()
        }
        // A request older than the account's format reads nothing (the same rule as a write's).
        do throws(SyncLogError) {
            _ = try request.format(accountFormat: page.format)
        } catch {
            throw ServerError(error)
        }
        guard try starts(request, from: page) else {
            // The statement's page starts at the snapshot, which this replica does not
            // take: the log, which holds everything after its `after`.
            if SyncSnapshot.startsPull(after: request.after, snapshot: page.snapshot, trimmed: page.trimmed) {
                let whole = try await read(WholePage(page: statement), on: connection, logger: logger) ?? PageRead()
                return whole.answer(after: request.after)
            }
            return page.answer(after: request.after)
        }
        if let snapshot = try await snapshot(of: account, on: connection, logger: logger), snapshot.seq == page.snapshot {
            return page.answer(after: request.after, from: snapshot)
        }
        try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger).drain()
        do {
            let page = try await read(statement, on: connection, logger: logger) ?? PageRead()
            let snapshot = try await snapshot(of: account, on: connection, logger: logger)
            try await connection.query("COMMIT", logger: logger).drain()
            guard let snapshot, try starts(request, from: page) else {
                return page.answer(after: request.after)
            }
            return page.answer(after: request.after, from: snapshot)
        } catch {
            try? await connection.query("ROLLBACK", logger: logger).drain()
            throw error
        }
    }

    /// Whether the request's pull starts from the account's snapshot, as the page read
    /// says (``SyncRequest/startsFromSnapshot(seq:trimmed:)``); its refusal is the server's.
    private static func starts(_ request: SyncRequest, from page: PageRead) throws(ServerError) -> Bool {
        do {
            return try request.startsFromSnapshot(seq: page.snapshot, trimmed: page.trimmed)
        } catch {
            throw ServerError(error)
        }
    }

    /// The account's snapshot, if it has one.
    private static func snapshot(of account: Int64, on connection: PostgresConnection, logger: Logger) async throws
        -> SyncSnapshot?
    {
        var snapshot: SyncSnapshot?
        for try await held in try await connection.execute(Snapshot(value: account), logger: logger) { snapshot = held }
        return snapshot
    }

    /// The rows of ``Page`` (or ``PushPage``, ``TokenPushPage``, ``TokenPage``): the
    /// account's facts and the operations, in order; `nil` when there was no row (the
    /// account is gone, or the token of a ``TokenPage`` does not name it).
    private static func read(_ statement: some PageStatement, on connection: PostgresConnection, logger: Logger)
        async throws -> PageRead?
    {
        var read = PageRead()
        var rows = 0
        for try await row in try await connection.execute(statement, logger: logger) {
            rows += 1
            read.highest = row.highest
            read.key = row.key
            read.snapshot = row.snapshot
            read.trimmed = row.trimmed
            read.since = row.since
            read.format = row.format
            if let operation = row.operation { read.operations.append(operation) }
        }
        guard rows > 0 else { return nil }
        read.operations.sort { $0.serverSeq < $1.serverSeq }
        return read
    }

    /// What ``read(_:on:logger:)`` found.
    private struct PageRead {
        var highest: Int64 = 0
        var key = ""
        var snapshot: Int64 = 0
        var trimmed: Int64 = 0
        var since: Int64 = 0
        var format = 1
        var operations: [SyncOperation] = []

        /// The answer to a pull after `after`, or from `snapshot` (the page then follows it).
        func answer(after: Int64, from snapshot: SyncSnapshot? = nil) -> SyncAnswer {
            var answer = SyncAnswer(after: snapshot?.seq ?? after, highest: highest, following: operations)
            answer.key = key.isEmpty ? nil : key
            answer.snapshot = snapshot
            // Only a sealed account keeps snapshots.
            answer.sinceSnapshot = key.isEmpty ? nil : since
            return answer
        }
    }
}
