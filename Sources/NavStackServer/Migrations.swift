import Logging
import PostgresNIO

/// The database's schema as numbered migrations, applied in order at start-up, each in
/// its own transaction and recorded in `schema_migration`. A migration once released is
/// never edited: a change is a new one at the end.
public enum Migrations {
    public struct Migration: Sendable {
        public var version: Int
        public var name: String
        /// One statement each: the extended protocol runs one at a time.
        public var statements: [String]
    }

    public static let all: [Migration] = [
        Migration(
            version: 1, name: "accounts, tokens and the operation log",
            statements: [
                """
                CREATE TABLE account (
                    id bigserial PRIMARY KEY,
                    name text UNIQUE NOT NULL,
                    created timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE token (
                    sha256 bytea PRIMARY KEY,
                    account_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    created timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE op (
                    account_id bigint NOT NULL REFERENCES account,
                    server_seq bigserial,
                    replica text NOT NULL,
                    seq bigint NOT NULL,
                    millis bigint NOT NULL,
                    counter integer NOT NULL,
                    task text NOT NULL,
                    field text NOT NULL,
                    value text NOT NULL,
                    old text NOT NULL DEFAULT 'null',
                    PRIMARY KEY (account_id, server_seq),
                    UNIQUE (account_id, replica, seq)
                )
                """,
            ]),
        // End-to-end encryption: each account's key record, opaque to the server. A sealed
        // operation keeps its payload (base64) in `value`, with `task`, `field` and `old`
        // empty; an operation in clear always has a task.
        Migration(
            version: 2, name: "the account's key record",
            statements: ["ALTER TABLE account ADD COLUMN key text"]),
        // Snapshots (docs/sync.md): each account's latest, sealed; `ops` counts the
        // operations an account took, so that answers say how many came since it; each
        // replica's highest seq dropped, which a copy of its store must not reuse.
        Migration(
            version: 3, name: "snapshots",
            statements: [
                "ALTER TABLE account ADD COLUMN ops bigint NOT NULL DEFAULT 0",
                "UPDATE account SET ops = (SELECT count(*) FROM op WHERE op.account_id = account.id)",
                """
                CREATE TABLE snapshot (
                    account_id bigint PRIMARY KEY REFERENCES account ON DELETE CASCADE,
                    server_seq bigint NOT NULL,
                    ops bigint NOT NULL,
                    sealed text NOT NULL,
                    trimmed bigint NOT NULL,
                    made timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE dropped_seq (
                    account_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    replica text NOT NULL,
                    seq bigint NOT NULL,
                    PRIMARY KEY (account_id, replica)
                )
                """,
            ]),
    ]

    /// The session advisory lock held while migrating, so that instances starting together
    /// migrate one after the other. Negative: account ids, which the sync's transaction
    /// locks use as keys, are positive.
    static let lockKey: Int64 = -0x6E61_7673_7461_636B  // "navstack"

    /// Applies the migrations the database has not recorded yet, on `connection`, and
    /// returns the schema's version.
    @discardableResult
    public static func apply(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger).drain()
        do {
            let version = try await applyLocked(on: connection, logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger).drain()
            return version
        } catch {
            // Closing the connection (as the caller does on failure) releases the lock too.
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger).drain()
            throw error
        }
    }

    private static func applyLocked(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migration (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger
        ).drain()
        var applied: Set<Int> = []
        for try await version in try await connection.query("SELECT version FROM schema_migration", logger: logger)
            .decode(Int.self)
        {
            applied.insert(version)
        }
        for migration in all where !applied.contains(migration.version) {
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).drain()
                }
                try await connection.query(
                    "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                ).drain()
            }
            logger.info("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
        }
        let version = all.map(\.version).max() ?? 0
        logger.info("database schema is current", metadata: ["version": "\(version)"])
        return version
    }
}

extension PostgresRowSequence {
    /// Reads every row, so a statement's errors surface here and the connection is free.
    func drain() async throws {
        for try await _ in self {}
    }
}
