import NavStackCore
import NavStackTime
import TestSeeds
import XCTest

@testable import NavStackSync

/// Snapshots without a store or a server: their content reads back as written, anything
/// else is refused whole, and merging one does what applying the operations it stands
/// for does.
final class SyncSnapshotTests: XCTestCase {
    private let replicas = ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210", "00000000000000000000000000000bad"]

    private func uuid(_ n: Int) -> String { String(format: "01a2b3c4-0000-7000-8000-%012x", n) }

    /// Operations on a few tasks from three replicas, at random but repeatable: creates,
    /// deletes, every field, moves.
    private func operations(seed: UInt64, count: Int) -> [(SyncChange, String, String)] {
        var random = SplitMix64(state: seed)
        var result: [(SyncChange, String, String)] = []
        for index in 0..<count {
            let number = Int(random.next() % 6)
            let task = uuid(number)
            // Another task: none is its own parent (every replica refuses that).
            func other() -> String { uuid((number + 1 + Int(random.next() % 5)) % 6) }
            let replica = replicas[Int(random.next() % 3)]
            // Out of order, and never the same stamp twice (a replica's clock moves on).
            let stamp = Stamp.text(millis: 1_700_000_000_000 + Int(random.next() % 50), counter: index, replica: replica)
            let change: SyncChange
            // A stamp's instant, or none (format 3).
            func instant() -> Instant? {
                random.next() % 4 == 0 ? nil : Instant(secondsSinceEpoch: 1_700_000_000 + Int64(random.next() % 100_000))
            }
            switch random.next() % 8 {
            case 0:
                change = .create(
                    SyncTask(
                        fields: DraftFields(title: "Task \(index) ✓", notes: index % 2 == 0 ? "" : "notes\t\(index)", done: index % 3 == 0),
                        parent: random.next() % 2 == 0 ? nil : other(), position: Int(random.next() % 9) - 4,
                        stamps: TaskStamps(created: instant(), modified: instant(), completed: instant())))
            case 7: change = .stamp(StampField.allCases[Int(random.next() % 3)], instant())
            case 1: change = .delete(old: nil)
            case 2: change = .field(.title, .text("Title \(index)"), old: nil)
            case 3: change = .field(.notes, .text("Ñotes \(index)"), old: nil)
            case 4: change = .field(.done, .flag(random.next() % 2 == 0), old: nil)
            case 5: change = .parent(random.next() % 3 == 0 ? nil : other(), old: other())
            default: change = .position(Int(random.next() % 1000) - 500)
            }
            result.append((change, stamp, task))
        }
        return result
    }

    private func registers(_ operations: some Sequence<(SyncChange, String, String)>) -> [String: SyncRegister] {
        var registers: [String: SyncRegister] = [:]
        for (change, stamp, task) in operations {
            var register = registers[task] ?? SyncRegister(uuid: task)
            _ = register.apply(change, at: stamp, replica: replicas[0])
            registers[task] = register
        }
        return registers
    }

    func testContentReadsBackAsWritten() throws {
        forEachSeed(1...50) { seed in
            let written = registers(operations(seed: seed, count: 40)).values.sorted { $0.uuid < $1.uuid }
            let read = try SyncSnapshot.registers(from: SyncSnapshot.content(of: written))
            XCTAssertEqual(read, written, "seed \(seed)")
        }
        XCTAssertEqual(try SyncSnapshot.registers(from: SyncSnapshot.content(of: [])), [])
    }

