import Foundation
import NavStackCore
import XCTest

@testable import NavStackSQLite

/// The schema's migrations: each brings a store of the version before it up to date
/// with its data, with foreign keys off so that rebuilding a table deletes nothing.
final class MigrationTests: StoreFolderTestCase {
    /// A connection as the store makes one: with navstack's SQL functions, which the
    /// triggers of `task_word` call.
    private func connected(_ path: String) throws -> Connection {
        let db = try Connection(path: path)
        try SQLiteStore.addFunctions(to: db)
        return db
    }

    /// The current migrations and one that rebuilds the profile table (with a new
    /// column), as SQLite's documentation says a table is changed.
    private let rebuildingProfile =
        SQLiteStore.migrations + [
            (
                "test: profile rebuilt with a colour",
                """
                CREATE TABLE new_profile (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    total INTEGER NOT NULL DEFAULT 0,
                    done INTEGER NOT NULL DEFAULT 0,
                    top INTEGER NOT NULL DEFAULT 0,
                    bottom INTEGER NOT NULL DEFAULT 0,
                    state TEXT,
                    colour TEXT NOT NULL DEFAULT 'blue'
                );
                INSERT INTO new_profile (id, name, total, done, top, bottom, state)
                    SELECT id, name, total, done, top, bottom, state FROM profile;
                DROP TABLE profile;
                ALTER TABLE new_profile RENAME TO profile;
                """
            )
        ]

    /// A store with ana's three sample tasks, closed.
    private func makeStoreWithTasks() throws {
        let store = try SQLiteStore(path: path)
        try store.openProfile("ana", sample: true)
        store.close()
    }

    private func count(_ sql: String, in db: Connection) throws -> Int {
        try db.first(sql) { $0.int(0) } ?? -1
    }

    func testAStoreAtEachEarlierVersionMigratesKeepingItsData() throws {
        for version in 0..<SQLiteStore.migrations.count {
            try? FileManager.default.removeItem(atPath: path)
            let db = try connected(path)
            try SQLiteStore.migrate(db, path: path, with: Array(SQLiteStore.migrations[..<version]))
            XCTAssertEqual(try SQLiteStore.userVersion(db), version)
            if version >= 1 {
                try db.run("INSERT INTO profile (name, total) VALUES ('ana', 1)")
                try db.run("INSERT INTO task (profile_id, position, title) VALUES (1, 0, 'Kept')")
            }
            db.close()
            let store = try SQLiteStore(path: path)
            XCTAssertEqual(try SQLiteStore.userVersion(store.db), SQLiteStore.migrations.count, "from version \(version)")
            if version >= 1 {
                XCTAssertEqual(try count("SELECT count(*) FROM task WHERE title = 'Kept'", in: store.db), 1)
            }
            store.close()
        }
    }

    /// The tables a store is recognised by are those the migrations make.
    func testTheKnownTablesAreWhatTheMigrationsMake() throws {
        XCTAssertEqual(SQLiteStore.storeColumns.count, SQLiteStore.migrations.count)
        for version in 1...SQLiteStore.migrations.count {
            let db = try connected(":memory:")
            try SQLiteStore.migrate(db, path: ":memory:", with: Array(SQLiteStore.migrations[..<version]))
            XCTAssertEqual(try SQLiteStore.columns(db), SQLiteStore.storeColumns[version - 1], "version \(version)")
            db.close()
        }
    }

    func testRebuildingTheProfileTableDeletesNoTask() throws {
        try makeStoreWithTasks()
        let db = try connected(path)
        // As a session's connection is: foreign keys on.
        try db.execute("PRAGMA foreign_keys = ON")
        try SQLiteStore.migrate(db, path: path, with: rebuildingProfile)
        XCTAssertEqual(try SQLiteStore.userVersion(db), SQLiteStore.migrations.count + 1)
        XCTAssertEqual(try count("SELECT count(*) FROM task", in: db), 3, "the rebuild deleted the tasks")
        XCTAssertEqual(try count("SELECT count(*) FROM profile WHERE colour = 'blue'", in: db), 1)
        XCTAssertEqual(try count("PRAGMA foreign_keys", in: db), 1, "foreign keys are on again")
        db.close()
    }

