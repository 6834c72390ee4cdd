import NavStackCore
import NavStackSeal
import NavStackSync
import NavStackSyncClient
import NavStackTime
import TestSeeds
import XCTest

@testable import NavStackSQLite

/// The property tests: replicas that change tasks at random and sync in a random order
/// converge, with snapshots or without.
extension SyncMergeTests {
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
            let log = try Account(snapshotsAfter: 4)
            kept += try converge(seed: seed, log: log)
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
                switch random.next() % 18 {
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
                    // The copy's undo history is the original's: its undo may take away
                    // what the original added.
                    added.append(added[which])
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
                case 12:
                    // Tags and annotations, which merge as sets: an add or a removal of one.
                    if let pick, var fields = try store.task(user, id: pick)?.fields {
                        let tag = ["home", "Work", "errand", "work"][Int(random.next() % 4)]
                        fields.tags = TagChange.change([(random.next() % 3 != 0, tag)]).applied(to: fields.tags)
                        if random.next() % 3 == 0 {
                            fields.annotations.append(Annotation(entry: Instant(secondsSinceEpoch: Int64(random.next() % 100)), text: "a"))
                        }
                        _ = try store.write(user, id: pick, [.tags, .annotations], from: fields, as: .save)
                    }
                case 13:
                    // A date, a priority and a project: last writer wins.
                    if let pick, var fields = try store.task(user, id: pick)?.fields {
                        fields.due = random.next() % 3 == 0 ? nil : Instant(secondsSinceEpoch: Int64(random.next() % 1000) * 86_400)
                        fields.priority = [nil, .high, .low][Int(random.next() % 3)]
                        fields.project = [nil, "home", "work.q4"][Int(random.next() % 3)]
                        _ = try store.write(user, id: pick, [.due, .priority, .project], from: fields, as: .save)
                    }
                case 14:
                    // A series: daily, weekly or monthly from a day of 2027.
                    let rule = ["daily", "weekly", "monthly", "weekdays"][Int(random.next() % 4)]
                    let due = Instant(secondsSinceEpoch: 1_798_761_600 + Int64(random.next() % 300) * 86_400)
                    added[which].append(
                        try store.insertAtTop(
                            user, DraftFields(title: "s\(random.next() % 1000)", due: due, recur: rule), under: nil, as: .add
                        )
                        .uuid)
                case 15, 16:
                    // An open instance of a series marked done (its next one made), or a done
                    // one marked open again (its next one taken back).
                    let instances = try store.reading { db in
                        try db.prepare("SELECT id FROM task WHERE recur IS NOT NULL ORDER BY done, id").all { $0.int(0) }
                    }
                    if !instances.isEmpty {
                        let index = random.next() % 3 == 0 ? Int(random.next() % UInt64(instances.count)) : 0
                        _ = try store.toggle(user, id: instances[index])
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
        // One open instance in each series, on every replica.
        for store in stores {
            let open = try store.reading { db in
                try db.prepare("SELECT uuid FROM task WHERE done = 0 AND recur IS NOT NULL AND due IS NOT NULL").all { $0.text(0) }
            }
            let series = Dictionary(grouping: open, by: SQLiteStore.seriesKey(of:))
            for (_, instances) in series where instances.count > 1 {
                XCTFail("seed \(seed): one series has \(instances.count) open instances: \(instances)")
            }
        }
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
