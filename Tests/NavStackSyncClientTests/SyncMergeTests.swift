import NavStackCore
import NavStackSeal
import NavStackSync
import NavStackSyncClient
import TestSeeds
import XCTest

@testable import NavStackSQLite

/// An account on the sync module's log in memory, as the server keeps it (docs/sync.md),
/// and its replicas' way to it: each sync is the client's own (``Syncer``), its requests
/// sealed with the account's key, through a transport that hands them to the log through
/// the protocol's one codec. The end-to-end tests run the real server; these check how
/// stores merge what they receive, over many seeds.
final class Account {
    let log: MemoryOperationLog
    let holder: TokenHolder
    /// How many operations since the last snapshot make replicas make another; `nil`:
    /// the server's number.
    let snapshotsAfter: Int?
    /// The seqs of the replica that sends what it likes.
    private var hostileSeq: Int64 = 0

    /// The account's key, made once for every test (the fewest iterations a record may ask).
    static let key = SyncKeyRecord.make(passphrase: "merge tests", iterations: SyncKeyRecord.iterationRange.lowerBound)
    static var seal: SyncSeal { SyncSeal(state: .sealed, key: key.1.bytes, record: key.0.text) }
    static var sealer: OperationSealer { OperationSealer(key: key.1, record: key.0) }

    init(pageSize: Int = SyncLimits.pageSize, snapshotsAfter: Int? = nil) throws {
        log = MemoryOperationLog(pageSize: pageSize, leastOperations: snapshotsAfter ?? SyncSnapshot.leastOperations)
        self.snapshotsAfter = snapshotsAfter
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        holder = try XCTUnwrap(log.account(token: token))
        // The account takes its key from the first replica that offers it.
        _ = try log.sync(
            account: holder,
            request: SyncRequest(replica: String(repeating: "0", count: 32), after: 0, operations: [], key: Self.key.0.text))
    }

    /// What the log did with snapshots.
    var counts: MemoryOperationLog.Counts { log.counts }

    /// `store`'s profile `user` as one of the account's replicas, with its key.
    func join(_ store: SQLiteStore, _ user: String) throws {
        _ = try store.configureSync(user, server: "http://server", token: "t")
        try store.setSyncSeal(user, Self.seal)
    }

    /// Syncs a store as `navstack sync` does, until it has sent everything and received
    /// everything, then makes a snapshot when one is due.
    @discardableResult
    func sync(_ store: SQLiteStore, _ user: String, batch: Int = SQLiteStore.syncBatch) throws -> SyncTotals {
        var syncer = Syncer(
            store: store, user: user, transport: LogTransport(log: log, account: holder),
            passphrase: PassphraseSource(given: nil, catalog: .english), catalog: .english)
        syncer.batch = batch
        if let snapshotsAfter { syncer.snapshotsAfter = snapshotsAfter }
        return try syncer.run(within: .seconds(60))
    }

    /// The replicas whose operations the log holds.
    func replicas() throws -> Set<String> {
        let everything = try log.sync(
            account: holder, request: SyncRequest(replica: String(repeating: "f", count: 32), after: 0, operations: []))
        return Set(everything.answer.operations.map(\.replica))
    }

    /// One request and its answer, sealed and opened as a replica does.
    func answer(_ request: SyncRequest) throws -> SyncAnswer {
        let answer = try LogTransport(log: log, account: holder).send(Self.sealer.seal(request), by: .now + .seconds(60)).answer()
        var opened = try Self.sealer.open(answer)
        opened.snapshot = try answer.snapshot.map { try XCTUnwrap(Self.sealer.open($0)) }
        return opened
    }

    /// Operations of a replica that sends what it likes, sealed with the account's key,
    /// as the server would hand them on.
    func inject(_ operations: [(task: String, field: SyncField, value: String)], ahead: Int64 = 0, counter: Int64 = 0) throws {
        let hostile = "00000000000000000000000000000bad"
        let sent = operations.map { task, field, value in
            hostileSeq += 1
            return SyncOperation(
                serverSeq: 0, replica: hostile, seq: hostileSeq, millis: Int64(SQLiteStore.milliseconds()) + ahead, counter: counter,
                task: task, field: field, value: value)
        }
        _ = try log.sync(account: holder, request: Self.sealer.seal(SyncRequest(replica: hostile, after: 0, operations: sent)))
    }
}

/// The log reached as the routes reach it: the request and the answer through the
/// protocol's one codec, a refusal as the status the server gives it.
struct LogTransport: SyncTransport {
    let log: MemoryOperationLog
    let account: TokenHolder

    /// The answer, ready at once.
    struct Reply: SyncReply {
        let result: Result<SyncAnswer, SyncError>
        func answer() throws(SyncError) -> SyncAnswer { try result.get() }
    }

    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        guard ContinuousClock.now < end else { throw .outOfTime }
        do {
            let read = try request.json().withUnsafeBytes { bytes throws(SyncWireError) in try SyncRequest(json: bytes) }
            let answer = try log.sync(account: account, request: read).answer
            return Reply(result: .success(try SyncAnswer(json: answer.json())))
        } catch let refusal as SyncRefusal {
            switch refusal {
            case .replicaTaken: throw .replicaTaken
            case .keyTaken(let key): throw .keyTaken(record: key)
            case .badToken: throw .refusedToken
            case .malformed(let failure): throw .server(status: 400, message: failure.message(in: .english))
            }
        } catch {
            preconditionFailure("the codec reads back what it writes: \(error)")
        }
    }
}

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
        XCTAssertEqual(try b.undo(user), .sync)
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
            (kept.uuid, .notes, String(repeating: "n", count: Limits.notesCharacters + 1).jsonQuoted),
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
        let notes = String(repeating: "n", count: Limits.notesCharacters)
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

    func testRandomOfflineChangesAndSyncOrdersConverge() throws {
        var kept = 0
        for seed in 1...25 {
            kept += try converge(seed: UInt64(seed))
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
        for seed in 1...25 {
            let log = try Account(snapshotsAfter: 4)
            kept += try converge(seed: UInt64(seed), log: log)
            made += log.counts.snapshotsKept
            served += log.counts.snapshotsServed
            dropped += log.counts.dropped
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
    func converge(seed: UInt64, log given: Account? = nil) throws -> Int {
        let log = try given ?? Account()
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
                        try log.inject([(uuid, .title, #""  ""#), ("NOT-A-UUID", .task, "null"), (uuid, .done, "3")])
                        try log.inject([(uuid, .title, #""Stamped ahead""#)], ahead: 50_000, counter: Int64(Int32.max))
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
