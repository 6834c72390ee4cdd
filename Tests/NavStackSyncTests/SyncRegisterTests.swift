import NavStackCore
import XCTest

@testable import NavStackSync

/// The register rules without a store: last writer wins field by field, whatever order
/// operations arrive in; what a replica lost is told; where a task stands is decided
/// from the registers alone.
final class SyncRegisterTests: XCTestCase {
    private let mine = "0123456789abcdef0123456789abcdef"
    private let theirs = "fedcba9876543210fedcba9876543210"

    private func stamp(_ millis: Int, _ replica: String, counter: Int = 0) -> String {
        Stamp.text(millis: millis, counter: counter, replica: replica)
    }

    private func task(_ title: String, parent: String? = nil) -> SyncChange {
        .create(SyncTask(fields: DraftFields(title: title, notes: "", done: false), parent: parent, position: 1))
    }

    /// Registers by uuid, as a replica's store keeps them.
    private struct Registers: SyncRegisterLookup {
        var all: [String: SyncRegister] = [:]
        func register(_ uuid: String) throws -> SyncRegister? { all[uuid] }
    }

    func testStampsSortAsTheirClocksThenReplicas() {
        XCTAssertLessThan(stamp(5, theirs), stamp(6, mine))
        XCTAssertLessThan(stamp(5, mine, counter: 1), stamp(5, mine, counter: 2))
        XCTAssertLessThan(stamp(5, mine), stamp(5, theirs))
        XCTAssertLessThan("", stamp(0, mine))
        XCTAssertEqual(Stamp.replica(of: stamp(5, mine)), Substring(mine))
    }

