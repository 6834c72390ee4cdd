import CSQLite
import Foundation
import NavStackCore
import XCTest

@testable import NavStackSQLite

/// A store that cannot be used is refused with a clear error and left byte for byte as
/// it was.
final class BadStoreTests: StoreFolderTestCase {
    override func tearDownWithError() throws {
        // Tests take permissions away; the folder is removed with them given back.
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try super.tearDownWithError()
    }

    /// Opens the store expecting `expected`, and checks the file did not change.
    private func assertRefused(_ expected: StoreError, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SQLiteStore(path: path), file: file, line: line) { error in
            XCTAssertEqual(error as? StoreError, expected, file: file, line: line)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the file changed", file: file, line: line)
    }

    func testAFileThatIsNotADatabase() throws {
        try Data("these are my notes, not a database\n".utf8 + Data(repeating: 0x41, count: 5000))
            .write(to: URL(fileURLWithPath: path))
        try assertRefused(.notADatabase(path: path))
    }

    func testADamagedDatabase() throws {
        do {
            let store = try SQLiteStore(path: path)
            try store.openProfile("ana", sample: true)
            store.close()
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertGreaterThan(bytes.count, 8192)
        for index in 100..<4096 { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = bytes
        XCTAssertThrowsError(try SQLiteStore(path: path)) { error in
            guard let error = error as? StoreError else { return XCTFail("\(error)") }
            switch error {
            case .corrupt(_, let cause?), .notADatabase(_, let cause?):
                XCTAssertTrue([SQLITE_CORRUPT, SQLITE_NOTADB].contains(cause.code), "\(cause)")
                XCTAssertNotNil(cause.sql, "the statement that read the damage is kept")
            default: XCTFail("\(error)")
            }
            XCTAssertTrue(error.description.hasPrefix(self.path))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testAStoreFromANewerNavstack() throws {
        do {
            let store = try SQLiteStore(path: path)
            try store.db.execute("PRAGMA user_version = \(SQLiteStore.migrations.count + 1)")
            store.close()
        }
        try assertRefused(.newerSchema(path: path, version: SQLiteStore.migrations.count + 1))
    }

    /// A store made before the application id was written gets it at its next open,
    /// after its tables are checked; a read-only one opens without it.
    func testAStoreWithoutTheApplicationIDGetsItAtItsNextOpen() throws {
        do {
            let store = try SQLiteStore(path: path)
            XCTAssertEqual(try SQLiteStore.applicationID(store.db), SQLiteStore.storeApplicationID)
            try store.openProfile("ana", sample: true)
            try store.db.execute("PRAGMA application_id = 0")
            store.close()
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
        do {
            let store = try SQLiteStore(path: path, mode: .reading)
            XCTAssertEqual(try SQLiteStore.applicationID(store.db), 0)
            store.close()
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        XCTAssertEqual(try SQLiteStore.applicationID(store.db), SQLiteStore.storeApplicationID)
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM task") { $0.int(0) }, 3)
    }

    /// Tables named as a store's, at this version, under another application's id: the
    /// tables are checked, as for any database that does not say it is a store.
    func testAnotherApplicationsIDIsNotTakenAsAStore() throws {
        let db = try Connection(path: path)
        try db.execute(
            "CREATE TABLE task (x); CREATE TABLE profile (y); CREATE TABLE session (z); "
                + "PRAGMA user_version = \(SQLiteStore.migrations.count); PRAGMA application_id = 7")
        db.close()
        try assertRefused(.notAStore(path: path))
    }

    func testAReadOnlyFile() throws {
        try SQLiteStore(path: path).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
        try assertRefused(.readOnly(path: path))
    }

    func testAReadOnlyFolder() throws {
        try SQLiteStore(path: path).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder.path)
        try assertRefused(.readOnly(path: path))
    }

    func testAFolderInTheWay() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        XCTAssertThrowsError(try SQLiteStore(path: path)) { error in
            XCTAssertEqual(error as? StoreError, .isFolder(path: self.path))
        }
    }

    /// A file where the store's folder should be: the error names it, in words from the
    /// catalogs.
    func testAFileWhereTheFolderShouldBe() throws {
        let file = folder.appendingPathComponent("notes").path
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: file))
        let store = file + "/navstack.sqlite"
        XCTAssertThrowsError(try SQLiteStore(path: store)) { thrown in
            let error = thrown as? StoreError
            XCTAssertEqual(error, .notAFolder(path: store, folder: file))
            XCTAssertEqual(error?.description, "cannot create the store \(store): \(file) is not a folder")
            XCTAssertEqual(
                error?.message(in: Catalog(.pt)),
                "não é possível criar o armazenamento \(store): \(file) não é uma pasta")
        }
    }

    func testANegativeSchemaVersionIsNotAStore() throws {
        do {
            let store = try SQLiteStore(path: path)
            try store.db.execute("PRAGMA user_version = -5")
            store.close()
        }
        try assertRefused(.notAStore(path: path))
    }

    func testAnotherApplicationsDatabaseIsNotAStore() throws {
        let db = try Connection(path: path)
        try db.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
        db.close()
        try assertRefused(.notAStore(path: path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    func testAOneByteFileIsNotADatabase() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        try assertRefused(.notADatabase(path: path))
    }

    /// SQLite's "disk I/O error" and "unable to open" say what errno knew; no text of
    /// SQLite's reaches the user, and SQLite's facts are kept beside the message.
    func testSQLiteFailuresSayWhatHappened() {
        func raw(_ code: Int32, _ system: Int32 = 0) -> SQLiteError {
            SQLiteError(code: code, message: "raw text", sql: "SELECT 1", systemError: system)
        }
        func error(_ code: Int32, _ system: Int32 = 0) -> StoreError {
            SQLiteStore.storeError(raw(code, system), path: "/s")
        }
        XCTAssertEqual(error(SQLITE_IOERR, ENOSPC), .full(path: "/s", cause: raw(SQLITE_IOERR, ENOSPC)))
        XCTAssertEqual(error(SQLITE_CANTOPEN, ENOSPC), .full(path: "/s", cause: raw(SQLITE_CANTOPEN, ENOSPC)))
        XCTAssertEqual(error(SQLITE_FULL), .full(path: "/s", cause: raw(SQLITE_FULL)))
        XCTAssertEqual(error(SQLITE_CANTOPEN, EACCES), .permissionDenied(path: "/s", cause: raw(SQLITE_CANTOPEN, EACCES)))
        XCTAssertEqual(error(SQLITE_IOERR, EIO), .inputOutput(path: "/s", cause: raw(SQLITE_IOERR, EIO)))
        XCTAssertEqual(error(SQLITE_MISMATCH), .sqlite(path: "/s", cause: raw(SQLITE_MISMATCH)))
        XCTAssertFalse(error(SQLITE_MISMATCH).description.contains("raw text"))
        XCTAssertFalse(error(SQLITE_MISMATCH).description.contains("SELECT"))
        XCTAssertEqual(
            StoreError.full(path: "/s").description,
            "/s: the disk is full; free some space and try again (nothing was changed)")
    }

    /// A failed statement keeps its extended result code and its SQL, as GRDB's
    /// `DatabaseError` does; the user's line is the catalog's sentence, with the
    /// primary code and no SQL.
    func testAFailedStatementKeepsItsExtendedCodeAndSQL() throws {
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        try store.openProfile("ana", sample: false)
        let insert = "INSERT INTO profile (name) VALUES (?)"
        XCTAssertThrowsError(try store.db.run(insert, ["ana"])) { thrown in
            guard let cause = thrown as? SQLiteError else { return XCTFail("\(thrown)") }
            XCTAssertEqual(cause.extendedCode, SQLITE_CONSTRAINT | 8 << 8, "SQLITE_CONSTRAINT_UNIQUE")
            XCTAssertEqual(cause.code, SQLITE_CONSTRAINT)
            XCTAssertEqual(cause.sql, insert)
            XCTAssertEqual(cause.message, "UNIQUE constraint failed: profile.name")
            XCTAssertEqual(
                cause.description,
                "SQLite error 2067: UNIQUE constraint failed: profile.name, while executing `\(insert)`")
            let error = SQLiteStore.storeError(cause, path: "/s")
            XCTAssertEqual(error, .sqlite(path: "/s", cause: cause))
            XCTAssertEqual(error.cause, cause)
            XCTAssertEqual(error.description, "/s: the store could not be used (SQLite error 19); nothing was changed")
        }
        XCTAssertThrowsError(try store.db.prepare("SELECT nothing FROM profile")) { thrown in
            XCTAssertEqual((thrown as? SQLiteError)?.code, SQLITE_ERROR)
            XCTAssertEqual((thrown as? SQLiteError)?.sql, "SELECT nothing FROM profile")
        }
        XCTAssertThrowsError(try store.db.execute("CREATE TABLE profile (x); SELECT 1")) { thrown in
            XCTAssertEqual((thrown as? SQLiteError)?.sql, "CREATE TABLE profile (x); SELECT 1")
        }
    }

    /// A store another process holds locked while it is opened: the open gives up after
    /// the busy timeout it was given (none here), and the error keeps SQLite's busy code
    /// and the statement that met the lock.
    func testALockedStoreKeepsTheStatementThatMetTheLock() throws {
        // A database in rollback-journal mode, held with an exclusive lock: reads wait too.
        let holder = try Connection(path: path)
        defer { holder.close() }
        try holder.execute("CREATE TABLE held (x); BEGIN EXCLUSIVE; INSERT INTO held VALUES (1)")
        XCTAssertThrowsError(try SQLiteStore(path: path, busyTimeout: 0)) { thrown in
            guard let error = thrown as? StoreError, case .locked(self.path, let cause?) = error else {
                return XCTFail("\(thrown)")
            }
            XCTAssertEqual(cause.extendedCode, SQLITE_BUSY)
            XCTAssertEqual(cause.sql, "PRAGMA application_id")
            XCTAssertEqual(error.description, "\(self.path) is locked by another process for too long; try again")
        }
        try holder.execute("COMMIT")
    }

    func testMessagesNameThePathAndWhatToDo() {
        XCTAssertEqual(
            StoreError.readOnly(path: "/s").description,
            "/s is read-only; make it and its folder writable (chmod u+w) or choose another store with --store")
        XCTAssertEqual(
            StoreError.newerSchema(path: "/s", version: 2).description,
            "/s was written by a newer navstack (schema version 2); it was left untouched: use that newer navstack")
        XCTAssertEqual(
            StoreError.notADatabase(path: "/s").description,
            "/s is not a navstack store (not an SQLite database); it was left untouched: move it away or choose another with --store")
        XCTAssertEqual(StoreError.locked(path: "/s").description, "/s is locked by another process for too long; try again")
    }
}
