import CSQLite
import NavStackCore
import XCTest

@testable import NavStackSQLite

/// A session's burst of commands holds the write lock until it commits; the steps of a
/// sync run outside it, each committed as it ends, so no other process waits on them.
final class StepCommitTests: StoreFolderTestCase {
    /// Whether another connection can take the write lock at once (no busy wait).
    private func anotherWriterCanLock() throws -> Bool {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw XCTSkip("cannot open \(path)")
        }
        defer { sqlite3_close(handle) }
        sqlite3_busy_timeout(handle, 0)
        let code = sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
        if code == SQLITE_OK { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
        return code == SQLITE_OK
    }

    func testSyncStepsInASessionLeaveTheStoreUnlocked() throws {
        let session = try SQLiteStore(path: path)
        defer { session.close() }
        session.defersCommits = true
        try session.transaction { try session.openProfile("ana", sample: true) }
        XCTAssertFalse(try anotherWriterCanLock(), "the burst holds the write lock until it commits")
        let batch = try session.committingEachStep {
            XCTAssertTrue(try anotherWriterCanLock(), "what the burst left pending is committed first")
            _ = try session.configureSync("ana", server: "http://127.0.0.1:1", token: "t")
            let batch = try session.syncRequest("ana")
            XCTAssertTrue(try anotherWriterCanLock(), "each step is committed as it ends")
            return batch
        }
        XCTAssertEqual(batch.count, 3, "the sample's three tasks")
        XCTAssertTrue(try anotherWriterCanLock(), "nothing is left open after the steps")
        XCTAssertTrue(session.defersCommits, "the session defers its commands' commits again")
        // The next command opens a burst again.
        try session.transaction { _ = try session.insertAtTop("ana", DraftFields(title: "Next"), as: .add) }
        XCTAssertFalse(try anotherWriterCanLock())
        try session.commitPending()
        XCTAssertTrue(try anotherWriterCanLock())
    }
}
