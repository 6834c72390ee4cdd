import NavStackCore
import NavStackSync
import TestSeeds
import XCTest

@testable import NavStackSQLite

/// An account's operation log kept as the server keeps it (docs/sync.md): operations in
/// arrival order, unique by replica and sequence number, handed to the other replicas
/// after what they have seen, read and written with the protocol's one codec. The
/// end-to-end tests run the real server; these check how stores merge what they receive,
/// over many seeds.
final class OperationLog {
    /// The operations kept, in `server_seq` order (those a snapshot covered are dropped).
    private(set) var ops: [SyncOperation] = []
    /// Each operation kept, by replica and seq.
    private var seen: [String: SyncOperation] = [:]
    /// The last `server_seq` given.
    private var lastServerSeq: Int64 = 0
    /// Whether a (replica, seq) the log holds with other content is refused (409), as the
    /// server does; otherwise it is dropped, as the server once did.
    var refusesReusedSeqs = true
    /// Whether replicas make snapshots when this many operations came since the last
    /// (``SyncSnapshot/isDue(since:registers:least:)``): the server keeps the latest
    /// (its content in base64, unsealed: sealing is the seal's tests'), hands it to new
    /// replicas and to those behind the operations dropped, and drops the operations the
    /// one before it covered, as navstack-server does.
    var snapshotsAfter: Int?
    private(set) var snapshot: SyncSnapshot?
    private var trimmed: Int64 = 0
    private var taken: Int64 = 0
    private var takenThroughSnapshot: Int64 = 0
    /// How many snapshots were kept, and how many pulls started from one.
    private(set) var snapshotsKept = 0
    private(set) var snapshotsServed = 0
    /// Each replica's highest seq dropped.
    private var droppedThrough: [String: Int64] = [:]
    /// How many operations were dropped.
    private(set) var dropped = 0

    /// The highest `server_seq` given and still standing: the last operation's, or the
    /// snapshot's when that dropped every one.
    private var highest: Int64 { max(ops.last?.serverSeq ?? 0, snapshot?.seq ?? 0) }

    /// The 409 of a request that reuses a (replica, seq) with other content.
    struct ReusedSeq: Error {}

    /// One sync request and its answer, as `POST /v1/sync` makes them.
    func answer(_ body: [UInt8], page: Int = SyncLimits.pageSize) throws -> [UInt8] {
        let request = try body.withUnsafeBytes { try SyncRequest(json: $0) }
        var adding: [SyncOperation] = []
        for var op in request.operations {
            op.replica = request.replica
            // Dropped: a seq at or below the replica's highest dropped is taken.
            if op.seq <= droppedThrough[request.replica] ?? 0 { throw ReusedSeq() }
            if var held = seen[request.replica + "/" + String(op.seq)] {
                held.serverSeq = 0
                if op != held && refusesReusedSeqs { throw ReusedSeq() }
                continue
            }
            adding.append(op)
        }
        for var op in adding {
            lastServerSeq += 1
            op.serverSeq = lastServerSeq
            seen[op.replica + "/" + String(op.seq)] = op
            ops.append(op)
            taken += 1
        }
        if let offered = request.snapshot {
            if ops.contains(where: { $0.replica == request.replica && $0.seq > request.ownSeq })
                || droppedThrough[request.replica] ?? 0 > request.ownSeq
            {
                throw ReusedSeq()
            }
            let covered = taken - Int64(ops.count { $0.serverSeq > offered.seq })
            let held = snapshot.map { (seq: $0.seq, covering: takenThroughSnapshot) }
            if SyncSnapshot.replaces(seq: offered.seq, covering: covered, held: held, highest: highest, least: snapshotsAfter ?? 0) {
                trimmed = snapshot?.seq ?? 0
                takenThroughSnapshot = covered
                snapshot = offered
                snapshotsKept += 1
                for op in ops where op.serverSeq <= trimmed {
                    seen[op.replica + "/" + String(op.seq)] = nil
                    droppedThrough[op.replica] = max(droppedThrough[op.replica] ?? 0, op.seq)
                    dropped += 1
                }
                ops.removeAll { $0.serverSeq <= trimmed }
            }
        }
        var after = request.after
        var served: SyncSnapshot?
        if let snapshot, SyncSnapshot.startsPull(after: after, snapshot: snapshot.seq, trimmed: trimmed) {
            served = snapshot
            after = snapshot.seq
            snapshotsServed += 1
        }
        let others = ops.filter { $0.serverSeq > after && $0.replica != request.replica }
        let sent = Array(others.prefix(page))
        let more = others.count > page
        let last = more ? sent.last!.serverSeq : highest
        return SyncAnswer(
            operations: sent, last: max(after, last), more: more, snapshot: served,
            sinceSnapshot: snapshotsAfter == nil ? nil : taken - takenThroughSnapshot
        ).json()
    }

