import NavStackCore
import NavStackSeal
import NavStackSync
import NavStackSyncClient
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// A task's stamps (created, modified, completed) through sync (docs/sync.md, "Stamps"):
/// a Taskwarrior import reaches the other replica with its `entry`, `modified` and `end`,
/// a store that synced before the stamps travelled sends them at its next sync, and
/// concurrent changes leave every replica the same stamps.
extension SyncMergeTests {
    /// Three records as `task export` prints them: dates of their own, one done.
    static let taskwarriorExport = """
        [{"uuid":"1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e01","description":"Pay rent","status":"pending",\
        "entry":"20240105T093000Z","modified":"20240301T120000Z","due":"20240401T000000Z"},
        {"uuid":"1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e02","description":"Call mom","status":"completed",\
        "entry":"20231201T080000Z","modified":"20240102T101500Z","end":"20240102T101500Z"},
        {"uuid":"1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e03","description":"Fix the bike","status":"pending",\
        "entry":"20230615T170000Z","modified":"20230620T090000Z","tags":["home"]}]
        """

    /// The stamps the records hold, as `stamps(_:)` lists them.
    static let importedStamps = [
        "1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e01 2024-01-05T09:30:00Z 2024-03-01T12:00:00Z -",
        "1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e02 2023-12-01T08:00:00Z 2024-01-02T10:15:00Z 2024-01-02T10:15:00Z",
        "1b1f0a52-6a0a-4a8e-9a55-3d1c2b3a4e03 2023-06-15T17:00:00Z 2023-06-20T09:00:00Z -",
    ]

    func importTaskwarrior(_ store: SQLiteStore) throws {
        let records = try TaskwarriorReader.read(Array(Self.taskwarriorExport.utf8), source: "export.json")
        _ = try store.importTaskwarrior(records, user: user, dryRun: false)
    }

    /// Each task's uuid and stamps (`-` for none), by uuid.
    func stamps(_ store: SQLiteStore) throws -> [String] {
        try store.reading { db in
            try db.prepare("SELECT uuid, created, modified, completed FROM task ORDER BY uuid").all { row in
                ([row.text(0)] + (1...3).map { row.isNull($0) ? "-" : Instant(secondsSinceEpoch: row.int64($0)).iso8601 })
                    .joined(separator: " ")
            }
        }
    }

    /// What `export --to taskwarrior` writes of the store, at `now`.
    func taskwarriorLines(_ store: SQLiteStore, now: Instant) throws -> [String] {
        var text = ""
        try store.exportTasks(to: .taskwarrior, user: user, clock: TaskClock(fixedNow: now)) { text += $0 }
        // One record a line, between the array's brackets.
        return text.split(separator: "\n").map { String($0.hasSuffix(",") ? $0.dropLast() : $0) }.filter { $0 != "[" && $0 != "]" }
    }