    func testAMigrationThatBreaksForeignKeysIsUndone() throws {
        try makeStoreWithTasks()
        let db = try connected(path)
        let orphaning = SQLiteStore.migrations + [("test: profiles dropped", "DELETE FROM profile")]
        XCTAssertThrowsError(try SQLiteStore.migrate(db, path: path, with: orphaning)) { error in
            XCTAssertEqual(error as? StoreError, .migrationBroken(path: self.path, migration: "test: profiles dropped"))
        }
        XCTAssertEqual(try SQLiteStore.userVersion(db), SQLiteStore.migrations.count)
        XCTAssertEqual(try count("SELECT count(*) FROM profile", in: db), 1)
        XCTAssertEqual(try count("SELECT count(*) FROM task", in: db), 3)
        db.close()
    }

    /// Each table's and index's definition (whitespace aside: a column added by ALTER
    /// TABLE is kept as `…\n, name …`), the header's version and the rows a schema
    /// starts with.
    private func schema(of db: Connection) throws -> [String] {
        let definitions = try db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all { row in
            let sql = row.text(3)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .replacingOccurrences(of: " ,", with: ",").replacingOccurrences(of: "( ", with: "(")
                .replacingOccurrences(of: " )", with: ")")
            return "\(row.text(0)) \(row.text(1)) on \(row.text(2)): \(sql)"
        }
        let rows =
            try db.prepare("SELECT id, user, pending FROM session").all { "session \($0.int(0)) \($0.text(1)) \($0.text(2))" }
            + db.prepare("SELECT name, seq FROM sqlite_sequence").all { "sequence \($0.text(0)) \($0.int(1))" }
        return definitions + rows + ["user_version \(try SQLiteStore.userVersion(db))"]
    }

    /// The schema every migration in turn makes of an empty database.
    private func replayedSchema() throws -> [String] {
        let db = try connected(":memory:")
        defer { db.close() }
        try SQLiteStore.migrate(db, path: ":memory:", newStore: nil)
        return try schema(of: db)
    }

    func testANewStoreSchemaIsWhatTheMigrationsMake() throws {
        let (version, sql) = SQLiteStore.newStoreSchema
        let db = try connected(":memory:")
        defer { db.close() }
        try db.execute(sql)
        try db.execute("PRAGMA user_version = \(version)")
        // The migrations after it, as a new store runs them.
        try SQLiteStore.migrate(db, path: ":memory:", newStore: nil)
        let replayed = try replayedSchema()
        XCTAssertEqual(try schema(of: db), replayed)
        XCTAssertTrue(replayed.contains { $0.hasPrefix("table sync_register on sync_register:") })
        XCTAssertEqual(replayed.last, "user_version \(SQLiteStore.migrations.count)")
    }

    /// A new store, in memory or in a file, is made from the one script; a store made
    /// so opens again as it is.
    func testANewStoreStartsFromTheNewStoreSchema() throws {
        let fresh = try connected(":memory:")
        defer { fresh.close() }
        try fresh.execute(SQLiteStore.newStoreSchema.sql)
        let script = try fresh.prepare("SELECT name, sql FROM sqlite_master ORDER BY name").all { "\($0.text(0)): \($0.text(1))" }
        let replayed = try replayedSchema()
        for store in [try SQLiteStore(path: nil), try SQLiteStore(path: path)] {
            let made = try store.db.prepare("SELECT name, sql FROM sqlite_master ORDER BY name").all { "\($0.text(0)): \($0.text(1))" }
            XCTAssertEqual(made, script, store.path)
            XCTAssertEqual(try schema(of: store.db), replayed, store.path)
            store.close()
        }
        let reopened = try SQLiteStore(path: path)
        XCTAssertEqual(try schema(of: reopened.db), replayed)
        reopened.close()
    }
}

