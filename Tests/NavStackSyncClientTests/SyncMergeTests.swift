import NavStackCore
import NavStackSeal
import NavStackSync
import NavStackSyncClient
import TestSeeds
import XCTest

@testable import NavStackSQLite

final class SyncMergeTests: XCTestCase {
    let user = "ana"

    func replica(_ log: Account) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        // Replicas make their own uuids (a store in memory alone makes the same ones each run).
        store.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try store.openProfile(user, sample: false)
        try log.join(store, user)
        return store
    }

    /// Every task, as replicas must agree on it: uuid, fields, stamps, parent's uuid, and
    /// its place among its siblings, in list order.
    func tasks(_ store: SQLiteStore) throws -> [String] {
        try store.reading { db in
            try db.prepare(
                """
                SELECT t.uuid, t.title, t.notes, t.done, coalesce(p.uuid, '-'),
                       row_number() OVER (PARTITION BY t.parent ORDER BY t.position, t.uuid),
                       coalesce(t.due, '') || '|' || coalesce(t.priority, '') || '|' || coalesce(t.project, '') || '|' || t.tags
                           || '|' || t.annotations || '|' || t.depends || '|' || coalesce(t.recur, '')
                           || '|' || coalesce(t.created, '') || '|' || coalesce(t.modified, '') || '|' || coalesce(t.completed, '')
                FROM task AS t LEFT JOIN task AS p ON p.id = t.parent ORDER BY t.uuid
                """
            ).all {
                "\($0.text(0)) \($0.text(1).debugDescription) \($0.text(2).debugDescription) \($0.bool(3)) under \($0.text(4)) #\($0.int(5))"
                    + " \($0.text(6))"
            }
        }
    }

    /// Counters the store keeps must match the tree it holds.
    func assertCountsMatch(_ store: SQLiteStore, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        let wrong = try store.reading { db in
            try db.prepare(
                """
                SELECT t.id FROM task AS t WHERE t.subtasks != (SELECT count(*) FROM task AS s WHERE s.parent = t.id)
                   OR t.subtasks_done != (SELECT count(*) FROM task AS s WHERE s.parent = t.id AND s.done)
                UNION ALL SELECT -1 FROM profile WHERE total != (SELECT count(*) FROM task WHERE task.profile_id = profile.id)
                UNION ALL SELECT -2 FROM profile WHERE roots != (SELECT count(*) FROM task WHERE task.profile_id = profile.id AND parent = 0)
                UNION ALL SELECT -3 FROM profile WHERE done != (SELECT count(*) FROM task WHERE task.profile_id = profile.id AND done)
                UNION ALL SELECT -4 FROM profile WHERE roots_done != (SELECT count(*) FROM task WHERE task.profile_id = profile.id AND done AND parent = 0)
                UNION ALL SELECT t.id FROM task AS t WHERE t.parent != 0 AND NOT EXISTS (SELECT 1 FROM task AS p WHERE p.id = t.parent)
                """
            ).all { $0.int(0) }
        }
        XCTAssertEqual(wrong, [], "counters or parents that do not match the tree \(message)", file: file, line: line)
    }

    func id(_ store: SQLiteStore, _ title: String) throws -> Int {
        try store.reading { db in try db.first("SELECT id FROM task WHERE title = ?", [title]) { $0.int(0) }! }
    }

    func testATaskAddedOnOneReplicaArrivesOnTheOtherWithItsUUID() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let added = try a.insertAtTop(user, DraftFields(title: "Buy milk", notes: "2 l"), as: .add)
        _ = try b.insertAtTop(user, DraftFields(title: "Call mum"), as: .add)
        XCTAssertEqual(try log.sync(a, user).received, 0)
        XCTAssertEqual(try log.sync(b, user).received, 1)
        try log.sync(a, user)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try b.task(user, uuid: added.uuid)?.title, "Buy milk")
        XCTAssertEqual(try a.counts(user).open, 2)
        try assertCountsMatch(a)
        try assertCountsMatch(b)
        // Nothing new: a second round sends and receives nothing.
        XCTAssertEqual(try a.syncRequest(user).count, 0)
        XCTAssertEqual(try log.sync(b, user).received, 0)
    }

    func testTheLaterOfTwoEditsOfOneFieldWinsEverywhereAndTheLoserCanUndo() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let task = try a.insertAtTop(user, DraftFields(title: "Buy milk"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        let onB = try XCTUnwrap(b.task(user, uuid: task.uuid))
        _ = try b.write(user, id: onB.id, [.title], from: DraftFields(title: "Buy oat milk"), as: .save)
        usleep(3_000)
        _ = try a.write(user, id: task.id, [.title, .notes], from: DraftFields(title: "Buy fruit", notes: "apples"), as: .save)
        try log.sync(b, user)
        let round = try log.sync(a, user)
        XCTAssertEqual(round.conflicts, 0, "a's edit is the later one: nothing of a's is lost")
        let lost = try log.sync(b, user)
        XCTAssertEqual(lost.conflicts, 1)
        XCTAssertEqual(try b.task(user, uuid: task.uuid)?.title, "Buy fruit")
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try b.takeSyncNotices(user), [SyncNotice(title: "Buy oat milk", fields: ["title"])])
        XCTAssertEqual(try b.takeSyncNotices(user), [], "a notice is shown once")
        // undo on b brings its value back, as a new change that then wins everywhere.
        XCTAssertEqual(try b.undo(user)?.kind, .sync)
        XCTAssertEqual(try b.task(user, uuid: task.uuid)?.title, "Buy oat milk")
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try a.task(user, uuid: task.uuid)?.title, "Buy oat milk")
        XCTAssertEqual(try a.task(user, uuid: task.uuid)?.notes, "apples", "the other field keeps a's value")
        XCTAssertEqual(try tasks(a), try tasks(b))
    }

    /// The same race when the later edit reaches the loser through a snapshot (the
    /// operations it covers dropped): the loser is told, keeps its other changes, and
    /// `undo` brings its value back everywhere.
    func testAValueReplacedThroughASnapshotIsToldAndCanBeUndone() throws {
        let log = try Account(snapshotsAfter: 1)
        let a = try replica(log), b = try replica(log)
        let task = try a.insertAtTop(user, DraftFields(title: "Buy milk"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        let onB = try XCTUnwrap(b.task(user, uuid: task.uuid))
        _ = try b.write(user, id: onB.id, [.title], from: DraftFields(title: "Buy oat milk"), as: .save)
        let kept = try b.insertAtTop(user, DraftFields(title: "Made on b while away"), as: .add)
        usleep(3_000)
        _ = try a.write(user, id: task.id, [.title], from: DraftFields(title: "Buy fruit"), as: .save)
        // Two snapshots from a: the second drops what the first covered, b's place among them.
        try log.sync(a, user)
        _ = try a.insertAtTop(user, DraftFields(title: "Another"), as: .add)
        try log.sync(a, user)
        let served = log.counts.snapshotsServed
        let lost = try log.sync(b, user)
        XCTAssertEqual(log.counts.snapshotsServed, served + 1, "b took the snapshot")
        XCTAssertEqual(lost.conflicts, 1)
        XCTAssertEqual(try b.takeSyncNotices(user), [SyncNotice(title: "Buy oat milk", fields: ["title"])])
        XCTAssertEqual(try b.undo(user)?.kind, .sync)
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try a.task(user, uuid: task.uuid)?.title, "Buy oat milk")
        XCTAssertNotNil(try a.task(user, uuid: kept.uuid), "what b had not sent reached a")
        XCTAssertEqual(try tasks(a), try tasks(b))
    }

    func testAnEditAfterSeeingTheOtherValueIsNoConflict() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let task = try a.insertAtTop(user, DraftFields(title: "One"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        let onB = try XCTUnwrap(b.task(user, uuid: task.uuid))
        _ = try b.write(user, id: onB.id, [.title], from: DraftFields(title: "Two"), as: .save)
        try log.sync(b, user)
        XCTAssertEqual(try log.sync(a, user).conflicts, 0)
        XCTAssertEqual(try a.task(user, uuid: task.uuid)?.title, "Two")
        XCTAssertEqual(try a.takeSyncNotices(user), [])
    }

    func testMovesThatMakeACycleTogetherDropTheLaterOneEverywhere() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let x = try a.insertAtTop(user, DraftFields(title: "X"), as: .add)
        let y = try a.insertAtTop(user, DraftFields(title: "Y"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        _ = try a.move(user, id: x.id, under: y.id)
        usleep(3_000)
        _ = try b.move(user, id: try id(b, "Y"), under: try id(b, "X"))
        try log.sync(a, user)
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try tasks(a), try tasks(b))
        // b's move was later: dropped; a's stands.
        XCTAssertEqual(try a.task(user, id: x.id)?.parent, y.id)
        XCTAssertNil(try a.task(user, id: y.id)?.parent)
        try assertCountsMatch(a)
        try assertCountsMatch(b)
    }

    /// The deepest level of a store's tree.
    func depth(_ store: SQLiteStore) throws -> Int {
        try store.reading { db in
            try db.first(
                """
                WITH RECURSIVE down(id, level) AS (SELECT id, 1 FROM task WHERE parent = 0
                    UNION ALL SELECT t.id, down.level + 1 FROM task AS t JOIN down ON t.parent = down.id)
                SELECT max(level) FROM down
                """
            ) { $0.int(0) } ?? 0
        }
    }

    func testAMoveAndAddsUnderItElsewhereNeverMakeATreeDeeperThanTheLimit() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log), c = try replica(log)
        var below: Int?
        for level in 1...85 {
            below = try a.insertAtTop(user, DraftFields(title: "L\(level)"), under: below, as: .add).id
        }
        let moved = try a.insertAtTop(user, DraftFields(title: "Moved"), as: .add)
        for store in [a, b, c] { try log.sync(store, user) }
        // On a, the task goes to the foot of the chain (level 86); on b, 25 levels grow under it.
        XCTAssertNotNil(try a.move(user, id: moved.id, under: below))
        var under = try id(b, "Moved")
        for level in 1...25 {
            under = try b.insertAtTop(user, DraftFields(title: "Under \(level)"), under: under, as: .add).id
        }
        for _ in 0..<2 { for store in [c, b, a] { try log.sync(store, user) } }
        for store in [a, b, c] {
            XCTAssertLessThanOrEqual(try depth(store), TreeLimits.depth)
            try assertCountsMatch(store)
        }
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try tasks(a), try tasks(c))
        XCTAssertEqual(try depth(a), TreeLimits.depth, "the levels that fit stay where they were put")
    }

    func testValuesTheAppRefusesAreIgnoredByEveryReplicaAlike() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let kept = try a.insertAtTop(user, DraftFields(title: "Kept"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        let before = try tasks(b)
        let task = { (title: String) in #"{"title":\#(title.jsonQuoted),"notes":"","done":false,"parent":null,"position":1}"# }
        let fresh = "7c1e9a52-0b1d-4c5e-9f3a-2d4b6c8e0f11"
        try log.inject([
            (fresh, .task, task("   ")),
            (fresh, .task, task(String(repeating: "x", count: 1 << 20))),
            ("not-a-uuid", .task, task("Fine title")),
            (fresh.uppercased(), .task, task("Upper case id")),
            (kept.uuid, .title, #""""#),
            (kept.uuid, .title, #""bell \u0007""#),
            (kept.uuid, .title, "5"),
            (kept.uuid, .done, #""yes""#),
            (kept.uuid, .position, "1.5"),
            (kept.uuid, .parent, kept.uuid.jsonQuoted),
            (kept.uuid, .parent, #""elsewhere""#),
            (kept.uuid, .notes, String(repeating: "n", count: FieldRules.textCharacters + 1).jsonQuoted),
        ])
        for store in [a, b] {
            let round = try log.sync(store, user)
            XCTAssertEqual(round.received, 12, "every operation arrives")
        }
        XCTAssertEqual(try tasks(b), before, "and none of them changes anything")
        XCTAssertEqual(try tasks(a), before)
        // A valid one still applies.
        try log.inject([(kept.uuid, .title, #""Renamed""#)])
        try log.sync(b, user)
        XCTAssertEqual(try b.task(user, uuid: kept.uuid)?.title, "Renamed")
    }

    func testASubtaskAddedUnderATaskDeletedElsewhereStandsAtTheTop() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let parent = try a.insertAtTop(user, DraftFields(title: "Parent"), as: .add)
        _ = try a.insertAtTop(user, DraftFields(title: "Old child"), under: parent.id, as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertTrue(try a.delete(user, id: parent.id))
        _ = try b.insertAtTop(user, DraftFields(title: "New child"), under: try id(b, "Parent"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try tasks(a).count, 1)
        XCTAssertNil(try a.task(user, id: try id(a, "New child"))?.parent)
        try assertCountsMatch(a)
        try assertCountsMatch(b)
    }

    func testAnImportIsSentTaskByTaskWithItsTree() throws {
        let log = try Account(pageSize: 11)
        let a = try replica(log), b = try replica(log)
        let records = (0..<30).map { "{\"title\":\"T\($0)\"\($0 > 0 && $0 % 3 == 0 ? ",\"parent\":\($0 - 1)" : "")}" }
        _ = try a.importTasks(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8)), user: user)
        try log.sync(a, user, batch: 7)
        try log.sync(b, user)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try b.counts(user).open, 30)
        try assertCountsMatch(b)
    }

    func testAnImportAfterTheFirstSyncItsUndoAndRedoReachTheOtherReplica() throws {
        let log = try Account(pageSize: 11)
        let a = try replica(log), b = try replica(log)
        _ = try a.insertAtTop(user, DraftFields(title: "Before"), as: .add)
        try log.sync(a, user)
        let records = (0..<30).map { "{\"title\":\"T\($0)\"\($0 > 0 && $0 % 3 == 0 ? ",\"parent\":\($0 - 1)" : "")}" }
        _ = try a.importTasks(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8)), user: user)
        try log.sync(a, user, batch: 7)
        try log.sync(b, user)
        XCTAssertEqual(try b.counts(user).open, 31)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try a.undo(user)?.kind, .import)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try b.counts(user).open, 1)
        XCTAssertEqual(try a.redo(user)?.kind, .import)
        _ = try a.insertAtTop(user, DraftFields(title: "After"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try b.counts(user).open, 32)
        XCTAssertEqual(try tasks(a), try tasks(b))
        try assertCountsMatch(b)
    }

    /// A replica that never held a register reads none from its store while it applies an
    /// answer, but one its own changes set meanwhile is read: here an import, between the
    /// request and its answer, of a task under the uuid the other replica gave it (an
    /// export of it). Its local stamps are the later ones and win on both replicas.
    func testAnImportBetweenARequestAndItsAnswerKeepsItsLaterStamps() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        try log.sync(b, user)
        let shared = try a.insertAtTop(user, DraftFields(title: "Made on a"), as: .add)
        _ = try a.write(user, id: shared.id, [.title], from: DraftFields(title: "Edited on a"), as: .save)
        try log.sync(a, user)
        usleep(3_000)
        let batch = try b.syncRequest(user)
        let reply = try log.answer(batch.request)
        // Before the answer is applied, b adds a task and imports the shared one by its uuid.
        _ = try b.insertAtTop(user, DraftFields(title: "Added on b"), as: .add)
        let record = "[{\"title\":\"Imported on b\",\"uuid\":\"\(shared.uuid)\"}]"
        _ = try b.importTasks(try SQLiteStore.parseImport(Array(record.utf8)), user: user)
        _ = try b.applySyncAnswer(user, reply, to: batch)
        XCTAssertEqual(try b.task(user, uuid: shared.uuid)?.title, "Imported on b", "b's later create is not replaced")
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try a.task(user, uuid: shared.uuid)?.title, "Imported on b")
        XCTAssertEqual(try tasks(a), try tasks(b))
        try assertCountsMatch(a)
        try assertCountsMatch(b)
    }

    func testARequestStopsAtItsByteBudgetAndTheRestFollows() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let notes = String(repeating: "n", count: FieldRules.textCharacters)
        let records = (0..<2_500).map { "{\"title\":\"T\($0)\",\"notes\":\"\(notes)\"}" }
        _ = try a.importTasks(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8)), user: user)
        let first = try a.syncRequest(user)
        XCTAssertTrue(first.more)
        XCTAssertGreaterThan(first.count, 1_000)
        XCTAssertLessThan(first.count, 2_500)
        XCTAssertLessThanOrEqual(first.request.json().count, SyncLimits.maximumRequestBytes + 64 << 10)
        _ = try a.applySyncAnswer(user, log.answer(first.request), to: first)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try b.counts(user).open, 2_500)
        XCTAssertEqual(try tasks(a), try tasks(b))
    }

    func testARegisterReadsBackAsWrittenWhateverItsStamps() throws {
        let store = try replica(try Account())
        let stamp = { (millis: Int) in Stamp.text(millis: millis, counter: 0, replica: "r") }
        var created = SyncRegister(uuid: "u1")
        _ = created.apply(
            .create(SyncTask(fields: DraftFields(title: "A", notes: "n", done: false), parent: "p", position: 3)),
            at: stamp(5), replica: "r")
        var edited = created
        edited.uuid = "u2"
        _ = edited.apply(.field(.title, .text("B"), old: nil), at: stamp(9), replica: "r")
        var field = SyncRegister(uuid: "u3")
        _ = field.apply(.position(4), at: stamp(2), replica: "r")
        try store.writing { db in
            let profile = try SQLiteStore.syncState(db, self.user).profile
            let registers = SyncRegisters(db, profile: profile)
            for register in [created, edited, field] { registers.set(register) }
            try registers.write()
            let fresh = SyncRegisters(db, profile: profile)
            XCTAssertEqual(try fresh.get("u1"), created)
            XCTAssertEqual(try fresh.get("u2"), edited)
            XCTAssertEqual(try fresh.get("u3"), field)
            XCTAssertNil(try fresh.get("u4"))
        }
    }

    func testTasksFromBeforeTheFirstSyncAreSentAsTheyAre() throws {
        let log = try Account()
        let a = try SQLiteStore(path: nil)
        a.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try a.openProfile(user, sample: true)
        let b = try replica(log)
        try log.join(a, user)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertGreaterThan(try tasks(b).count, 0)
    }
}
