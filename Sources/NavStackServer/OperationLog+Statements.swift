import NavStackSync
import PostgresNIO

/// The statements a sync runs, prepared once on each connection of the pool: PostgreSQL
/// parses and plans them once instead of in every request (with many small syncs, parsing
/// and planning anew took PostgreSQL as long as running them). Each names itself: the
/// default name is the type's, made from its metadata at every execution.
/// scripts/bench-load.py runs the same statements through pgbench, the database's limit
/// for the server: a change here goes there too.
extension OperationLog {
    /// The account of a token and its key record (empty when it has none): one lookup of
    /// the token's SHA-256 by the primary key, and of the account by its own.
    struct TokenAccount: OneValueStatement {
        static let name = "navstack.tokenAccount"
        static let sql = """
            SELECT account.id, coalesce(account.key, '')
            FROM token JOIN account ON account.id = token.account_id
            WHERE token.sha256 = sha256(convert_to($1, 'UTF8'))
            """

        let value: String

        func decodeRow(_ row: PostgresRow) throws -> TokenHolder {
            var cells = Cells(row)
            let (id, key) = (try cells.next(Int64.self), try cells.next(String.self))
            return TokenHolder(id: id, key: key.isEmpty ? nil : key)
        }
    }

    /// The account's advisory lock, held to the end of the transaction: its writers commit
    /// one at a time.
    struct AccountLock: OneValueStatement {
        static let name = "navstack.accountLock"
        static let sql = "SELECT 1 FROM pg_advisory_xact_lock($1)"

        let value: Int64

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// Keeps a replica's snapshot in place of the account's older one, if it covers
    /// more, and drops the operations the older one covered (`trimmed`): those between the
    /// two are kept, so that a replica just behind the new snapshot still pulls operations
    /// (only a new one, or one away since before the older, takes the snapshot). The
    /// snapshot's `ops` are the operations the account took through its seq. A snapshot
    /// past the account's highest `server_seq` is not kept, nor one that covers fewer
    /// than ``SyncSnapshot/leastOperations`` more than the one it would replace (two
    /// replicas that found one due at once: the second would drop, behind the first, the
    /// operations a replica just behind still pulls). Each replica's highest seq dropped
    /// is kept (`dropped_seq`): a seq at or below it is taken.
    struct StoreSnapshot: PostgresPreparedStatement {
        static let name = "navstack.storeSnapshot"
        static let sql = """
            WITH old AS (
                SELECT server_seq FROM snapshot WHERE account_id = $1
            ), stored AS (
                INSERT INTO snapshot AS s (account_id, server_seq, ops, sealed, trimmed)
                SELECT $1, $2, account.ops - (SELECT count(*) FROM op WHERE account_id = $1 AND server_seq > $2), $3, 0
                FROM account
                WHERE account.id = $1
                    AND $2 <= greatest((SELECT max(server_seq) FROM op WHERE account_id = $1), (SELECT server_seq FROM old))
                ON CONFLICT (account_id) DO UPDATE
                    SET server_seq = excluded.server_seq, ops = excluded.ops, sealed = excluded.sealed,
                        trimmed = s.server_seq, made = now()
                    WHERE s.server_seq < excluded.server_seq AND excluded.ops - s.ops >= \(SyncSnapshot.leastOperations)
                RETURNING trimmed
            ), dropped AS (
                DELETE FROM op WHERE account_id = $1 AND server_seq <= (SELECT trimmed FROM stored) RETURNING replica, seq
            )
            INSERT INTO dropped_seq (account_id, replica, seq)
            SELECT $1, replica, max(seq) FROM dropped GROUP BY replica
            ON CONFLICT (account_id, replica) DO UPDATE SET seq = greatest(dropped_seq.seq, excluded.seq)
            """

        let account: Int64
        let snapshot: SyncSnapshot

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(account, snapshot.seq, snapshot.sealed)
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// Whether the account holds, or dropped, an operation of a replica past a seq: `$2`
    /// the replica, `$3` the seq.
    struct HoldsPast: PostgresPreparedStatement {
        static let name = "navstack.holdsPast"
        static let sql = """
            SELECT seq FROM op WHERE account_id = $1 AND replica = $2 AND seq > $3
            UNION ALL SELECT seq FROM dropped_seq WHERE account_id = $1 AND replica = $2 AND seq > $3
            LIMIT 1
            """

        let account: Int64
        let replica: String
        let seq: Int64

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(account, replica, seq)
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 {
            try row.decode(Int64.self)
        }
    }