    func testATaskwarriorImportReachesTheOtherReplicaWithItsStamps() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        try importTaskwarrior(a)
        XCTAssertEqual(try stamps(a), Self.importedStamps)
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try stamps(b), Self.importedStamps)
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        let exported = try taskwarriorLines(a, now: now)
        XCTAssertEqual(exported.count, 3)
        XCTAssertTrue(exported.allSatisfy { $0.contains(#""entry":""#) && $0.contains(#""modified":""#) }, "\(exported)")
        XCTAssertEqual(try taskwarriorLines(b, now: now), exported)
        // And the same after a snapshot: a replica joining from one gets them too.
        let c = try replica(log)
        try log.sync(c, user)
        XCTAssertEqual(try stamps(c), Self.importedStamps)
    }

    /// Joining from a snapshot, which holds the registers' stamps.
    func testAReplicaJoiningFromASnapshotGetsTheStamps() throws {
        let log = try Account(snapshotsAfter: 2)
        let a = try replica(log)
        try importTaskwarrior(a)
        try log.sync(a, user)
        try log.sync(a, user)
        XCTAssertGreaterThan(log.counts.snapshotsKept, 0, "a snapshot was made")
        let b = try replica(log)
        try log.sync(b, user)
        XCTAssertGreaterThan(log.counts.snapshotsServed, 0, "the new replica joined from it")
        XCTAssertEqual(try stamps(b), Self.importedStamps)
    }

    /// Concurrent changes of one task on two replicas: both end with the same stamps,
    /// those of the change that wins (`modified` the later one's, `completed` that of the
    /// `done` that wins), and a stamp another replica holds never becomes the time of a
    /// sync.
    func testConcurrentChangesLeaveTheSameStampsEverywhere() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        try importTaskwarrior(a)
        try log.sync(a, user)
        try log.sync(b, user)
        let rent = try id(a, "Pay rent"), mom = try id(a, "Call mom")
        a.clock.fixedNow = Instant(secondsSinceEpoch: 1_790_000_000)
        b.clock.fixedNow = Instant(secondsSinceEpoch: 1_790_000_100)
        _ = try a.write(user, id: rent, [.title], from: DraftFields(title: "Pay the rent"), as: .save)
        _ = try a.toggle(user, id: try id(a, "Fix the bike"))
        // Each replica's changes made in milliseconds of their own: their stamps' order.
        Thread.sleep(forTimeInterval: 0.005)
        _ = try b.toggle(user, id: try id(b, "Fix the bike"))
        _ = try b.toggle(user, id: try id(b, "Fix the bike"))
        _ = try b.write(user, id: try id(b, "Pay rent"), [.notes], from: DraftFields(title: "Pay rent", notes: "by card"), as: .save)
        _ = try b.toggle(user, id: try id(b, "Call mom"))
        Thread.sleep(forTimeInterval: 0.005)
        _ = try a.write(user, id: mom, [.notes], from: DraftFields(title: "Call mom", notes: "Sunday"), as: .save)
        for _ in 0..<2 {
            try log.sync(a, user)
            try log.sync(b, user)
        }
        XCTAssertEqual(try tasks(a), try tasks(b))
        XCTAssertEqual(try stamps(a), try stamps(b))
        let held = try stamps(a)
        // Made where they were made, not when they arrived.
        XCTAssertEqual(held.map { $0.split(separator: " ")[1] }, ["2024-01-05T09:30:00Z", "2023-12-01T08:00:00Z", "2023-06-15T17:00:00Z"])
        // B's changes came later: its `modified`, on both tasks both changed.
        XCTAssertEqual(held[0].split(separator: " ")[2], "2026-09-21T14:15:00Z", "\(held)")
        // The bike: open on B (its `done` later), so no `completed` anywhere.
        XCTAssertEqual(held[2].split(separator: " ")[3], "-", "\(held)")
        try assertCountsMatch(b)
    }

    func testAStoreThatSyncedBeforeTheStampsTravelledSendsThemAtItsNextSync() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-stamps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try Account(format: 2)
        var a = try fileReplica(log, folder.appendingPathComponent("a.sqlite").path)
        var b = try fileReplica(log, folder.appendingPathComponent("b.sqlite").path)
        try importTaskwarrior(a)
        // Both synced with an earlier navstack: it sent no stamps, and B wrote the time of
        // its sync on the tasks it received.
        try syncAsEarlierNavstack(log, a)
        try syncAsEarlierNavstack(log, b)
        XCTAssertFalse(
            try log.answer(SyncRequest(replica: String(repeating: "e", count: 32), after: 0, operations: [])).operations
                .contains { StampField($0.field) != nil || $0.value.contains("created") }, "the log holds no stamps")
        let syncedAt = Instant(secondsSinceEpoch: 1_790_000_000).secondsSinceEpoch
        try b.db.run("UPDATE task SET created = ?, modified = ?, completed = iif(done, ?, NULL)", [syncedAt, syncedAt, syncedAt])
        // The upgrade: each store as the earlier navstack left it, opened by this one.
        a = try upgraded(a)
        b = try upgraded(b)
        XCTAssertEqual(try a.db.first("SELECT format FROM sync") { $0.int(0) }, 2)
        // With no step by the user, A's next sync sends its stamps; B's sends none of the
        // times it wrote, and takes A's.
        try log.sync(b, user)
        try log.sync(a, user)
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try stamps(a), Self.importedStamps)
        XCTAssertEqual(try stamps(b), Self.importedStamps)
        XCTAssertEqual(try a.db.first("SELECT format FROM sync") { $0.int(0) }, SyncFormat.current)
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        XCTAssertEqual(try taskwarriorLines(b, now: now), try taskwarriorLines(a, now: now))
        // A replica that joins now gets them from the log.
        let c = try replica(log)
        try log.sync(c, user)
        XCTAssertEqual(try stamps(c), Self.importedStamps)
        a.close()
        b.close()
    }

    /// A store in a file, as a replica of the account.
    func fileReplica(_ log: Account, _ path: String) throws -> SQLiteStore {
        let store = try SQLiteStore(path: path)
        store.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try store.openProfile(user, sample: false)
        try log.join(store, user)
        return store
    }

    /// The store as a navstack from before the stamps travelled would have left it (its
    /// registers without stamps, its schema before v16), closed and opened again.
    func upgraded(_ store: SQLiteStore) throws -> SQLiteStore {
        let path = store.path
        try store.writing { db in
            let profile = try XCTUnwrap(db.first("SELECT profile_id FROM sync") { $0.int64(0) })
            let registers = SyncRegisters(db, profile: profile)
            for var register in try SyncRegisters.all(db, profile: profile) {
                register.taskStamps = TaskStamps()
                register.taskStampsAt = ["", "", ""]
                registers.set(register)
            }
            try registers.write()
        }
        try store.db.execute("ALTER TABLE sync DROP COLUMN format; PRAGMA user_version = 15")
        store.close()
        return try SQLiteStore(path: path)
    }

    /// One sync as an earlier navstack makes it: format 2, no stamps.
    func syncAsEarlierNavstack(_ log: Account, _ store: SQLiteStore) throws {
        var syncer = Syncer(
            store: store, user: user, transport: EarlierTransport(inner: LogTransport(log: log.log, account: log.holder)),
            passphrase: PassphraseSource(given: nil, catalog: .english), catalog: .english)
        syncer.snapshotsAfter = 1_000_000
        _ = try syncer.run(within: .seconds(60))
    }
}

/// The log as a navstack of format 2 reaches it: what it sends holds no stamps (no stamp
/// operation, no stamps on a created task), and it names format 2.
struct EarlierTransport: SyncTransport {
    let inner: LogTransport

    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        var earlier = request
        earlier.format = 2
        let sealed = request.operations.map { operation in
            var named = operation
            named.replica = request.replica
            return named
        }
        let opened = Account.sealer.open(SyncAnswer(operations: sealed, last: 0, more: false)).operations
        var kept: [SyncOperation] = []
        for var operation in opened where StampField(operation.field) == nil {
            if operation.field == .task, let value = JSONValue(parsing: operation.value), var task = SyncTask(value) {
                task.stamps = TaskStamps()
                operation.value = task.json
            }
            operation.replica = ""
            kept.append(operation)
        }
        earlier.operations = Account.sealer.seal(SyncRequest(replica: request.replica, after: 0, operations: kept)).operations
        return try inner.send(earlier, by: end)
    }
}
