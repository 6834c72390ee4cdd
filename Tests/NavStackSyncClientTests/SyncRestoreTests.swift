import Foundation
import NavStackCore
import NavStackSync
import XCTest

@testable import NavStackSQLite

/// A store restored from a backup, or copied to another machine, loses nothing: its
/// reused (replica, seq) pairs are refused, it takes a new replica id, sends again what the
/// server lacks and pulls what it is missing.
final class SyncRestoreTests: XCTestCase {
    let user = "ana"
    /// A folder of the test's own, and a store file in it, not yet made.
    private var folder: URL!
    private var path: String { folder.appendingPathComponent("navstack.sqlite").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-restore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func open(_ path: String) throws -> SQLiteStore {
        let store = try SQLiteStore(path: path)
        try store.openProfile(user, sample: false)
        return store
    }

    func titles(_ store: SQLiteStore) throws -> [String] {
        try store.reading { db in try db.prepare("SELECT title FROM task ORDER BY title").all { $0.text(0) } }
    }

    /// `a` syncs, is copied (a backup, or a second machine), and both go on alone; then
    /// each syncs. Returns both stores' titles, and a third replica's.
    func copiedStoresSync(_ log: Account) throws -> [[String]] {
        let a = try open(path)
        try log.join(a, user)
        _ = try a.insertAtTop(user, DraftFields(title: "Before the copy"), as: .add)
        try log.sync(a, user)
        a.close()
        let copy = folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let original = try open(path)
        let restored = try open(copy)
        for title in ["Original 1", "Original 2"] { _ = try original.insertAtTop(user, DraftFields(title: title), as: .add) }
        try log.sync(original, user)
        for title in ["Restored 1", "Restored 2"] { _ = try restored.insertAtTop(user, DraftFields(title: title), as: .add) }
        try log.sync(restored, user)
        try log.sync(original, user)
        let third = try SQLiteStore(path: nil)
        third.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try third.openProfile(user, sample: false)
        try log.join(third, user)
        try log.sync(third, user)
        return [try titles(original), try titles(restored), try titles(third)]
    }

    func testACopiedStoreAndItsOriginalBothEndWithEveryChange() throws {
        let log = try Account()
        let all = ["Before the copy", "Original 1", "Original 2", "Restored 1", "Restored 2"]
        XCTAssertEqual(try copiedStoresSync(log), [all, all, all])
        XCTAssertEqual(try log.replicas().count, 2, "the copy took a replica id of its own")
    }

    /// Two processes on one store: one sends a request, the other takes a new replica id
    /// (its push was refused) before the first one's answer is applied. That answer marks
    /// nothing of the new replica's sent, drops none of its outbox, and moves its pull on
    /// not at all (the answer left out the old id's operations).
    func testAnAnswerToTheReplicaIdTheStoreNoLongerHasAcknowledgesNothing() throws {
        let log = try Account()
        let store = try open(path)
        try log.join(store, user)
        for title in ["One", "Two"] { _ = try store.insertAtTop(user, DraftFields(title: title), as: .add) }
        let batch = try store.syncRequest(user)
        let answer = try log.answer(batch.request)
        let renumbered = try store.restampUnsent(user, .newReplica)
        XCTAssertEqual(renumbered, 2)
        _ = try store.applySyncAnswer(user, answer, to: batch)
        XCTAssertEqual(try store.unsentOperations(user), 2, "the new replica's operations wait to be sent")
        let next = try store.syncRequest(user)
        XCTAssertNotEqual(next.request.replica, batch.request.replica)
        XCTAssertEqual(next.request.after, 0, "the new replica pulls from the start")
        XCTAssertEqual(next.count, 2)
    }
}