    /// The account's snapshot: its seq and its sealed content.
    struct Snapshot: OneValueStatement {
        static let name = "navstack.snapshot"
        static let sql = "SELECT server_seq, sealed FROM snapshot WHERE account_id = $1"

        let value: Int64

        func decodeRow(_ row: PostgresRow) throws -> SyncSnapshot {
            let (seq, sealed) = try row.decode((Int64, String).self)
            return SyncSnapshot(seq: seq, sealed: sealed)
        }
    }

    /// The account's key record, empty when it has none.
    struct AccountKey: OneValueStatement {
        static let name = "navstack.accountKey"
        static let sql = "SELECT coalesce(key, '') FROM account WHERE id = $1"

        let value: Int64

        func decodeRow(_ row: PostgresRow) throws -> String {
            try row.decode(String.self)
        }
    }

    /// All the operations in one statement, as arrays unnested, under the account's
    /// advisory lock: `navstack_push` (schema migration 4) takes the lock, then inserts.
    /// Run on its own, the statement is its own transaction: the push is one round trip,
    /// where a transaction of the lock and the insert was four (begin, lock, insert,
    /// commit); in a transaction that holds the lock already, it takes it once more.
    ///
    /// An operation already in the log (the same replica and seq) is left as it is, so a
    /// request sent again adds nothing twice. PostgreSQL numbers the rows of a function
    /// scan as it reads them, in the order sent; no replica depends on it (applying is the
    /// same in any order), so the rows are not sorted by their ordinal to make sure, which
    /// cost a third of the insert.
    ///
    /// The account counts the operations it took (`account.ops`, in the same statement):
    /// the answers say how many came since its snapshot.
    ///
    /// The statement fails with ``replicaTakenState`` when an operation was not inserted
    /// because the log holds its (replica, seq) with other content, or its seq is at or
    /// below the replica's highest dropped (which only a copy of the replica's store sends
    /// again: it cannot be compared, and is taken), so that nothing of the push is kept:
    /// the first such operation's place in the request (from 1) and its seq are the
    /// error's detail (``takenOperation(_:)``). Only the rows not inserted are looked up,
    /// each through the unique index (the lateral subquery's `OFFSET 0` keeps it a lookup
    /// per row: joined, PostgreSQL hashed every row the account holds from the replica, a
    /// cost that grew with the account on every push, 33 ms of 145 at 30,000 rows). The
    /// lookup's snapshot, taken after the lock, does not see the rows the same statement
    /// inserts, so what it finds was there before. The rows inserted are left out with
    /// `NOT IN`, a hashed set whatever the plan: a plan made for any request (the
    /// function's, kept for the connection) guesses 10 rows for the arrays, and a join with
    /// the inserted rows it could make from that guess would compare every row with every
    /// other at 10,000.
    struct Push: PostgresPreparedStatement {
        static let name = "navstack.push"
        static let sql = """
            SELECT navstack_push(
                $1, $2, $3::bigint[], $4::bigint[], $5::integer[], $6::text[], $7::text[], $8::text[], $9::text[])
            """
        /// The SQLSTATE `navstack_push` raises for a (replica, seq) held with other content.
        static let replicaTakenState = "NS409"

        /// The place in the request (from 1) and the seq of the operation that made the
        /// push fail, if `error` is `navstack_push`'s refusal.
        static func takenOperation(_ error: any Error) -> (place: Int64, seq: Int64)? {
            guard sqlState(of: error) == replicaTakenState,
                let words = (error as? PSQLError)?.serverInfo?[.detail]?.split(separator: " "), words.count == 2,
                let place = Int64(words[0]), let seq = Int64(words[1])
            else { return nil }
            return (place, seq)
        }

        let request: SyncRequest
        let account: Int64

        init(_ request: SyncRequest, into account: Int64) {
            self.request = request
            self.account = account
        }

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 9)
            append(to: &bindings)
            return bindings
        }

