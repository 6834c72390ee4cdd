extension SQLiteStore {
    /// A random (version 4) uuid as lowercase text, in SQL: for the tasks a migration
    /// gives uuids.
    static let randomUUID = """
        lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))
        """

    /// The tables every navstack store has had.
    static let storeTables: Set<String> = ["profile", "task", "session"]

    /// What the database holds, read without writing anything: `nil` for an empty
    /// database (no schema, version 0), else the count of navstack's migrations it has.
    /// Anything else is refused: another application's database, a negative version, a
    /// version from a newer navstack.
    static func storedVersion(_ db: Connection, path: String) throws -> Int? {
        // A store at this version that says it is navstack's is known from its header alone.
        if try applicationID(db) == storeApplicationID, try userVersion(db) == migrations.count { return migrations.count }
        // One read transaction: another process may be migrating the store meanwhile.
        try db.run("BEGIN")
        defer { try? db.run("COMMIT") }
        let objects = try db.prepare("SELECT type, name FROM sqlite_master").all { ($0.text(0), $0.text(1)) }
        let version = try userVersion(db)
        if objects.isEmpty && version == 0 { return nil }
        let tables = Set(objects.filter { $0.0 == "table" }.map(\.1))
        guard version >= 0, storeTables.isSubset(of: tables) else { throw StoreError.notAStore(path: path) }
        let count = try schemaVersion(db)
        guard count >= 1 else { throw StoreError.notAStore(path: path) }
        guard count <= migrations.count else { throw StoreError.newerSchema(path: path, version: count) }
        // Tables named as navstack's but made otherwise are another application's.
        guard try columns(db) == storeColumns[count - 1] else { throw StoreError.notAStore(path: path) }
        return count
    }

    /// The columns of each table after each migration (a test checks them against the
    /// migrations themselves).
    static let storeColumns: [[String: [String]]] = {
        let columns: [[String: [String]]] = [
            [
                "profile": ["id", "name", "total", "done", "top", "bottom", "state"],
                "task": ["id", "profile_id", "position", "title", "notes", "done"],
                "session": ["id", "user", "pending"],
                "change": ["seq", "profile_id", "kind", "undone", "rows"],
            ],
            [
                "profile": ["id", "name", "total", "done", "top", "bottom", "state", "changes"],
                "task": ["id", "profile_id", "position", "title", "notes", "done"],
                "session": ["id", "user", "pending"],
                "change": ["seq", "profile_id", "kind", "undone", "rows"],
                "undone_task": ["change_seq", "id", "position", "title", "notes", "done"],
            ],
            [
                "profile": ["id", "name", "total", "done", "top", "bottom", "state", "changes"],
                "task": ["id", "profile_id", "position", "title", "notes", "done", "uuid", "rev"],
                "session": ["id", "user", "pending"],
                "change": ["seq", "profile_id", "kind", "undone", "rows", "writer", "undone_by"],
                "undone_task": ["change_seq", "id", "position", "title", "notes", "done", "uuid", "rev"],
                "op": ["seq", "profile_id", "kind", "task_uuid", "field", "old", "new"],
            ],
            [
                "profile": ["id", "name", "total", "done", "top", "bottom", "state", "changes", "roots", "roots_done"],
                "task": ["id", "profile_id", "position", "title", "notes", "done", "uuid", "rev", "parent", "subtasks", "subtasks_done"],
                "session": ["id", "user", "pending"],
                "change": ["seq", "profile_id", "kind", "undone", "rows", "writer", "undone_by"],
                "undone_task": ["change_seq", "id", "position", "title", "notes", "done", "uuid", "rev", "parent"],
                "op": ["seq", "profile_id", "kind", "task_uuid", "field", "old", "new"],
            ],
            [
                "profile": ["id", "name", "total", "done", "top", "bottom", "state", "changes", "roots", "roots_done"],
                "task": ["id", "profile_id", "position", "title", "notes", "done", "uuid", "rev", "parent", "subtasks", "subtasks_done"],
                "session": ["id", "user", "pending"],
                "change": ["seq", "profile_id", "kind", "undone", "rows", "writer", "undone_by"],
                "undone_task": ["change_seq", "id", "position", "title", "notes", "done", "uuid", "rev", "parent"],
                "op": ["seq", "profile_id", "kind", "task_uuid", "field", "old", "new", "millis"],
                "sync": [
                    "profile_id", "replica", "server", "token", "stamped", "outbox", "sent", "pulled", "millis", "counter", "notices",
                ],
                "sync_displaced": ["profile_id", "uuid"],
                "sync_outbox": ["profile_id", "seq", "millis", "counter", "task", "field", "value", "old"],
                "sync_register": [
                    "profile_id", "uuid", "alive", "alive_at", "title", "title_at", "notes", "notes_at", "done", "done_at",
                    "parent", "parent_old", "parent_at", "position", "position_at",
                ],
            ],
        ]
        // v6 and v7 changed indexes only: their columns are v5's.
        var v8 = columns[4]
        v8["sync"]?.removeLast()
        v8["sync_notice"] = ["id", "profile_id", "title", "fields"]
        var v9 = v8
        v9["sync"]? += ["seal_state", "seal_key", "seal_record"]
        var v10 = v9
        v10["change"] = nil
        v10["profile"]?.removeAll { $0 == "changes" }
        v10["op"]? += ["part", "writer"]
        v10["undone"] = ["seq", "profile_id", "turn", "by"]
        var v11 = v10
        v11["sync"]? += ["epoch"]
        v11["sync_aside"] = ["profile_id", "replica", "seq", "server_seq", "millis", "counter", "sealed"]
        var v12 = v11
        let attributes = [
            "due", "scheduled", "wait", "until", "priority", "project", "recur", "tags", "annotations", "depends", "fields", "created",
            "modified", "completed",
        ]
        v12["task"]? += attributes
        v12["undone_task"]? += attributes
        v12["sync_register"]? += ["more"]
        // v13 made an index only.
        var v14 = v12
        v14["task_word"] = ["profile", "word", "under", "place", "tie", "task_id"]
        v14["word_count"] = ["profile", "word", "tasks"]
        // v15 changed indexes only.
        var v16 = v14
        v16["sync"]? += ["format"]
        return columns + [columns[4], columns[4], v8, v9, v10, v11, v12, v12, v14, v14, v16]
    }()

    /// The columns of each table, but SQLite's own and `grdb_migrations`.
    static func columns(_ db: Connection) throws -> [String: [String]] {
        var columns: [String: [String]] = [:]
        try db.prepare(
            """
            SELECT m.name, c.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND m.name != 'grdb_migrations'
            ORDER BY m.name, c.cid
            """
        ).each { columns[$0.text(0), default: []].append($0.text(1)) }
        return columns
    }

    /// How many migrations the store has. A store made before `user_version` was used
    /// lists its migrations in a `grdb_migrations` table instead.
    static func schemaVersion(_ db: Connection, migrations: [Migration] = migrations) throws -> Int {
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

    /// What the store's header says made it (SQLite's application id, which `file(1)`
    /// reads): ``storeApplicationID`` once its schema has been checked or made by navstack.
    static func applicationID(_ db: Connection) throws -> Int {
        try db.first("PRAGMA application_id") { $0.int(0) } ?? 0
    }

    /// navstack's application id, "NVST" in ASCII. It is written with the last migration
    /// (and by an open that finds the store at this version without it), so the tables'
    /// check runs once a store, not at every open.
    static let storeApplicationID = 0x4E56_5354

    /// Applies the migrations the store lacks, as GRDB's migrator does: with foreign
    /// keys off (a table rebuilt would otherwise cascade its deletion to the rows that
    /// refer to it), each in a transaction of its own that records its number in the
    /// header and commits only when `PRAGMA foreign_key_check` finds nothing broken.
    /// The count is read again under the lock: another process may have migrated the
    /// store while this one waited. An empty database starts from `newStore` in one
    /// step, when the migrations reach its version.
    static func migrate(
        _ db: Connection, path: String, with migrations: [Migration] = migrations,
        newStore: (version: Int, sql: String)? = newStoreSchema
    ) throws {
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { try? db.execute("PRAGMA foreign_keys = ON") }
        while true {
            try db.run("BEGIN IMMEDIATE")
            do {
                let version = try schemaVersion(db, migrations: migrations)
                guard version >= 0 else { throw StoreError.notAStore(path: path) }
                guard version <= migrations.count else { throw StoreError.newerSchema(path: path, version: version) }
                guard version < migrations.count else {
                    if try userVersion(db) != version { try db.execute("PRAGMA user_version = \(version)") }
                    if try applicationID(db) != storeApplicationID {
                        try db.execute("PRAGMA application_id = \(storeApplicationID)")
                    }
                    try db.run("COMMIT")
                    return
                }
                if version == 0, let newStore, newStore.version <= migrations.count,
                    try db.first("SELECT 1 FROM sqlite_master", [], { _ in true }) == nil
                {
                    try db.execute(newStore.sql)
                    try db.execute("PRAGMA user_version = \(newStore.version)")
                    if newStore.version == migrations.count { try db.execute("PRAGMA application_id = \(storeApplicationID)") }
                } else {
                    let migration = migrations[version]
                    try db.execute(migration.sql)
                    if try db.prepare("PRAGMA foreign_key_check").first([], { _ in true }) != nil {
                        throw StoreError.migrationBroken(path: path, migration: migration.name)
                    }
                    try db.execute("PRAGMA user_version = \(version + 1)")
                    if version + 1 == migrations.count { try db.execute("PRAGMA application_id = \(storeApplicationID)") }
                }
                try db.run("COMMIT")
            } catch {
                try? db.run("ROLLBACK")
                throw error
            }
        }
    }
}
