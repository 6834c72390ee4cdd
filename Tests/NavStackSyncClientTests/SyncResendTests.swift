import NavStackCore
import NavStackSync
import XCTest

@testable import NavStackSQLite

/// An account moving to encryption: the replica that moves it sends every task it knows
/// again (``SQLiteStore/resendEveryTask(_:)``), so that the operations kept in clear can be
/// dropped and a replica that joins later still gets every task.
extension SyncMergeTests {
    func testEveryTaskSentAgainRebuildsTheAccountOnAReplicaThatJoinsAfter() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let parent = try a.insertAtTop(user, DraftFields(title: "Parent", notes: "its notes"), as: .add)
        let child = try a.insertAtTop(user, DraftFields(title: "Child"), under: parent.id, as: .add)
        let gone = try a.insertAtTop(user, DraftFields(title: "Deleted later"), as: .add)
        let moved = try a.insertAtTop(user, DraftFields(title: "Moved later"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        // Fields set after the tasks were made, on both replicas, and a move and a delete.
        let onB = try XCTUnwrap(b.task(user, uuid: child.uuid))
        _ = try b.write(user, id: onB.id, [.title, .done], from: DraftFields(title: "Child, renamed on b", done: true), as: .save)
        _ = try a.move(user, id: moved.id, under: parent.id)
        XCTAssertTrue(try a.delete(user, id: gone.id))
        try log.sync(b, user)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try tasks(a), try tasks(b))

        let stampsBefore = try registerStamps(a)
        let resent = try a.resendEveryTask(user)
        XCTAssertGreaterThan(resent, 0)
        // Every operation sent again carries a stamp a register holds: none is made now, so
        // none wins over a change another replica made meanwhile.
        let outbox = try a.reading { db in
            try db.prepare("SELECT millis, counter FROM sync_outbox ORDER BY seq DESC LIMIT ?").all([resent]) {
                "\($0.int(0))/\($0.int(1))"
            }
        }
        XCTAssertTrue(Set(outbox).isSubset(of: stampsBefore), "\(Set(outbox).subtracting(stampsBefore))")

        // The log from then on holds only what a sends again: a replica that joins it gets
        // every task, as they are, the deleted one gone.
        let sealedLog = try Account()
        let sent = try a.syncRequest(user, limit: 100_000)
        _ = try sealedLog.answer(sent.request)
        let c = try replica(sealedLog)
        try sealedLog.sync(c, user)
        XCTAssertEqual(try tasks(c), try tasks(a))
        XCTAssertNil(try c.task(user, uuid: gone.uuid))
        XCTAssertEqual(try c.task(user, uuid: child.uuid)?.title, "Child, renamed on b")
        try assertCountsMatch(c)
    }

    /// Each register's stamps, as `millis/counter`.
    fileprivate func registerStamps(_ store: SQLiteStore) throws -> Set<String> {
        try store.reading { db in
            let texts = try db.prepare(
                "SELECT alive_at, title_at, notes_at, done_at, parent_at, position_at FROM sync_register"
            ).all { row in (0..<6).map { row.text(Int32($0)) } }
            return Set(texts.flatMap { $0 }.compactMap { Stamp.parts(of: $0).map { "\($0.millis)/\($0.counter)" } })
        }
    }
}