        /// The push's nine bindings, after those `bindings` holds.
        func append(to bindings: inout PostgresBindings) {
            let operations = request.operations
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
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// ``Push``, then the ``Page`` after `after` read under the account's lock still
    /// held, in one statement: `navstack_push_page` (schema migration 5). The page sees
    /// the rows just inserted and every push of the account committed before; none can
    /// commit between them. A sync that sends operations to an account with its key is
    /// then two round trips when its token is looked up, the lookup's and this one (one
    /// when the server holds the token: ``TokenPushPage``). It fails as ``Push`` does.
    struct PushPage: PageStatement {
        static let name = "navstack.push-page"
        static let sql = """
            SELECT * FROM navstack_push_page(
                $1, $2, $3::bigint[], $4::bigint[], $5::integer[], $6::text[], $7::text[], $8::text[], $9::text[], $10, $11, $12)
            """

        let push: Push

        init(_ request: SyncRequest, into account: Int64) {
            push = Push(request, into: account)
        }

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 12)
            append(to: &bindings)
            return bindings
        }

        /// The push's bindings, then `after`, the most rows and the request's format: twelve.
        func append(to bindings: inout PostgresBindings) {
            push.append(to: &bindings)
            bindings.append(push.request.after)
            bindings.append(Page.rows)
            bindings.append(Int32(clamping: push.request.format))
        }
    }

    /// ``PushPage`` with a token that must name the account, confirmed first in the same
    /// statement (`navstack_token_push_page`, schema migration 6): the whole sync in one
    /// round trip when the server holds the token's account (``TokenCache``). A token that
    /// no longer names it fails the statement with ``badTokenState`` before it takes the
    /// lock; otherwise it fails as ``Push`` does.
    struct TokenPushPage: PageStatement {
        static let name = "navstack.token-push-page"
        static let sql = """
            SELECT * FROM navstack_token_push_page(
                $1, $2, $3, $4::bigint[], $5::bigint[], $6::integer[], $7::text[], $8::text[], $9::text[], $10::text[],
                $11, $12, $13)
            """
        /// The SQLSTATE `navstack_token_push_page` raises for a token that does not name the account.
        static let badTokenState = "NS401"

        let token: String
        let pushPage: PushPage