    /// Operations of a replica that sends what it likes, as the server would hand them on.
    func inject(_ operations: [(task: String, field: SyncField, value: String)], ahead: Int64 = 0, counter: Int64 = 0) {
        let hostile = "00000000000000000000000000000bad"
        for (task, field, value) in operations {
            lastServerSeq += 1
            taken += 1
            ops.append(
                SyncOperation(
                    serverSeq: lastServerSeq, replica: hostile, seq: lastServerSeq,
                    millis: Int64(SQLiteStore.milliseconds()) + ahead, counter: counter, task: task, field: field,
                    value: value))
        }
    }

    /// An answer read as a replica reads it: its snapshot's content opened.
    func reading(_ bytes: [UInt8]) throws -> SyncAnswer {
        var answer = try SyncAnswer(json: bytes)
        if let snapshot = answer.snapshot {
            answer.snapshot?.registers = try SyncSnapshot.registers(from: Base64.decode(snapshot.sealed) ?? [])
        }
        return answer
    }

    /// Syncs a store until it has sent everything and received everything, then makes a
    /// snapshot when one is due, as `navstack sync` does.
    @discardableResult
    func sync(_ store: SQLiteStore, _ user: String, page: Int = SyncLimits.pageSize, batch: Int = SQLiteStore.syncBatch) throws
        -> SyncRound
    {
        var total = SyncRound(received: 0, conflicts: 0)
        while true {
            let batch = try store.syncRequest(user, limit: batch)
            let reply: SyncAnswer
            do {
                reply = try reading(answer(batch.request.json(), page: page))
            } catch is ReusedSeq {
                try store.restampUnsent(user, .newReplica)
                continue
            }
            let round = try store.applySyncAnswer(user, reply, to: batch)
            total.received += round.received
            total.conflicts += round.conflicts
            guard !reply.more && !batch.more else { continue }
            guard let least = snapshotsAfter, let since = reply.sinceSnapshot,
                let (seq, ownSeq, registers) = try store.syncSnapshot(user, since: since, least: least)
            else { return total }
            var probe = try store.syncProbe(user)
            probe.request.after = seq
            probe.request.snapshot = SyncSnapshot(seq: seq, sealed: Base64.encode(SyncSnapshot.content(of: registers)))
            probe.request.ownSeq = ownSeq
            do {
                let reply = try reading(answer(probe.request.json(), page: page))
                let round = try store.applySyncAnswer(user, reply, to: probe)
                total.received += round.received
                total.conflicts += round.conflicts
                return total
            } catch is ReusedSeq {
                // A copy's snapshot: it takes a replica id of its own and syncs again.
                try store.restampUnsent(user, .newReplica)
            }
        }
    }
}

final class SyncMergeTests: XCTestCase {
    let user = "ana"