    /// Any position an operation can set, and a move's `old` that is not a task id (read as
    /// none by every replica, in an operation as in a snapshot), come back as a replica
    /// that applied the operations holds them.
    func testExtremePositionsAndAMovesOldThatIsNotATaskIDReadAsOperationsDo() throws {
        let stamp = Stamp.text(millis: 5, counter: 0, replica: replicas[0])
        var registers: [SyncRegister] = []
        for (index, position) in [Int.min, Int.min + 1, -(1 << 62) - 1, -1, 0, 1, 1 << 62, Int.max].enumerated() {
            var register = SyncRegister(uuid: uuid(index))
            _ = register.apply(.position(position), at: stamp, replica: replicas[0])
            registers.append(register)
        }
        XCTAssertEqual(try SyncSnapshot.registers(from: SyncSnapshot.content(of: registers)), registers)
        let move = SyncOperation(
            seq: 1, millis: 5, counter: 0, task: uuid(1), field: .parent, value: "\"\(uuid(2))\"", old: #""junk""#)
        var applied = SyncRegister(uuid: uuid(1))
        _ = applied.apply(try XCTUnwrap(SyncChange(move)), at: stamp, replica: replicas[0])
        XCTAssertNil(applied.parentOld, "an operation's old parent that is not a task id is none")
        var written = applied
        written.parentOld = "junk"
        XCTAssertEqual(try SyncSnapshot.registers(from: SyncSnapshot.content(of: [written])), [applied])
    }

    /// Stamps of one clock time from different replicas stay each their own, however
    /// they follow one another in a register and from one register to the next.
    func testStampsOfOneTimeFromSeveralReplicasReadBackApart() throws {
        var registers: [SyncRegister] = []
        for index in 0..<4 {
            var register = SyncRegister(uuid: uuid(index))
            let stamps = (0..<3).map { Stamp.text(millis: 5, counter: 1, replica: replicas[($0 + index) % 3]) }
            _ = register.apply(
                .create(SyncTask(fields: DraftFields(title: "T\(index)", notes: "", done: false), parent: nil, position: index)),
                at: stamps[0], replica: replicas[0])
            _ = register.apply(.field(.title, .text("Retitled"), old: nil), at: stamps[1], replica: replicas[0])
            _ = register.apply(.position(9), at: stamps[2], replica: replicas[0])
            registers.append(register)
        }
        let read = try SyncSnapshot.registers(from: SyncSnapshot.content(of: registers))
        XCTAssertEqual(read, registers)
        XCTAssertEqual(Set(read.flatMap(\.stamps)).count, 3, "one time, three replicas")
    }

    /// ``SyncSnapshot/mayFit(registers:textBytes:)`` counts no more than the content takes:
    /// a snapshot it refuses could not have fitted.
    func testTheSizeEstimateIsAtMostTheContent() {
        forEachSeed(1...50) { seed in
            let written = Array(registers(operations(seed: seed, count: 40)).values)
            let texts = written.reduce(0) { total, register in
                total + register.uuid.utf8.count + register.fields.title.utf8.count + register.fields.notes.utf8.count
                    + (register.parent?.utf8.count ?? 0) + (register.parentOld?.utf8.count ?? 0)
            }
            XCTAssertGreaterThanOrEqual(SyncSnapshot.content(of: written).count, texts + 40 * written.count, "seed \(seed)")
        }
        XCTAssertTrue(SyncSnapshot.mayFit(registers: 10_000, textBytes: 700_000))
        XCTAssertFalse(SyncSnapshot.mayFit(registers: 100_000, textBytes: 3_000_000))
    }

    /// A snapshot of the registers some operations made, merged into the registers the
    /// others made (in either order), is the registers all of them make.
    func testMergingASnapshotIsApplyingTheOperationsItStandsFor() {
        forEachSeed(1...200) { seed in
            let all = operations(seed: seed, count: 30)
            let split = Int(seed % 30)
            let whole = registers(all)
            let before = registers(all[..<split])
            let after = registers(all[split...])
            for (base, snapshot) in [(before, after), (after, before)] {
                var merged = base
                for (uuid, register) in snapshot {
                    var mine = merged[uuid] ?? SyncRegister(uuid: uuid)
                    _ = mine.merge(register, replica: replicas[0])
                    merged[uuid] = mine
                }
                XCTAssertEqual(merged, whole, "seed \(seed), split at \(split)")
            }
        }
    }

    func testAValueOfThisReplicasThatASnapshotReplacesIsTold() {
        var mine = SyncRegister(uuid: uuid(1))
        _ = mine.apply(
            .create(SyncTask(fields: DraftFields(title: "Mine"), parent: nil, position: 1)),
            at: Stamp.text(millis: 10, counter: 0, replica: replicas[0]), replica: replicas[0])
        var theirs = mine
        theirs.fields.title = "Theirs"
        theirs.fieldsAt[0] = Stamp.text(millis: 20, counter: 0, replica: replicas[1])
        XCTAssertEqual(mine.merge(theirs, replica: replicas[0]), ["title"])
        XCTAssertEqual(mine.fields.title, "Theirs")
        XCTAssertEqual(mine.merge(theirs, replica: replicas[0]), [], "merging again changes nothing")
    }

    func testContentThatIsNotRegistersTheAppWouldHoldIsRefusedWhole() {
        var good = SyncRegister(uuid: uuid(1))
        good.alive = true
        good.aliveAt = Stamp.text(millis: 5, counter: 0, replica: replicas[0])
        good.fields = DraftFields(title: "Fine")
        for index in 0..<3 { good.fieldsAt[index] = good.aliveAt }
        let bytes = SyncSnapshot.content(of: [good])
        XCTAssertNoThrow(try SyncSnapshot.registers(from: bytes))
        func refused(_ registers: [SyncRegister], _ what: String) {
            XCTAssertThrowsError(try SyncSnapshot.registers(from: SyncSnapshot.content(of: registers)), what)
        }
        var blank = good
        blank.fields.title = "  "
        refused([blank], "a blank title")
        var control = good
        control.fields.notes = "bell\u{7}"
        refused([control], "a control character")
        var notUUID = good
        notUUID.uuid = "NOT-A-UUID"
        refused([notUUID], "a task id that is not a uuid")
        var ownParent = good
        ownParent.parent = good.uuid
        refused([ownParent], "a task under itself")
        refused([good, good], "a task twice")
        var unset = SyncRegister(uuid: uuid(2))
        unset.fields.title = "set by nothing"
        refused([unset], "a value no stamp set")
        for (changed, what) in [
            ([UInt8](), "nothing"),
            (Array(bytes.dropLast()), "cut short"),
            (bytes + [0], "bytes past the end"),
            ([3] + bytes.dropFirst(), "another version"),
            ([1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], "a count past Int64"),
            ([1, 0, 0x80, 0x80, 0x80, 0x80, 0x04], "more registers than bytes"),
        ] {
            XCTAssertThrowsError(try SyncSnapshot.registers(from: changed), what)
        }
        // Every byte flipped in turn: refused or read, never a crash; what reads is held to the rules.
        for index in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                if let read = try? SyncSnapshot.registers(from: flipped) {
                    XCTAssertTrue(read.allSatisfy(\.holdsWhatTheAppTakes), "byte \(index) bit \(bit)")
                }
            }
        }
    }

    func testASnapshotTravelsInRequestsAndAnswers() throws {
        var request = SyncRequest(
            replica: replicas[0], after: 41, operations: [], snapshot: SyncSnapshot(seq: 41, sealed: "c2VhbGVk"))
        request.ownSeq = 7
        let bytes = request.json()
        XCTAssertEqual(try SyncRequest(json: bytes), request)
        let answer = SyncAnswer(
            operations: [], last: 50, more: false, key: "k", snapshot: SyncSnapshot(seq: 41, sealed: "c2VhbGVk"), sinceSnapshot: 9)
        XCTAssertEqual(try SyncAnswer(json: answer.json()), answer)
        func refusal(_ body: String) -> SyncWireError? {
            do {
                _ = try SyncRequest(json: Array(body.utf8))
                return nil
            } catch {
                return error
            }
        }
        let head = #"{"replica":"\#(replicas[0])","after":41,"#
        let operation = #"{"seq":1,"millis":1,"counter":0,"sealed":"c2VhbGVk"}"#
        XCTAssertEqual(
            refusal(head + #""ops":[\#(operation)],"snapshot":{"seq":41,"sealed":"c2VhbGVk"},"own_seq":0}"#),
            .snapshotWithOperations)
        XCTAssertEqual(refusal(head + #""ops":[],"snapshot":{"seq":41,"sealed":"c2VhbGVk"}}"#), .missing(path: "own_seq"))
        XCTAssertEqual(refusal(head + #""ops":[],"snapshot":{"seq":41},"own_seq":0}"#), .missing(path: "snapshot.sealed"))
        XCTAssertEqual(
            refusal(head + #""ops":[],"snapshot":{"seq":0,"sealed":"c2VhbGVk"},"own_seq":0}"#),
            .notAWholeNumber(path: "snapshot.seq", range: 1...Int64.max))
        XCTAssertEqual(
            refusal(head + #""ops":[],"snapshot":{"seq":4,"sealed":"not base64!"},"own_seq":0}"#),
            .badSealed(path: "snapshot.sealed"))
        XCTAssertEqual(refusal(head + #""ops":[],"snapshot":[],"own_seq":0}"#), .notAnObject(path: "snapshot"))
        let old = try SyncRequest(json: Array((head + #""ops":[]}"#).utf8))
        XCTAssertFalse(old.takesSnapshots, "a request without \"snapshots\" is from a client that does not take them")
    }
}