        init(_ request: SyncRequest, into account: Int64, confirming token: String) {
            self.token = token
            pushPage = PushPage(request, into: account)
        }

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 13)
            bindings.append(token)
            pushPage.append(to: &bindings)
            return bindings
        }
    }

    /// ``Page`` with a token that must name the account: no row at all when it does not
    /// (`navstack_token_page`, schema migration 6; a page of an account has one row at
    /// least, its facts).
    struct TokenPage: PageStatement {
        static let name = "navstack.token-page"
        static let sql = "SELECT * FROM navstack_token_page($1, $2, $3, $4, $5)"

        let token: String
        let page: Page

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(token, page.account, page.after, page.replica, Page.rows)
        }
    }

    /// The account's format rule under its lock (`navstack_format`, schema migration 7):
    /// a write older than the account's format fails with ``olderState``; a newer one
    /// raises it. The pushes of ``PushPage`` and ``TokenPushPage`` run it themselves.
    struct Format: PostgresPreparedStatement {
        static let name = "navstack.format"
        static let sql = "SELECT navstack_format($1, $2)"
        /// The SQLSTATE for a write older than the account's format, which is the detail.
        static let olderState = "NS426"

        /// The account's format, if `error` is `navstack_format`'s refusal.
        static func heldFormat(_ error: any Error) -> Int? {
            guard sqlState(of: error) == olderState else { return nil }
            return (error as? PSQLError)?.serverInfo?[.detail].flatMap { Int($0) }
        }

        let account: Int64
        let format: Int

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(account, Int32(clamping: format))
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// ``Page`` that never starts at the snapshot (`navstack_whole_page`, schema migration
    /// 7): for a replica that asks for the log, having not opened the snapshot.
    struct WholePage: PageStatement {
        static let name = "navstack.whole-page"
        static let sql = "SELECT * FROM navstack_whole_page($1, $2, $3, $4)"

        let page: Page

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(page.account, page.after, page.replica, Page.rows)
        }
    }

    /// A row when the token still names the account: the first statement of a sync's
    /// transaction when the server held the token's account (``TokenCache``).
    struct ConfirmToken: PostgresPreparedStatement {
        static let name = "navstack.confirmToken"
        static let sql = "SELECT 1 FROM token WHERE sha256 = sha256(convert_to($1, 'UTF8')) AND account_id = $2"

        let token: String
        let account: Int64

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(token, account)
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// The page after `after` and the account's facts (its highest `server_seq`, its key,
    /// its snapshot's seq, how far its operations were dropped, how many it took since
    /// the snapshot) in one statement, so all come from one view of the database:
    /// `navstack_page` (schema migration 5), which PostgreSQL inlines. One row more than a
    /// page is read to know whether there are more; the facts come on every row, and on a
    /// row of nulls when the page is empty (coalesced to zeros and empty strings: decoding
    /// optionals costs more). The highest is the snapshot's seq when every operation it
    /// covers was dropped and none came since. The rows are put in order here: sorting
    /// them in the statement, after the join, costs PostgreSQL more than the whole rest
    /// of it.
    struct Page: PageStatement {
        static let name = "navstack.page"
        static let sql = "SELECT * FROM navstack_page($1, $2, $3, $4)"
        /// The most rows a statement reads: a page and one more.
        static let rows = Int32(SyncLimits.pageSize + 1)

        let account: Int64
        /// The request's `after`: the page starts after it, or after the snapshot.
        let after: Int64
        let replica: String

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(account, after, replica, Self.rows)
        }

        /// A row of `navstack_page`, here or from ``PushPage``.
        /// Its cells are decoded one by one: PostgresNIO's decoding of a tuple of fourteen
        /// types looked their metadata up at run time on every row.
        static func row(_ row: PostgresRow) throws -> Row {
            var cells = Cells(row)
            let (highest, key, snapshot) = (try cells.next(Int64.self), try cells.next(String.self), try cells.next(Int64.self))
            let (trimmed, since, format) = (try cells.next(Int64.self), try cells.next(Int64.self), try cells.next(Int32.self))
            let serverSeq = try cells.next(Int64.self)
            let (replica, seq, millis) = (try cells.next(String.self), try cells.next(Int64.self), try cells.next(Int64.self))
            let (counter, task, field) = (try cells.next(Int32.self), try cells.next(String.self), try cells.next(String.self))
            let (value, old) = (try cells.next(String.self), try cells.next(String.self))
            return Row(
                highest: highest, key: key, snapshot: snapshot, trimmed: trimmed, since: since, format: Int(format),
                operation: serverSeq == 0
                    ? nil
                    : task.isEmpty
                        ? .sealed(value, serverSeq: serverSeq, replica: replica, seq: seq, millis: millis, counter: Int64(counter))
                        : .init(
                            serverSeq: serverSeq, replica: replica, seq: seq, millis: millis, counter: Int64(counter), task: task,
                            field: SyncField(rawValue: field) ?? .task, value: value, old: old))
        }

        /// One row: the account's facts, and an operation of the page (none on the row of
        /// an empty page: `server_seq` starts at 1).
        struct Row {
            var highest: Int64
            var key: String
            /// The snapshot's seq and how far operations were dropped; zeros without one.
            var snapshot: Int64
            var trimmed: Int64
            /// Operations the account took since its snapshot.
            var since: Int64
            /// The account's format (``SyncFormat``).
            var format: Int
            var operation: SyncOperation?
        }
    }
}

/// The SQLSTATE of an error PostgreSQL answered a statement with; `nil` for any other
/// error (the connection's, the client's).
func sqlState(of error: any Error) -> String? {
    guard let error = error as? PSQLError, error.code == .server else { return nil }
    return error.serverInfo?[.sqlState]
}

/// A statement whose rows are a page's (``OperationLog/Page/row(_:)``).
protocol PageStatement: PostgresPreparedStatement where Row == OperationLog.Page.Row {}

extension PageStatement {
    func decodeRow(_ row: PostgresRow) throws -> OperationLog.Page.Row {
        try OperationLog.Page.row(row)
    }
}

/// A row's cells in order, each decoded as the type asked for.
struct Cells {
    /// A statement's row has fewer cells than it reads.
    enum CellError: Error {
        case missing(column: Int)
    }

    private var iterator: PostgresRow.Iterator
    private var column = 0

    init(_ row: PostgresRow) {
        iterator = row.makeIterator()
    }

    mutating func next<Value: PostgresDecodable>(_: Value.Type) throws -> Value {
        guard let cell = iterator.next() else { throw CellError.missing(column: column) }
        column += 1
        return try cell.decode(Value.self)
    }
}

/// A prepared statement of one value, `$1`.
protocol OneValueStatement: PostgresPreparedStatement {
    associatedtype Value: PostgresEncodable & Sendable
    var value: Value { get }
}

extension OneValueStatement {
    func makeBindings() throws -> PostgresBindings {
        try statementBindings(value)
    }
}

/// The bindings of a statement's values, `$1` first.
func statementBindings(_ values: any PostgresEncodable...) throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: values.count)
    for value in values { try bindings.append(value) }
    return bindings
}
