import Logging
import NavStackSync
import PostgresNIO

/// `navstack-server user ACTION`: what is done to the accounts.
public enum UserCommand: Equatable, Sendable {
    /// A new account and its first token.
    case add(String)
    /// Another token for an account.
    case token(String)
    /// Every token of an account stops working.
    case revoke(String)
    /// The account, its tokens and its whole log are removed.
    case remove(String)
    /// The accounts' names and how many tokens each has.
    case list
    /// The operations one replica of the account sent are removed (and any it sends later
    /// kept as usual): what its devices set aside, not opening with the account's key.
    case dropReplica(String, replica: String)

    public enum Action: String, CaseIterable, Sendable {
        case add, token, revoke, remove, list
        case dropReplica = "drop-replica"
    }

    /// The command of `action` on `name` (and `replica`), which every action but `list`
    /// has (its spec asks for them).
    init(_ action: Action, name: String?, replica: String? = nil) {
        guard action != .list else {
            self = .list
            return
        }
        guard let name else { preconditionFailure("user \(action.rawValue) takes a NAME") }
        switch action {
        case .add: self = .add(name)
        case .token: self = .token(name)
        case .revoke: self = .revoke(name)
        case .remove: self = .remove(name)
        case .list: self = .list
        case .dropReplica:
            guard let replica else { preconditionFailure("user drop-replica takes a REPLICA") }
            self = .dropReplica(name, replica: replica)
        }
    }
}

/// The accounts and their tokens in PostgreSQL. A token is 32 random bytes as 64
/// hexadecimal digits, returned once and stored only as its SHA-256; every request looks
/// its token up (``OperationLog/account(token:logger:)``, or in its sync's first statement
/// when the server found it good before: ``TokenCache``), so a token revoked or an account
/// removed is refused at once by every server sharing the database.
public enum Accounts {
    /// Runs `command` and returns what it prints on standard output.
    static func run(_ command: UserCommand, on connection: PostgresConnection, logger: Logger) async throws -> String {
        switch command {
        case .add(let name):
            return try await connection.withTransaction(logger: logger) { connection in
                let id = try await connection.query(
                    "INSERT INTO account (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING RETURNING id", logger: logger
                ).value(Int64.self)
                guard let id else { throw ServerError.run(.accountExists(name)) }
                return try await newToken(for: id, on: connection, logger: logger)
            }
        case .token(let name):
            return try await connection.withTransaction(logger: logger) { connection in
                try await newToken(for: try account(name, on: connection, logger: logger), on: connection, logger: logger)
            }
        case .revoke(let name):
            let revoked = try await connection.withTransaction(logger: logger) { connection in
                try await delete(.token, of: try await account(name, on: connection, logger: logger), on: connection, logger: logger)
            }
            return "revoked \(count(revoked, "token")) of '\(name)'"
        case .remove(let name):
            let (tokens, operations) = try await connection.withTransaction(logger: logger) { connection in
                // The locks in the order a push takes them: the account's advisory lock,
                // then its row (a push's write reads the row through its foreign key). A
                // push under way commits before the log is removed; the other order, the
                // row first, waited on a push that waited on the row (a deadlock).
                guard
                    let found = try await connection.query("SELECT id FROM account WHERE name = \(name)", logger: logger)
                        .value(Int64.self)
                else { throw ServerError.run(.noSuchAccount(name)) }
                for try await _ in try await connection.execute(OperationLog.AccountLock(value: found), logger: logger) {}
                // Removed (and perhaps made again) while this waited: not the account found.
                let id = try await account(name, on: connection, logger: logger)
                guard id == found else { throw ServerError.run(.noSuchAccount(name)) }
                let operations = try await delete(.op, of: id, on: connection, logger: logger)
                let tokens = try await delete(.token, of: id, on: connection, logger: logger)
                try await connection.query("DELETE FROM account WHERE id = \(id)", logger: logger).drain()
                return (tokens, operations)
            }
            return "removed '\(name)' with \(count(tokens, "token")) and \(count(operations, "operation"))"
        case .dropReplica(let name, let replica):
            let dropped = try await connection.withTransaction(logger: logger) { connection in
                // Under the account's lock, as a push takes it (``remove`` says why the order).
                guard
                    let found = try await connection.query("SELECT id FROM account WHERE name = \(name)", logger: logger)
                        .value(Int64.self)
                else { throw ServerError.run(.noSuchAccount(name)) }
                for try await _ in try await connection.execute(OperationLog.AccountLock(value: found), logger: logger) {}
                return try await connection.query(
                    """
                    WITH gone AS (DELETE FROM op WHERE account_id = \(found) AND replica = \(replica) RETURNING 1)
                    SELECT count(*) FROM gone
                    """, logger: logger
                ).value(Int64.self) ?? 0
            }
            return "dropped \(count(dropped, "operation")) of replica \(replica) from '\(name)'"
        case .list:
            let rows = try await connection.query(
                """
                SELECT account.name, count(token.sha256) FROM account LEFT JOIN token ON token.account_id = account.id
                GROUP BY account.name ORDER BY account.name COLLATE "C"
                """, logger: logger)
            var lines: [String] = []
            for try await (name, tokens) in rows.decode((String, Int64).self) { lines.append("\(name)\t\(tokens)") }
            return lines.joined(separator: "\n")
        }
    }

    /// The id of the account `name`, locked for the rest of the transaction.
    private static func account(_ name: String, on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let id = try await connection.query("SELECT id FROM account WHERE name = \(name) FOR UPDATE", logger: logger)
            .value(Int64.self)
        guard let id else { throw ServerError.run(.noSuchAccount(name)) }
        return id
    }

    /// The tables that hold an account's rows by `account_id`.
    private enum AccountRows: String {
        case token, op
    }

    /// Deletes the account `id`'s rows of `table` and returns how many there were.
    private static func delete(_ table: AccountRows, of id: Int64, on connection: PostgresConnection, logger: Logger)
        async throws -> Int64
    {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(id)
        let statement = PostgresQuery(
            unsafeSQL: "WITH gone AS (DELETE FROM \(table.rawValue) WHERE account_id = $1 RETURNING 1) SELECT count(*) FROM gone",
            binds: bindings)
        return try await connection.query(statement, logger: logger).value(Int64.self) ?? 0
    }

    /// A new token for the account `id`, stored as its SHA-256.
    private static func newToken(for id: Int64, on connection: PostgresConnection, logger: Logger) async throws -> String {
        let token = BearerToken.random()
        try await connection.query(
            "INSERT INTO token (sha256, account_id) VALUES (sha256(convert_to(\(token), 'UTF8')), \(id))", logger: logger
        ).drain()
        return token
    }

    private static func count(_ number: Int64, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

extension PostgresRowSequence {
    /// The first column of the one row a statement returns, as `type`; `nil` when it returns none.
    func value<Value: PostgresDecodable>(_ type: Value.Type) async throws -> Value? {
        var value: Value?
        for try await column in decode(Value.self) { value = column }
        return value
    }
}