    /// A stamp's text is its millis in 15 digits and counter in 10, zero-padded (as SQL's
    /// `printf('%015d%010d%s')` writes it), then the replica; a number too long for its
    /// width keeps every digit, and one below zero is written as zero.
    func testAStampsTextIsItsPaddedNumbersThenTheReplica() {
        func reference(_ millis: Int, _ counter: Int, _ replica: String) -> String {
            func padded(_ value: Int, _ width: Int) -> String {
                let digits = String(max(0, value))
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return padded(millis, 15) + padded(counter, 10) + replica
        }
        XCTAssertEqual(stamp(1_700_000_000_123, mine, counter: 42), "0017000000001230000000042" + mine)
        let numbers = [
            0, 1, 9, 10, 99, 100, 1_234_567_890, 9_999_999_999, 10_000_000_000, 999_999_999_999_999,
            1_000_000_000_000_000, Int.max, -1, Int.min,
        ]
        for millis in numbers {
            for counter in numbers {
                for replica in [mine, "", "é"] {
                    XCTAssertEqual(Stamp.text(millis: millis, counter: counter, replica: replica), reference(millis, counter, replica))
                }
            }
        }
        // A stamp's parts are read as `Int(_:)` reads their text, whatever the text holds.
        func referenceParts(_ text: String) -> (Int, Int)? {
            let utf8 = Array(text.utf8)
            guard utf8.count >= 25, let millis = Int(String(decoding: utf8[0..<15], as: UTF8.self)),
                let counter = Int(String(decoding: utf8[15..<25], as: UTF8.self))
            else { return nil }
            return (millis, counter)
        }
        let texts = [
            stamp(1_700_000_000_123, mine, counter: 42), stamp(0, ""), "000000000000001000000000", "-00000000000001+000000001r",
            "+00000000000001-000000000", "-0000000000000-0000000000", "00000000000000 0000000001", "0000000000000é00000000001",
            "00000000000000100000000é1", "000000000000001000000000x", "+" + String(repeating: "0", count: 24), "",
            "١٢٣٤٥٦٧٨٩٠١٢٣٤٥0000000001", String(repeating: "9", count: 25) + mine,
        ]
        for text in texts + [Substring(mine + mine).dropFirst(3)].map(String.init) {
            let got = Stamp.parts(of: text)
            let want = referenceParts(text)
            XCTAssertEqual(got?.millis, want?.0, text)
            XCTAssertEqual(got?.counter, want?.1, text)
            XCTAssertEqual(got == nil, want == nil, text)
        }
        let parts = Stamp.parts(of: stamp(1_700_000_000_123, theirs, counter: 7))
        XCTAssertEqual(parts?.millis, 1_700_000_000_123)
        XCTAssertEqual(parts?.counter, 7)
        XCTAssertEqual(Stamp.replica(of: stamp(5, theirs)), Substring(theirs))
    }

    func testTheLaterWriteWinsInEitherOrder() {
        let changes: [(SyncChange, String, String)] = [
            (task("Milk"), stamp(1, mine), mine),
            (.field(.title, .text("Oat milk"), old: .text("Milk")), stamp(3, theirs), theirs),
            (.field(.title, .text("Soy milk"), old: .text("Milk")), stamp(2, mine), mine),
            (.field(.done, .flag(true), old: .flag(false)), stamp(2, theirs), theirs),
        ]
        var forward = SyncRegister(uuid: "u")
        for (change, at, _) in changes { _ = forward.apply(change, at: at, replica: mine) }
        var backward = SyncRegister(uuid: "u")
        for (change, at, _) in changes.reversed() { _ = backward.apply(change, at: at, replica: mine) }
        XCTAssertEqual(forward, backward)
        XCTAssertEqual(forward.fields, DraftFields(title: "Oat milk", notes: "", done: true))
        XCTAssertTrue(forward.alive)
    }

    func testALocalValueReplacedUnseenIsReportedLost() {
        var register = SyncRegister(uuid: "u")
        _ = register.apply(task("Milk"), at: stamp(1, mine), replica: mine)
        _ = register.apply(.field(.title, .text("Soy milk"), old: .text("Milk")), at: stamp(2, mine), replica: mine)
        // The other writer had not seen "Soy milk": it replaced "Milk".
        XCTAssertEqual(
            register.apply(
                .field(.title, .text("Oat milk"), old: .text("Milk")), at: stamp(3, theirs),
                replica: mine), ["title"])
        // One that had seen it loses nothing of ours.
        _ = register.apply(.field(.notes, .text("mine"), old: .text("")), at: stamp(4, mine), replica: mine)
        XCTAssertEqual(
            register.apply(
                .field(.notes, .text("theirs"), old: .text("mine")), at: stamp(5, theirs),
                replica: mine), [])
    }

    func testADeleteWinsOverEarlierChangesAndALaterCreateBringsTheTaskBack() {
        var register = SyncRegister(uuid: "u")
        _ = register.apply(task("Milk"), at: stamp(1, theirs), replica: mine)
        _ = register.apply(.delete(old: nil), at: stamp(4, theirs), replica: mine)
        _ = register.apply(.field(.title, .text("late"), old: nil), at: stamp(3, mine), replica: mine)
        XCTAssertFalse(register.alive)
        XCTAssertEqual(register.fields.title, "late", "a field change still counts, for a later re-creation")
        _ = register.apply(task("Again"), at: stamp(5, mine), replica: mine)
        XCTAssertTrue(register.alive)
        XCTAssertEqual(register.fields.title, "Again")
    }

    func testAParentGoneOrACycleDecidesWhereATaskStands() throws {
        var registers = Registers()
        func add(_ uuid: String, parent: String?, at millis: Int, old: String? = nil) {
            var register = registers.all[uuid] ?? SyncRegister(uuid: uuid)
            _ = register.apply(task(uuid, parent: nil), at: stamp(1, mine), replica: mine)
            _ = register.apply(.parent(parent, old: old), at: stamp(millis, mine), replica: mine)
            registers.all[uuid] = register
        }
        var queue: [String] = []
        add("a", parent: nil, at: 2)
        add("b", parent: "a", at: 2)
        XCTAssertEqual(try registers.all["b"]!.effectiveParent(in: registers, queue: &queue), "a")
        XCTAssertNil(try SyncRegister(uuid: "c").effectiveParent(in: registers, queue: &queue))
        var orphan = SyncRegister(uuid: "d")
        orphan.parent = "gone"
        XCTAssertNil(try orphan.effectiveParent(in: registers, queue: &queue), "a parent never known stands at the top")
        // a under b and b under a: the later move (a's) goes back where it came from.
        add("a", parent: "b", at: 3, old: "x")
        add("x", parent: nil, at: 1)
        XCTAssertEqual(try registers.all["a"]!.effectiveParent(in: registers, queue: &queue), "x")
        XCTAssertEqual(try registers.all["b"]!.effectiveParent(in: registers, queue: &queue), "a")
        // A chain deeper than the limit: the task past it goes to the top. n0 is the
        // first level, n99 the last one allowed.
        registers = Registers()
        add("n0", parent: nil, at: 2)
        for level in 1...TreeLimits.depth { add("n\(level)", parent: "n\(level - 1)", at: 2) }
        let last = TreeLimits.depth - 1
        XCTAssertEqual(try registers.all["n\(last)"]!.effectiveParent(in: registers, queue: &queue), "n\(last - 1)")
        XCTAssertNil(try registers.all["n\(last + 1)"]!.effectiveParent(in: registers, queue: &queue))
    }
}

/// The clock never fails, whatever stamps it sees.
final class SyncClockTests: XCTestCase {
    func testTheClockMovesOnPastTheLargestCounterAndNeverOverflows() {
        var clock = SyncClock()
        clock.observe(millis: 1_700_000_000_000, counter: Int(Int32.max))
        XCTAssertEqual(clock.tick(5).millis, 1_700_000_000_001, "past the largest counter, the next millisecond")
        XCTAssertEqual(clock.counter, 0)
        clock.observe(millis: Int.max, counter: Int.max)
        XCTAssertEqual(clock.counter, SyncClock.maximumCounter)
        let stamp = clock.tick(5)
        XCTAssertEqual(stamp.millis, Int.max)
        XCTAssertLessThanOrEqual(stamp.counter, SyncClock.maximumCounter)
        var later = SyncClock(millis: 10, counter: 3)
        XCTAssertEqual(later.tick(10).counter, 4)
        XCTAssertEqual(later.tick(11).counter, 0)
    }

    func testADriftReadsAsAPersonSaysIt() {
        XCTAssertEqual(SyncDrift.words(millis: 61_000), "61 s")
        XCTAssertEqual(SyncDrift.words(millis: 12 * 60_000), "12 min")
        XCTAssertEqual(SyncDrift.words(millis: 3 * 3_600_000 + 5), "3 h")
        XCTAssertEqual(SyncDrift.words(millis: 3 * 3_600_000 - 40), "3 h", "3 h ahead, measured a moment later")
        XCTAssertEqual(SyncDrift.words(millis: 119_700), "2 min")
        XCTAssertEqual(SyncDrift.words(millis: 119 * 60_000 + 45_000), "2 h")
        XCTAssertEqual(SyncDrift.words(millis: Int.max), "106751991167 days")
        XCTAssertEqual(SyncDrift.words(millis: 5 * 365 * 86_400_000), "1825 days")
    }
}