    func replica(_ log: OperationLog) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        // Replicas make their own uuids (a store in memory alone makes the same ones each run).
        store.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try store.openProfile(user, sample: false)
        try store.configureSync(user, server: "http://server", token: "t")
        return store
    }

    /// Every task, as replicas must agree on it: uuid, fields, parent's uuid, and its
    /// place among its siblings, in list order.
    func tasks(_ store: SQLiteStore) throws -> [String] {
        try store.reading { db in
            try db.prepare(
                """
                SELECT t.uuid, t.title, t.notes, t.done, coalesce(p.uuid, '-'),
                       row_number() OVER (PARTITION BY t.parent ORDER BY t.position, t.uuid)
                FROM task AS t LEFT JOIN task AS p ON p.id = t.parent ORDER BY t.uuid
                """
            ).all {
                "\($0.text(0)) \($0.text(1).debugDescription) \($0.text(2).debugDescription) \($0.bool(3)) under \($0.text(4)) #\($0.int(5))"
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
        let log = OperationLog()
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
        let log = OperationLog()
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
        XCTAssertEqual(try b.undo(user), .sync)
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
        let log = OperationLog()
        log.snapshotsAfter = 1
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
        let served = log.snapshotsServed
        let lost = try log.sync(b, user)
        XCTAssertEqual(log.snapshotsServed, served + 1, "b took the snapshot")
        XCTAssertEqual(lost.conflicts, 1)
        XCTAssertEqual(try b.takeSyncNotices(user), [SyncNotice(title: "Buy oat milk", fields: ["title"])])
        XCTAssertEqual(try b.undo(user), .sync)
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try a.task(user, uuid: task.uuid)?.title, "Buy oat milk")
        XCTAssertNotNil(try a.task(user, uuid: kept.uuid), "what b had not sent reached a")
        XCTAssertEqual(try tasks(a), try tasks(b))
    }

    func testAnEditAfterSeeingTheOtherValueIsNoConflict() throws {
        let log = OperationLog()
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
        let log = OperationLog()
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
        let log = OperationLog()
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
        let log = OperationLog()
        let a = try replica(log), b = try replica(log)
        let kept = try a.insertAtTop(user, DraftFields(title: "Kept"), as: .add)
        try log.sync(a, user)
        try log.sync(b, user)
        let before = try tasks(b)
        let task = { (title: String) in #"{"title":\#(title.jsonQuoted),"notes":"","done":false,"parent":null,"position":1}"# }
        let fresh = "7c1e9a52-0b1d-4c5e-9f3a-2d4b6c8e0f11"
        log.inject([
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
            (kept.uuid, .notes, String(repeating: "n", count: Limits.notesCharacters + 1).jsonQuoted),
        ])
        for store in [a, b] {
            let round = try log.sync(store, user)
            XCTAssertEqual(round.received, 12, "every operation arrives")
        }
        XCTAssertEqual(try tasks(b), before, "and none of them changes anything")
        XCTAssertEqual(try tasks(a), before)
        // A valid one still applies.
        log.inject([(kept.uuid, .title, #""Renamed""#)])
        try log.sync(b, user)
        XCTAssertEqual(try b.task(user, uuid: kept.uuid)?.title, "Renamed")
    }

    func testASubtaskAddedUnderATaskDeletedElsewhereStandsAtTheTop() throws {
        let log = OperationLog()
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
        let log = OperationLog()
        let a = try replica(log), b = try replica(log)
        let records = (0..<30).map { "{\"title\":\"T\($0)\"\($0 > 0 && $0 % 3 == 0 ? ",\"parent\":\($0 - 1)" : "")}" }
        _ = try a.importTasks(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8)), user: user)
        try log.sync(a, user, batch: 7)
        try log.sync(b, user, page: 11)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try b.counts(user).open, 30)
        try assertCountsMatch(b)
    }

    func testAnImportAfterTheFirstSyncItsUndoAndRedoReachTheOtherReplica() throws {
        let log = OperationLog()
        let a = try replica(log), b = try replica(log)
        _ = try a.insertAtTop(user, DraftFields(title: "Before"), as: .add)
        try log.sync(a, user)
        let records = (0..<30).map { "{\"title\":\"T\($0)\"\($0 > 0 && $0 % 3 == 0 ? ",\"parent\":\($0 - 1)" : "")}" }
        _ = try a.importTasks(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8)), user: user)
        try log.sync(a, user, batch: 7)
        try log.sync(b, user, page: 11)
        XCTAssertEqual(try b.counts(user).open, 31)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try a.undo(user), .import)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try b.counts(user).open, 1)
        XCTAssertEqual(try a.redo(user), .import)
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
        let log = OperationLog()
        let a = try replica(log), b = try replica(log)
        try log.sync(b, user)
        let shared = try a.insertAtTop(user, DraftFields(title: "Made on a"), as: .add)
        _ = try a.write(user, id: shared.id, [.title], from: DraftFields(title: "Edited on a"), as: .save)
        try log.sync(a, user)
        usleep(3_000)
        let batch = try b.syncRequest(user)
        let reply = try log.reading(log.answer(batch.request.json()))
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
        let log = OperationLog()
        let a = try replica(log), b = try replica(log)
        let notes = String(repeating: "n", count: Limits.notesCharacters)
        let records = (0..<2_500).map { "{\"title\":\"T\($0)\",\"notes\":\"\(notes)\"}" }
        _ = try a.importTasks(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8)), user: user)
        let first = try a.syncRequest(user)
        XCTAssertTrue(first.more)
        XCTAssertGreaterThan(first.count, 1_000)
        XCTAssertLessThan(first.count, 2_500)
        XCTAssertLessThanOrEqual(first.request.json().count, SyncLimits.maximumRequestBytes + 64 << 10)
        _ = try a.applySyncAnswer(user, SyncAnswer(json: log.answer(first.request.json())), to: first)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try b.counts(user).open, 2_500)
        XCTAssertEqual(try tasks(a), try tasks(b))
    }

    func testARegisterReadsBackAsWrittenWhateverItsStamps() throws {
        let store = try replica(OperationLog())
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
        let log = OperationLog()
        let a = try SQLiteStore(path: nil)
        a.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try a.openProfile(user, sample: true)
        let b = try replica(log)
        try a.configureSync(user, server: "http://server", token: "t")
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertGreaterThan(try tasks(b).count, 0)
    }

    func testRandomOfflineChangesAndSyncOrdersConverge() throws {
        var kept = 0
        forEachSeed(1...25) { seed in
            kept += try converge(seed: seed)
        }
        XCTAssertGreaterThan(kept, 25, "the runs leave tasks that every replica must hold")
    }

    /// The same with snapshots made after every few operations: the log keeps the latest
    /// snapshot and drops what the one before covered, and new replicas join on the way;
    /// the replicas still converge and keep every task added, and snapshots were made,
    /// operations dropped, and pulls started from a snapshot.
    func testRandomChangesConvergeWithSnapshotsAndDroppedOperations() throws {
        var kept = 0
        var (made, served, dropped) = (0, 0, 0)
        forEachSeed(1...25) { seed in
            let log = OperationLog()
            log.snapshotsAfter = 4
            kept += try converge(seed: seed, log: log)
            made += log.snapshotsKept
            served += log.snapshotsServed
            dropped += log.dropped
        }
        XCTAssertGreaterThan(kept, 25, "the runs leave tasks that every replica must hold")
        XCTAssertGreaterThan(made, 25, "snapshots were kept")
        XCTAssertGreaterThan(served, 25, "pulls started from a snapshot")
        XCTAssertGreaterThan(dropped, 100, "operations a snapshot covered were dropped")
    }

    /// Three replicas change tasks at random and sync in a random order, among them
    /// chains past the depth limit, copies of a replica's store that go on as replicas of
    /// their own, and operations of a replica that sends values the app refuses and stamps
    /// at the largest counter a minute ahead; after a final round (each twice) they hold
    /// the same tasks, with counters that match, and every task added that nothing could
    /// have taken away is there. Returns how many such tasks there were.
    @discardableResult
    func converge(seed: UInt64, log: OperationLog = OperationLog()) throws -> Int {
        var random = SplitMix64(state: seed)
        var stores = try (0..<3).map { _ in try replica(log) }
        let copies = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-copies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copies) }
        // Tasks added, by the replica that added them, and those a delete or an undo may
        // have taken away.
        var added: [[String]] = [[], [], []]
        var unsure: Set<String> = []
        for _ in 0..<120 {
            let which = Int(random.next() % UInt64(stores.count))
            let store = stores[which]
            let ids = try store.reading { db in try db.prepare("SELECT id FROM task ORDER BY id").all { $0.int(0) } }
            let pick = ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
            do {
                switch random.next() % 13 {
                case 0, 1:
                    let under = random.next() % 2 == 0 ? pick : nil
                    added[which].append(
                        try store.insertAtTop(
                            user, DraftFields(title: "t\(random.next() % 1000)"), under: under,
                            as: .add
                        ).uuid)
                case 2, 3:
                    if let pick {
                        _ = try store.write(user, id: pick, [.title], from: DraftFields(title: "e\(random.next() % 1000)"), as: .save)
                    }
                case 4: if let pick { _ = try store.toggle(user, id: pick) }
                case 5:
                    if let pick {
                        unsure.formUnion(try subtree(store, pick))
                        _ = try store.delete(user, id: pick)
                    }
                case 6:
                    if let pick {
                        let target = ids.isEmpty || random.next() % 3 == 0 ? nil : ids[Int(random.next() % UInt64(ids.count))]
                        _ = try store.move(user, id: pick, under: target)
                    }
                case 7:
                    unsure.formUnion(added[which])
                    _ = try store.undo(user)
                case 8:
                    // A chain that may pass the limit under a deep task: the adds past it fail.
                    var under = pick
                    for level in 0..<30 {
                        let task = try store.insertAtTop(user, DraftFields(title: "d\(level)"), under: under, as: .add)
                        added[which].append(task.uuid)
                        under = task.id
                    }
                case 9 where stores.count < 5:
                    // The store copied (a backup restored, a second machine): both go on.
                    let copy = copies.appendingPathComponent("\(stores.count).sqlite").path
                    try store.db.execute("VACUUM INTO '\(copy)'")
                    let replica = try SQLiteStore(path: copy)
                    replica.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
                    stores.append(replica)
                    added.append([])
                case 11 where log.snapshotsAfter != nil && stores.count < 5:
                    // A new replica joins: from the snapshot, when the log has one.
                    stores.append(try replica(log))
                    added.append([])
                    try log.sync(stores[stores.count - 1], user)
                case 10:
                    if let pick, let uuid = try store.task(user, id: pick)?.uuid {
                        log.inject([(uuid, .title, #""  ""#), ("NOT-A-UUID", .task, "null"), (uuid, .done, "3")])
                        log.inject([(uuid, .title, #""Stamped ahead""#)], ahead: 50_000, counter: Int64(Int32.max))
                    }
                default: try log.sync(store, user, batch: 1 + Int(random.next() % 20))
                }
            } catch is NavError {
                // Refusals (a move under itself, an undo of a changed task) change nothing.
            }
        }
        for _ in 0..<2 { for store in stores { try log.sync(store, user) } }
        let first = try tasks(stores[0])
        for store in stores.dropFirst() {
            let other = try tasks(store)
            XCTAssertEqual(other.count, first.count, "seed \(seed)")
            for (mine, theirs) in zip(first, other) where mine != theirs {
                XCTFail("seed \(seed):\n  \(mine)\n  \(theirs)")
            }
        }
        for store in stores { try assertCountsMatch(store, "seed \(seed)") }
        let kept = Set(added.joined()).subtracting(unsure)
        for store in stores {
            let held = Set(try store.reading { db in try db.prepare("SELECT uuid FROM task").all { $0.text(0) } })
            XCTAssertEqual(kept.subtracting(held), [], "seed \(seed): tasks added and never taken away are missing")
        }
        return kept.count
    }

    /// The uuids of a task and every task under it.
    func subtree(_ store: SQLiteStore, _ id: Int) throws -> [String] {
        try store.reading { db in
            try db.prepare(
                """
                WITH RECURSIVE down(id) AS (SELECT ?1 UNION ALL SELECT t.id FROM task AS t JOIN down ON t.parent = down.id)
                SELECT uuid FROM task WHERE id IN (SELECT id FROM down)
                """
            ).all([id]) { $0.text(0) }
        }
    }
}
