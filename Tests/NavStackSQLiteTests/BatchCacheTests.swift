import Foundation
import NavStackCore
import XCTest

@testable import NavStackSQLite

/// A store file caches what it reads in its transactions, each of which checks first that
/// no other connection committed since (`PRAGMA data_version`): another process's change
/// made between bursts is read, what nobody changed is not read again, and a command that
/// failed leaves nothing it mended behind.
final class BatchCacheTests: StoreFolderTestCase {

    private func titles(_ store: SQLiteStore) throws -> [String] {
        try store.snapshot { try store.page("ana", ListQuery(), offset: 0, limit: 20) }.map(\.title)
    }

    /// A screen read again with nothing changed since is answered from the cache; a
    /// commit by another connection is seen at the next transaction.
    func testAReadIsAnsweredAgainUntilAnotherConnectionCommits() throws {
        let session = try SQLiteStore(path: path)
        defer { session.close() }
        try session.openProfile("ana", sample: true)
        let sample = ["Buy fruit", "Study SwiftUI", "Go for a walk"]
        XCTAssertEqual(try titles(session), sample)
        XCTAssertFalse(session.isCaching, "outside a transaction")
        // Its own connection writing behind the store's back (which no command does)
        // leaves SQLite's data_version as it was: the page comes from the cache.
        try session.db.execute("UPDATE task SET title = 'Renamed behind' WHERE id = 1")
        XCTAssertEqual(try titles(session), sample, "read again, not from the cache")
        // Another connection's commit moves data_version: the next transaction reads.
        let other = try SQLiteStore(path: path)
        _ = try other.insertAtTop("ana", DraftFields(title: "From elsewhere"), as: .add)
        other.close()
        XCTAssertEqual(try titles(session), ["From elsewhere", "Renamed behind", "Study SwiftUI", "Go for a walk"])
        // Its own change is told to the cache.
        _ = try session.insertAtTop("ana", DraftFields(title: "Mine"), as: .add)
        XCTAssertEqual(try titles(session).first, "Mine")
        // With the cache off, every read asks SQLite.
        session.cachesReads = false
        try session.db.execute("UPDATE task SET title = 'Behind again' WHERE id = 1")
        XCTAssertEqual(try titles(session)[2], "Behind again")
    }

    private func firstPage(_ store: SQLiteStore) throws -> [TaskItem] {
        var tasks: [TaskItem] = []
        try store.transaction { tasks = try store.page("ana", ListQuery(), offset: 0, limit: 20) }
        return tasks
    }

    func testAChangeByAnotherProcessBetweenBurstsIsRead() throws {
        let session = try SQLiteStore(path: path)
        defer { session.close() }
        session.defersCommits = true
        try session.transaction { try session.openProfile("ana", sample: true) }
        XCTAssertTrue(session.isCaching, "the burst holds the write lock")
        XCTAssertEqual(try firstPage(session).map(\.done), [false, false, true])
        try session.commitPending()
        XCTAssertFalse(session.isCaching)

        let other = try SQLiteStore(path: path)
        XCTAssertEqual(try other.toggle("ana", id: 1)?.done, true)
        _ = try other.insertAtTop("ana", DraftFields(title: "From elsewhere"), as: .add)
        other.close()

        // The next burst reads the file again.
        let page = try firstPage(session)
        XCTAssertEqual(page.map(\.title), ["From elsewhere", "Buy fruit", "Study SwiftUI", "Go for a walk"])
        XCTAssertEqual(page[1].done, true)
        try session.commitPending()
    }

    func testACommandThatFailedInABurstLeavesNoReadOfWhatItChanged() throws {
        struct Refused: Error {}
        let session = try SQLiteStore(path: path)
        defer { session.close() }
        session.defersCommits = true
        try session.transaction { try session.openProfile("ana", sample: true) }
        XCTAssertEqual(try firstPage(session)[0].done, false)
        // A command that toggles, reads its change, then fails: rolled back whole.
        XCTAssertThrowsError(
            try session.transaction {
                _ = try session.toggle("ana", id: 1)
                XCTAssertEqual(try session.task("ana", id: 1)?.done, true)
                throw Refused()
            })
        XCTAssertEqual(try firstPage(session)[0].done, false)
        var task: TaskItem?
        try session.transaction { task = try session.task("ana", id: 1) }
        XCTAssertEqual(task?.done, false)
        try session.commitPending()
        let reopened = try SQLiteStore(path: path)
        defer { reopened.close() }
        XCTAssertEqual(try reopened.task("ana", id: 1)?.done, false)
    }

    func testWhereTheSessionIsIsKeptAsTheBurstLeftItNotAsAFailedCommandDid() throws {
        struct Refused: Error {}
        let session = try SQLiteStore(path: path)
        session.defersCommits = true
        try session.transaction { try session.openProfile("ana", sample: true) }
        var onFirst = Session(user: "ana")
        onFirst.tasksPath = [.detail(1)]
        var onSecond = onFirst
        onSecond.tasksPath = [.detail(2)]
        try session.transaction { try session.savePhase(.signedIn(onFirst)) }
        XCTAssertThrowsError(
            try session.transaction {
                try session.savePhase(.signedIn(onSecond))
                throw Refused()
            })
        session.close()
        let reopened = try SQLiteStore(path: path)
        defer { reopened.close() }
        XCTAssertEqual(try reopened.loadPhase(), .signedIn(onFirst))
    }

    func testSigningOutInABurstForgetsTheSessionAtOnce() throws {
        let session = try SQLiteStore(path: path)
        session.defersCommits = true
        try session.transaction { try session.openProfile("ana", sample: true) }
        var deep = Session(user: "ana")
        deep.tasksPath = [.detail(3)]
        try session.transaction { try session.savePhase(.signedIn(deep)) }
        try session.transaction { try session.savePhase(.signedOut(pending: nil)) }
        try session.transaction { try session.savePhase(.signedIn(Session(user: "ana"))) }
        session.close()
        let reopened = try SQLiteStore(path: path)
        defer { reopened.close() }
        XCTAssertEqual(try reopened.loadPhase(), .signedIn(Session(user: "ana")))
    }
}
