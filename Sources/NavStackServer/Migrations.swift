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
        // A push in one round trip: the account's lock and the insert (OperationLog.Push
        // says what the insert does) in one function, called as a statement of its own,
        // which commits it and so lets the lock go. Each of the function's statements takes
        // its snapshot when it starts, the insert's after the lock is held, as in a
        // transaction of the two. An operation that names a (replica, seq) the account
        // holds with other content raises `NS409`, its place in the request (from 1) and
        // its seq the error's detail, so that nothing of the push is kept. Arguments: the
        // account, the replica, then the operations' columns as arrays (seq, millis,
        // counter, task, field, value, old).
        Migration(
            version: 4, name: "a push in one statement",
            statements: [
                """
                CREATE FUNCTION navstack_push(
                    bigint, text, bigint[], bigint[], integer[], text[], text[], text[], text[]
                ) RETURNS void LANGUAGE plpgsql AS $function$
                DECLARE
                    taken_place bigint;
                    taken_seq bigint;
                BEGIN
                    PERFORM pg_advisory_xact_lock($1);
                    WITH sent AS (
                        SELECT * FROM unnest($3, $4, $5, $6, $7, $8, $9)
                            WITH ORDINALITY AS o(seq, millis, counter, task, field, value, old, place)
                    ), inserted AS (
                        INSERT INTO op (account_id, replica, seq, millis, counter, task, field, value, old)
                        SELECT $1, $2, seq, millis, counter, task, field, value, old FROM sent
                        ON CONFLICT (account_id, replica, seq) DO NOTHING
                        RETURNING seq
                    ), counted AS (
                        UPDATE account SET ops = ops + (SELECT count(*) FROM inserted) WHERE id = $1
                    )
                    SELECT taken.place, taken.seq INTO taken_place, taken_seq FROM (
                        SELECT sent.place, sent.seq
                        FROM sent CROSS JOIN LATERAL (
                            SELECT held.millis, held.counter, held.task, held.field, held.value, held.old
                            FROM op AS held
                            WHERE held.account_id = $1 AND held.replica = $2 AND held.seq = sent.seq
                            OFFSET 0
                        ) AS held
                        WHERE sent.seq NOT IN (SELECT seq FROM inserted)
                            AND (held.millis, held.counter, held.task, held.field, held.value, held.old)
                                IS DISTINCT FROM (sent.millis, sent.counter, sent.task, sent.field, sent.value, sent.old)
                        UNION ALL
                        SELECT sent.place, sent.seq FROM sent
                        WHERE sent.seq <= (SELECT seq FROM dropped_seq WHERE account_id = $1 AND replica = $2)
                    ) AS taken
                    ORDER BY taken.place
                    LIMIT 1;
                    IF FOUND THEN
                        RAISE EXCEPTION 'an operation names a (replica, seq) held with other content'
                            USING ERRCODE = 'NS409', DETAIL = taken_place || ' ' || taken_seq;
                    END IF;
                END
                $function$
                """
            ]),
        // A push and the page after it in one round trip. `navstack_page` is the page
        // after `after` with the account's facts (OperationLog.Page says what it reads), a
        // SQL function that PostgreSQL inlines into the statement that calls it, so it is
        // planned as the query itself. Arguments: the account, `after`, the replica, the
        // most rows to read. `navstack_push_page` is `navstack_push` (the same arguments
        // first), then the page (`after` and the most rows last), read after the insert
        // with the account's lock still held: its statement's own snapshot sees the rows
        // just inserted, and no other writer of the account can commit before them. The
        // page is read under the lock, which adds its read, not a round trip, to the time
        // the lock is held.
        Migration(
            version: 5, name: "a push and its page in one statement",
            statements: [
                """
                CREATE FUNCTION navstack_page(bigint, bigint, text, integer)
                RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE sql STABLE AS $function$
                WITH page AS (
                    SELECT server_seq, replica, seq, millis, counter, task, field, value, old
                    FROM op
                    -- A pull that starts from the snapshot starts after it
                    -- (SyncRequest.startsFromSnapshot, the same rule).
                    WHERE account_id = $1 AND replica <> $3
                        AND server_seq > greatest($2, (
                            SELECT server_seq FROM snapshot
                            WHERE account_id = $1 AND server_seq > $2 AND ($2 = 0 OR $2 < trimmed)))
                        -- An account with a key serves sealed operations only: those kept in
                        -- clear wait to be dropped, sent again sealed by the replica that moved it.
                        AND (task = '' OR (SELECT key FROM account WHERE id = $1) IS NULL)
                    ORDER BY server_seq
                    LIMIT $4
                )
                SELECT greatest((SELECT max(server_seq) FROM op WHERE account_id = $1), snapshot.server_seq, 0),
                    coalesce(account.key, ''), coalesce(snapshot.server_seq, 0), coalesce(snapshot.trimmed, 0),
                    account.ops - coalesce(snapshot.ops, 0),
                    coalesce(page.server_seq, 0), coalesce(page.replica, ''), coalesce(page.seq, 0),
                    coalesce(page.millis, 0), coalesce(page.counter, 0), coalesce(page.task, ''),
                    coalesce(page.field, ''), coalesce(page.value, ''), coalesce(page.old, '')
                FROM account LEFT JOIN snapshot ON snapshot.account_id = account.id LEFT JOIN page ON true
                WHERE account.id = $1
                $function$
                """,
                """
                CREATE FUNCTION navstack_push_page(
                    bigint, text, bigint[], bigint[], integer[], text[], text[], text[], text[], bigint, integer
                ) RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE plpgsql AS $function$
                BEGIN
                    PERFORM navstack_push($1, $2, $3, $4, $5, $6, $7, $8, $9);
                    RETURN QUERY SELECT * FROM navstack_page($1, $10, $2, $11);
                END
                $function$
                """,
            ]),
        // A sync in one round trip when the server holds the token's account already
        // (``TokenCache``): the page, or the push and its page, with the token confirmed in
        // the same statement, first. `navstack_token_page` is `navstack_page` (inlined as
        // well) of no row when the token (`$1`) does not name the account (`$2`);
        // `navstack_token_push_page` raises `NS401` then, before it takes the lock, and is
        // otherwise `navstack_push_page`'s push and page. The other arguments follow in
        // the order of the functions they call. And the servers are told when tokens go
        // (revoked, or their account removed): `navstack_tokens_gone` is notified after
        // every statement that updates, deletes or truncates tokens, and each server
        // forgets the tokens it held (``TokenWatch``).
        Migration(
            version: 6, name: "a sync in one statement, its token confirmed in it; servers told of tokens that go",
            statements: [
                """
                CREATE FUNCTION navstack_token_page(text, bigint, bigint, text, integer)
                RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE sql STABLE AS $function$
                SELECT * FROM navstack_page($2, $3, $4, $5)
                WHERE EXISTS (SELECT 1 FROM token WHERE sha256 = sha256(convert_to($1, 'UTF8')) AND account_id = $2)
                $function$
                """,
                """
                CREATE FUNCTION navstack_token_push_page(
                    text, bigint, text, bigint[], bigint[], integer[], text[], text[], text[], text[], bigint, integer
                ) RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE plpgsql AS $function$
                BEGIN
                    IF NOT EXISTS (SELECT 1 FROM token WHERE sha256 = sha256(convert_to($1, 'UTF8')) AND account_id = $2) THEN
                        RAISE EXCEPTION 'the token does not name the account' USING ERRCODE = 'NS401';
                    END IF;
                    PERFORM navstack_push($2, $3, $4, $5, $6, $7, $8, $9, $10);
                    RETURN QUERY SELECT * FROM navstack_page($2, $11, $3, $12);
                END
                $function$
                """,
                """
                CREATE FUNCTION navstack_tokens_gone() RETURNS trigger LANGUAGE plpgsql AS $function$
                BEGIN
                    PERFORM pg_notify('navstack_tokens_gone', '');
                    RETURN NULL;
                END
                $function$
                """,
                """
                CREATE TRIGGER navstack_tokens_gone AFTER UPDATE OR DELETE OR TRUNCATE ON token
                FOR EACH STATEMENT EXECUTE FUNCTION navstack_tokens_gone()
                """,
            ]),
        // The log's restore epoch (``Migrations/epoch(on:logger:)``): a random text kept
        // with the identity of the database and its `op` table it was made for. The
        // account's format (``SyncFormat``): `navstack_format` refuses a write older than
        // it (SQLSTATE NS426, the account's format the detail) and raises it to a newer
        // write's, under the account's lock; the page's facts carry it, so a pull older than
        // it is refused from the same statement's view (SyncRequest.format, the same rule).
        // The page functions are made again with it, each as before; the pushes take the
        // request's format last. And the page of a replica that could not open the
        // account's snapshot and asks for the log instead (`"snapshots"` absent):
        // `navstack_page` without its start at the snapshot, read only while the log holds
        // everything after the replica's `after` (SyncRequest.startsFromSnapshot).
        Migration(
            version: 7, name: "the log's restore epoch; the account's format; the page without the snapshot",
            statements: [
                "ALTER TABLE account ADD COLUMN format integer NOT NULL DEFAULT 1",
                "DROP FUNCTION navstack_token_push_page(text, bigint, text, bigint[], bigint[], integer[], text[], text[], text[], text[], bigint, integer)",
                "DROP FUNCTION navstack_token_page(text, bigint, bigint, text, integer)",
                "DROP FUNCTION navstack_push_page(bigint, text, bigint[], bigint[], integer[], text[], text[], text[], text[], bigint, integer)",
                "DROP FUNCTION navstack_page(bigint, bigint, text, integer)",
                """
                CREATE FUNCTION navstack_format(bigint, integer) RETURNS void LANGUAGE plpgsql AS $function$
                DECLARE
                    held integer;
                BEGIN
                    SELECT format INTO held FROM account WHERE id = $1;
                    IF held IS NULL THEN
                        RETURN;
                    END IF;
                    IF $2 < held THEN
                        RAISE EXCEPTION 'the account holds operations of a newer format'
                            USING ERRCODE = 'NS426', DETAIL = held::text;
                    END IF;
                    IF $2 > held THEN
                        UPDATE account SET format = $2 WHERE id = $1;
                    END IF;
                END
                $function$
                """,
                """
                CREATE FUNCTION navstack_page(bigint, bigint, text, integer)
                RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint, o_format integer,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE sql STABLE AS $function$
                WITH page AS (
                    SELECT server_seq, replica, seq, millis, counter, task, field, value, old
                    FROM op
                    WHERE account_id = $1 AND replica <> $3
                        AND server_seq > greatest($2, (
                            SELECT server_seq FROM snapshot
                            WHERE account_id = $1 AND server_seq > $2 AND ($2 = 0 OR $2 < trimmed)))
                        AND (task = '' OR (SELECT key FROM account WHERE id = $1) IS NULL)
                    ORDER BY server_seq
                    LIMIT $4
                )
                SELECT greatest((SELECT max(server_seq) FROM op WHERE account_id = $1), snapshot.server_seq, 0),
                    coalesce(account.key, ''), coalesce(snapshot.server_seq, 0), coalesce(snapshot.trimmed, 0),
                    account.ops - coalesce(snapshot.ops, 0), account.format,
                    coalesce(page.server_seq, 0), coalesce(page.replica, ''), coalesce(page.seq, 0),
                    coalesce(page.millis, 0), coalesce(page.counter, 0), coalesce(page.task, ''),
                    coalesce(page.field, ''), coalesce(page.value, ''), coalesce(page.old, '')
                FROM account LEFT JOIN snapshot ON snapshot.account_id = account.id LEFT JOIN page ON true
                WHERE account.id = $1
                $function$
                """,
                """
                CREATE FUNCTION navstack_whole_page(bigint, bigint, text, integer)
                RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint, o_format integer,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE sql STABLE AS $function$
                WITH page AS (
                    SELECT server_seq, replica, seq, millis, counter, task, field, value, old
                    FROM op
                    WHERE account_id = $1 AND replica <> $3 AND server_seq > $2
                        AND (task = '' OR (SELECT key FROM account WHERE id = $1) IS NULL)
                    ORDER BY server_seq
                    LIMIT $4
                )
                SELECT greatest((SELECT max(server_seq) FROM op WHERE account_id = $1), snapshot.server_seq, 0),
                    coalesce(account.key, ''), coalesce(snapshot.server_seq, 0), coalesce(snapshot.trimmed, 0),
                    account.ops - coalesce(snapshot.ops, 0), account.format,
                    coalesce(page.server_seq, 0), coalesce(page.replica, ''), coalesce(page.seq, 0),
                    coalesce(page.millis, 0), coalesce(page.counter, 0), coalesce(page.task, ''),
                    coalesce(page.field, ''), coalesce(page.value, ''), coalesce(page.old, '')
                FROM account LEFT JOIN snapshot ON snapshot.account_id = account.id LEFT JOIN page ON true
                WHERE account.id = $1
                $function$
                """,
                """
                CREATE FUNCTION navstack_push_page(
                    bigint, text, bigint[], bigint[], integer[], text[], text[], text[], text[], bigint, integer, integer
                )
                RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint, o_format integer,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE plpgsql AS $function$
                BEGIN
                    PERFORM pg_advisory_xact_lock($1);
                    PERFORM navstack_format($1, $12);
                    PERFORM navstack_push($1, $2, $3, $4, $5, $6, $7, $8, $9);
                    RETURN QUERY SELECT * FROM navstack_page($1, $10, $2, $11);
                END
                $function$
                """,
                """
                CREATE FUNCTION navstack_token_page(text, bigint, bigint, text, integer)
                RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint, o_format integer,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE sql STABLE AS $function$
                SELECT * FROM navstack_page($2, $3, $4, $5)
                WHERE EXISTS (SELECT 1 FROM token WHERE sha256 = sha256(convert_to($1, 'UTF8')) AND account_id = $2)
                $function$
                """,
                """
                CREATE FUNCTION navstack_token_push_page(
                    text, bigint, text, bigint[], bigint[], integer[], text[], text[], text[], text[], bigint, integer, integer
                )
                RETURNS TABLE (
                    o_highest bigint, o_key text, o_snapshot bigint, o_trimmed bigint, o_since bigint, o_format integer,
                    o_server_seq bigint, o_replica text, o_seq bigint, o_millis bigint, o_counter integer,
                    o_task text, o_field text, o_value text, o_old text
                ) LANGUAGE plpgsql AS $function$
                BEGIN
                    IF NOT EXISTS (SELECT 1 FROM token WHERE sha256 = sha256(convert_to($1, 'UTF8')) AND account_id = $2) THEN
                        RAISE EXCEPTION 'the token does not name the account' USING ERRCODE = 'NS401';
                    END IF;
                    PERFORM pg_advisory_xact_lock($2);
                    PERFORM navstack_format($2, $13);
                    PERFORM navstack_push($2, $3, $4, $5, $6, $7, $8, $9, $10);
                    RETURN QUERY SELECT * FROM navstack_page($2, $11, $3, $12);
                END
                $function$
                """,
                """
                CREATE TABLE log_epoch (
                    id integer PRIMARY KEY CHECK (id = 1),
                    identity text NOT NULL,
                    epoch text NOT NULL
                )
                """,
            ]),
    ]

    /// The log's restore epoch, made again when the database is not the one it was made
    /// for: a restore from a backup (into a new database, or with its tables made again,
    /// as `pg_restore --clean` and a plain dump into an empty database do) gives the
    /// database or its `op` table another oid, and the epoch copied with the backup no
    /// longer matches them. Every answer names it, and a replica that sees it change
    /// pulls from the start and sends again what it holds (docs/server.md, "Backups and
    /// restores"). Read once at start-up: servers are started again after a restore.
    public static func epoch(on connection: PostgresConnection, logger: Logger) async throws -> String {
        try await connection.query(
            """
            INSERT INTO log_epoch (id, identity, epoch)
            SELECT 1, identity, md5(identity || random()::text || clock_timestamp()::text)
            FROM (SELECT (SELECT oid FROM pg_database WHERE datname = current_database())::text || '.'
                || 'op'::regclass::oid::text AS identity) AS here
            ON CONFLICT (id) DO UPDATE SET identity = excluded.identity, epoch = excluded.epoch
            WHERE log_epoch.identity <> excluded.identity
            """, logger: logger
        ).drain()
        var epoch = ""
        for try await text in try await connection.query("SELECT epoch FROM log_epoch WHERE id = 1", logger: logger)
            .decode(String.self)
        {
            epoch = text
        }
        return epoch
    }

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
