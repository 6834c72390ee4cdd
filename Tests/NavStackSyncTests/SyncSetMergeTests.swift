import NavStackCore
import NavStackTime
import TestSeeds
import XCTest

@testable import NavStackSync

/// Tags, annotations and dependencies merge as sets: what replicas add concurrently is
/// kept everywhere, a removal takes away only what its replica had seen, and the same
/// operations in any order give the same set.
final class SyncSetMergeTests: XCTestCase {
    private let replicas = ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210", "00000000000000000000000000000bad"]
    private let task = "01a2b3c4-0000-7000-8000-000000000001"

    private func stamp(_ millis: Int, _ replica: Int) -> String {
        Stamp.text(millis: 1_700_000_000_000 + millis, counter: 0, replica: replicas[replica])
    }

    private func tags(_ words: String...) -> FieldValue { .words(TaskWords.tagSet(words)) }

    /// A register with the task made at 1 by the first replica, tagged `home`.
    private func created() -> SyncRegister {
        var register = SyncRegister(uuid: task)
        _ = register.apply(
            .create(SyncTask(fields: DraftFields(title: "T", tags: ["home"]), parent: nil, position: 0)), at: stamp(1, 0),
            replica: replicas[0])
        return register
    }

    func testConcurrentAddsAreKeptOnBothReplicas() {
        // Both saw {home}; one adds work, the other errand, offline.
        let adds: [(SyncChange, String)] = [
            (.field(.tags, tags("home", "work"), old: tags("home")), stamp(5, 0)),
            (.field(.tags, tags("home", "errand"), old: tags("home")), stamp(6, 1)),
        ]
        for order in [adds, adds.reversed()] {
            var register = created()
            for (change, at) in order { _ = register.apply(change, at: at, replica: replicas[0]) }
            XCTAssertEqual(register.fields.tags, ["errand", "home", "work"])
        }
    }

    func testARemovalRemovesOnlyWhatItsReplicaHadSeen() {
        // One replica removes home (it saw {home}); the other, concurrently, adds work.
        let changes: [(SyncChange, String)] = [
            (.field(.tags, tags(), old: tags("home")), stamp(7, 0)),
            (.field(.tags, tags("home", "work"), old: tags("home")), stamp(6, 1)),
        ]
        for order in [changes, changes.reversed()] {
            var register = created()
            for (change, at) in order { _ = register.apply(change, at: at, replica: replicas[0]) }
            XCTAssertEqual(register.fields.tags, ["work"], "work, which the removing replica never saw, stays")
        }
        // A later add of what was removed brings it back; an earlier one does not.
        var register = created()
        _ = register.apply(.field(.tags, tags(), old: tags("home")), at: stamp(7, 0), replica: replicas[0])
        _ = register.apply(.field(.tags, tags("home"), old: tags()), at: stamp(3, 1), replica: replicas[0])
        XCTAssertEqual(register.fields.tags, [])
        _ = register.apply(.field(.tags, tags("Home"), old: tags()), at: stamp(9, 1), replica: replicas[0])
        XCTAssertEqual(register.fields.tags, ["Home"], "kept as typed last, matched without case")
    }

    func testAnnotationsAndDependenciesMergeAlike() {
        let first = Annotation(entry: Instant(secondsSinceEpoch: 100), text: "called")
        let second = Annotation(entry: Instant(secondsSinceEpoch: 200), text: "paid")
        let other = "01a2b3c4-0000-7000-8000-000000000009"
        var register = created()
        _ = register.apply(.field(.annotations, .annotations([first]), old: .annotations([])), at: stamp(4, 0), replica: replicas[0])
        _ = register.apply(.field(.annotations, .annotations([second]), old: .annotations([])), at: stamp(4, 1), replica: replicas[0])
        _ = register.apply(.field(.depends, .words([other]), old: .words([])), at: stamp(5, 2), replica: replicas[0])
        XCTAssertEqual(register.fields.annotations, [first, second], "both, oldest first")
        XCTAssertEqual(register.fields.depends, [other])
    }

    /// Random adds and removals from three replicas, each computed against what that
    /// replica had seen, applied in random orders: every order gives the same register,
    /// and a snapshot of it (removed elements too) reads back and merges to the same.
    func testAnyOrderGivesTheSameSetAndSnapshotsCarryIt() {
        forEachSeed(1...100) { seed in
            var random = SplitMix64(state: seed)
            let pool = ["a", "B", "c", "d-1", "e_2"]
            var seen = [created(), created(), created()]
            var operations: [(SyncChange, String)] = []
            for index in 0..<12 {
                let replica = Int(random.next() % 3)
                let old = seen[replica].fields.tags
                let word = pool[Int(random.next() % UInt64(pool.count))]
                let new = TagChange.change([(random.next() % 3 != 0, word)]).applied(to: old)
                let change = SyncChange.field(.tags, .words(new), old: .words(old))
                let at = stamp(10 + index, replica)
                _ = seen[replica].apply(change, at: at, replica: replicas[replica])
                operations.append((change, at))
                // Now and then a replica catches up with another's operations so far.
                if random.next() % 3 == 0 {
                    let other = Int(random.next() % 3)
                    for (change, at) in operations { _ = seen[other].apply(change, at: at, replica: replicas[other]) }
                }
            }
            var expected: SyncRegister?
            for _ in 0..<4 {
                var order = operations
                for index in order.indices.reversed() { order.swapAt(index, Int(random.next() % UInt64(index + 1))) }
                var register = created()
                for (change, at) in order { _ = register.apply(change, at: at, replica: replicas[0]) }
                if let expected { XCTAssertEqual(register, expected, "seed \(seed)") } else { expected = register }
            }
            guard let expected else { return }
            XCTAssertEqual(try SyncSnapshot.registers(from: SyncSnapshot.content(of: [expected])), [expected], "seed \(seed)")
            var merged = created()
            _ = merged.merge(expected, replica: replicas[0])
            XCTAssertEqual(merged.fields.tags, expected.fields.tags, "seed \(seed)")
        }
    }
}