/// A store written by the navstack before uuids (schema version 2), migrated.
final class StoreFromTheLastReleaseTests: StoreFolderTestCase {
    /// A copy of the fixture, opened (and so migrated).
    private func openFixture() throws -> SQLiteStore {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/store-v2.sqlite").standardizedFileURL
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        return try SQLiteStore(path: path)
    }

    /// The import undone before the migration is redone after it: its tasks come back
    /// from where they waited, and undo takes them away again.
    func testAnImportUndoneBeforeTheMigrationIsRedoneAfterIt() throws {
        let store = try openFixture()
        defer { store.close() }
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone") { $0.int(0) }, 1)
        XCTAssertEqual(try store.redo("ana")?.kind, .import)
        XCTAssertNil(try store.redo("ana"))
        let titles = try store.page("ana", ListQuery(), offset: 0, limit: 100).map(\.title)
        XCTAssertEqual(titles.count, 8, "\(titles)")
        XCTAssertEqual(titles.suffix(4).filter { $0.hasPrefix("Imported") }.count, 4, "\(titles)")
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone_task") { $0.int(0) }, 0)
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertEqual(try store.count("ana", ListQuery()), 6)
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone_task") { $0.int(0) }, 2)
    }

    func testAVersion2StoreGetsUUIDsAndKeepsItsTasksHistoryAndDraft() throws {
        let store = try openFixture()
        defer { store.close() }
        XCTAssertEqual(try SQLiteStore.userVersion(store.db), SQLiteStore.migrations.count)
        let tasks = try store.page("ana", ListQuery(), offset: 0, limit: 100)
        XCTAssertEqual(tasks.map(\.title), ["Added", "Buy fruit", "Study SwiftUI", "Go for a walk", "Imported A", "Imported B"])
        XCTAssertEqual(tasks.map(\.done), [false, true, false, true, false, true])
        XCTAssertTrue(tasks.allSatisfy { $0.uuid.isUUID && $0.uuid == $0.uuid.lowercased() })
        XCTAssertEqual(try store.db.prepare("SELECT DISTINCT rev FROM task").all { $0.int(0) }, [1])
        XCTAssertEqual(Set(tasks.map(\.uuid)).count, tasks.count, "every task its own uuid")
        let waiting = try store.db.prepare("SELECT uuid FROM undone_task").all { $0.text(0) }
        XCTAssertEqual(waiting.count, 2)
        XCTAssertTrue(waiting.allSatisfy(\.isUUID))

        // The saved draft resumes, and saves only what it changed.
        guard case .signedIn(let session) = try store.loadPhase() else { return XCTFail("not signed in") }
        XCTAssertEqual(session.drafts[.edit(2)]?.fields.title, "Half typed")
        XCTAssertNotNil(try store.write("ana", id: 2, [.title], from: DraftFields(title: "Half typed"), as: .save))

        // The history made before the migration is undone and redone as before.
        XCTAssertEqual(try store.undo("ana")?.kind, .save)
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertEqual(try store.count("ana", ListQuery()), 4)
        XCTAssertEqual(try store.undo("ana")?.kind, .add)
        XCTAssertEqual(try store.undo("ana")?.kind, .toggle)
        XCTAssertEqual(try store.task("ana", id: 1)?.done, false)
        XCTAssertEqual(try store.redo("ana")?.kind, .toggle)
        XCTAssertEqual(try store.task("ana", id: 1)?.done, true)
        XCTAssertEqual(
            try store.db.first("SELECT count(*) FROM op WHERE kind IN ('undo', 'redo')") { $0.int(0) }, 5,
            "undo and redo are logged too: four undone changes, one redone")
    }
}
