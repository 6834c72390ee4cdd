extension SQLiteStore {
    /// The schema, as migrations applied in order in one transaction; `PRAGMA
    /// user_version` counts those applied. A store with a higher count was written by a
    /// newer navstack.
    static let migrations: [(name: String, sql: String)] = [
        // total and done count the profile's tasks; top and bottom are the lowest and
        // highest positions ever given, so a position is never given twice.
        ("v1: profiles, tasks, session, changes", """
            CREATE TABLE profile (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                total INTEGER NOT NULL DEFAULT 0,
                done INTEGER NOT NULL DEFAULT 0,
                top INTEGER NOT NULL DEFAULT 0,
                bottom INTEGER NOT NULL DEFAULT 0,
                state TEXT
            );
            CREATE TABLE task (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                title TEXT NOT NULL,
                notes TEXT NOT NULL DEFAULT '',
                done INTEGER NOT NULL DEFAULT 0
            );
            CREATE UNIQUE INDEX task_in_order ON task(profile_id, position);
            CREATE INDEX task_by_done_in_order ON task(profile_id, done, position);
            CREATE TABLE session (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                user TEXT REFERENCES profile(name) ON DELETE SET NULL,
                pending TEXT
            );
            INSERT INTO session (id) VALUES (1);
            CREATE TABLE change (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                undone INTEGER NOT NULL DEFAULT 0,
                rows TEXT NOT NULL
            );
            CREATE INDEX change_by_profile ON change(profile_id, undone, seq);
            """),
        // changes counts the profile's change rows, so a profile's history is kept to
        // its limit without counting them; a history that grew past it is cut to its
        // newest 1,000. undone_task holds the tasks an undone import took away, until
        // it is redone or forgotten.
        ("v2: a profile's change count, tasks of undone imports", """
            DELETE FROM change WHERE seq IN (
                SELECT seq FROM (SELECT seq, row_number() OVER (PARTITION BY profile_id ORDER BY seq DESC) AS newer FROM change)
                WHERE newer > 1000);
            ALTER TABLE profile ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
            UPDATE profile SET changes = (SELECT count(*) FROM change WHERE change.profile_id = profile.id);
            CREATE TABLE undone_task (
                change_seq INTEGER NOT NULL REFERENCES change(seq) ON DELETE CASCADE,
                id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                title TEXT NOT NULL,
                notes TEXT NOT NULL,
                done INTEGER NOT NULL,
                PRIMARY KEY (change_seq, id)
            ) WITHOUT ROWID;
            """),
    ]

    /// How many migrations the store has. A store made before `user_version` was used
    /// lists its migrations in a `grdb_migrations` table instead.
    static func schemaVersion(_ db: Connection) throws -> Int {
        let version = try userVersion(db)
        guard version == 0,
              try db.first("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'", [], { _ in true }) != nil
        else { return version }
        let names = try db.prepare("SELECT identifier FROM grdb_migrations").all { $0.text(0) }
        let known = migrations.map(\.name)
        // An unknown name is a migration from a newer navstack: past the known ones.
        return names.allSatisfy(known.contains) ? names.count : max(names.count, known.count + 1)
    }

    /// The count of migrations in the store's header.
    static func userVersion(_ db: Connection) throws -> Int {
        try db.first("PRAGMA user_version") { $0.int(0) } ?? 0
    }

    /// Applies the migrations the store lacks and records their count in its header, in
    /// one transaction (another process may have applied them while this one waited for
    /// the lock).
    func migrate() throws {
        try db.run("BEGIN IMMEDIATE")
        do {
            let version = try Self.schemaVersion(db)
            for migration in Self.migrations[min(version, Self.migrations.count)...] { try db.execute(migration.sql) }
            if try Self.userVersion(db) != Self.migrations.count {
                try db.execute("PRAGMA user_version = \(Self.migrations.count)")
            }
            try db.run("COMMIT")
        } catch {
            try? db.run("ROLLBACK")
            throw error
        }
    }
}
