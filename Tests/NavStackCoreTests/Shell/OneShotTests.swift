import NavStackCore
import NavStackSQLite
import NavStackTime
import XCTest

/// The shell's one-shot changes: IDs, `add`'s and `modify`'s words, what each says, and
/// that a failure changes nothing.
final class OneShotTests: XCTestCase {
    private var store: SQLiteStore!

    override func setUpWithError() throws {
        store = try SQLiteStore(path: nil)
        store.clock = testClock
        try store.openProfile("ana", sample: false)
    }

    @discardableResult
    private func run(_ verb: OneShot.Verb, _ words: String..., user: String = "ana") throws -> OneShot.Report {
        try OneShot(verb, words).run(user: user, store: store, clock: testClock, catalog: .english)
    }

    private func task(_ id: Int) throws -> TaskItem {
        try XCTUnwrap(try store.task("ana", id: id))
    }

    func testAddSaysWhatItAddedAndTakesAttributes() throws {
        let report = try run(.add, "Buy", "bread", "due:tomorrow", "+shop")
        XCTAssertEqual(report.lines, ["added 1 \"Buy bread\""])
        XCTAssertEqual(try task(1).title, "Buy bread")
        XCTAssertEqual(try task(1).fields.tags, ["shop"])
        XCTAssertEqual(try task(1).fields.due, Instant(iso8601: "2026-11-28T00:00:00Z"))
        XCTAssertTrue(report.objects[0].hasPrefix("{\"id\":1,\"uuid\":\""), report.objects[0])
        // A title that is only attributes is refused: nothing is added.
        XCTAssertThrowsError(try run(.add, "due:today")) { XCTAssertEqual($0 as? NavError, .badValue(.blank(.title))) }
        XCTAssertThrowsError(try run(.add, "x", "due:nonsense")) { XCTAssertEqual($0 as? NavError, .badDate("nonsense")) }
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 1, done: 0))
    }

    func testAddMakesAProfileThatDoesNotExistYet() throws {
        XCTAssertEqual(try run(.add, "First", user: "bo").lines, ["added 1 \"First\""])
        XCTAssertEqual(try store.counts("bo"), TaskCounts(open: 1, done: 0))
    }

    func testIDsAreNumbersUUIDsAndTheirStarts() throws {
        _ = try store.importTasks(
            [
                ImportRecord(DraftFields(title: "One"), uuid: "5f0c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f"),
                ImportRecord(DraftFields(title: "Two"), uuid: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"),
            ], user: "ana")
        let two = try task(2)
        XCTAssertEqual(two.title, "Two")
        XCTAssertEqual(try TaskReference.task("2", of: "ana", in: store).uuid, two.uuid)
        XCTAssertEqual(try TaskReference.task(two.uuid, of: "ana", in: store).id, 2)
        XCTAssertEqual(try TaskReference.task(two.uuid.uppercased(), of: "ana", in: store).id, 2)
        XCTAssertEqual(try TaskReference.task("a1b2c3d4", of: "ana", in: store).id, 2)
        // Dashes may be left out of a longer start.
        XCTAssertEqual(try TaskReference.task("A1B2C3D4E5F64A", of: "ana", in: store).id, 2)
        XCTAssertThrowsError(try TaskReference.task("a1b2c3d5", of: "ana", in: store)) {
            XCTAssertEqual($0 as? NavError, .noSuchTask("a1b2c3d5"))
        }
        XCTAssertThrowsError(try TaskReference.task("3", of: "ana", in: store)) { XCTAssertEqual($0 as? NavError, .noSuchTask("3")) }
        // Digits of 8 or more that no task's id is are the start of a uuid.
        _ = try store.importTasks([ImportRecord(DraftFields(title: "Three"), uuid: "12345678-0000-4000-8000-000000000000")], user: "ana")
        XCTAssertEqual(try TaskReference.task("12345678", of: "ana", in: store).title, "Three")
        for bad in ["0", "-1", "abc", "12x45678", "", "a1b2c3d", String(repeating: "a", count: 33)] {
            XCTAssertThrowsError(try TaskReference(parsing: bad), bad) {
                XCTAssertEqual($0 as? NavError, .badTaskReference(bad.escapedForDisplay), bad)
            }
        }
        // Another profile's task is not this one's.
        XCTAssertThrowsError(try TaskReference.task(two.uuid, of: "bo", in: store))
    }

    func testAnAmbiguousStartListsTheMatches() throws {
        // Two tasks whose uuids share their first 8 digits, from an import.
        _ = try store.importTasks(
            [
                ImportRecord(DraftFields(title: "A"), uuid: "0000aaaa-0000-4000-8000-000000000001"),
                ImportRecord(DraftFields(title: "B"), uuid: "0000aaaa-0000-4000-8000-000000000002"),
            ], user: "ana")
        XCTAssertThrowsError(try run(.done, "0000aaaa")) {
            XCTAssertEqual(
                $0 as? NavError,
                .ambiguousTaskReference(
                    "0000aaaa", matches: ["1 0000aaaa-0000-4000-8000-000000000001", "2 0000aaaa-0000-4000-8000-000000000002"]))
        }
        // Its whole uuid, dashes left out, names one.
        XCTAssertEqual(try run(.done, "0000AAAA000040008000000000000002").lines, ["completed 2 \"B\""])
    }

    func testDoneSaysWhatItDidAndFailsWholeOnABadID() throws {
        try run(.add, "One")
        try run(.add, "Two")
        XCTAssertThrowsError(try run(.done, "1", "9")) { XCTAssertEqual($0 as? NavError, .noSuchTask("9")) }
        XCTAssertFalse(try task(1).done, "a bad ID changes nothing")
        XCTAssertEqual(try run(.done, "1", "2", "1").lines, ["completed 1 \"One\"", "completed 2 \"Two\""])
        XCTAssertEqual(try run(.done, "2").lines, ["2 \"Two\" was done already"])
        XCTAssertEqual(try run(.undo).lines, ["undid toggle of 2 \"Two\""])
        XCTAssertFalse(try task(2).done)
        XCTAssertEqual(try run(.redo).lines, ["redid toggle of 2 \"Two\""])
        XCTAssertTrue(try task(2).done)
    }

    func testModifyChangesSetsClearsAndRetitlesInOneUndoableChange() throws {
        try run(.add, "Pay", "rent", "due:eom", "+home", "+bills", "pri:L")
        let report = try run(.modify, "1", "-bills", "+urgent", "due:", "priority:H", "project:home")
        XCTAssertEqual(report.lines, ["modified 1 \"Pay rent\" (tags, due, priority, project)"])
        var fields = try task(1).fields
        XCTAssertEqual(fields.tags, ["home", "urgent"])
        XCTAssertNil(fields.due)
        XCTAssertEqual(fields.priority, .high)
        XCTAssertEqual(fields.project, "home")
        try run(.modify, "1", "Pay", "the", "rent")
        XCTAssertEqual(try task(1).title, "Pay the rent")
        XCTAssertEqual(try run(.undo).lines, ["undid save of 1 \"Pay the rent\""])
        XCTAssertEqual(try run(.undo).lines, ["undid save of 1 \"Pay rent\""])
        fields = try task(1).fields
        XCTAssertEqual(fields.tags, ["bills", "home"])
        XCTAssertEqual(fields.priority, .low)
        XCTAssertNotNil(fields.due)
    }

    func testModifyRefusesWhatCannotBeAndChangesNothing() throws {
        try run(.add, "Rent", "due:eom")
        let before = try task(1)
        XCTAssertThrowsError(try run(.modify, "1")) { XCTAssertEqual($0 as? NavError, .modifyNeedsWords) }
        XCTAssertThrowsError(try run(.modify)) { XCTAssertEqual($0 as? NavError, .modifyNeedsWords) }
        XCTAssertThrowsError(try run(.modify, "x1", "y")) { XCTAssertEqual($0 as? NavError, .badTaskReference("x1")) }
        XCTAssertThrowsError(try run(.modify, "1", "recur:monthly", "due:")) { XCTAssertEqual($0 as? NavError, .recurNeedsDue) }
        XCTAssertThrowsError(try run(.modify, "1", "pri:Z")) { XCTAssertEqual($0 as? NavError, .badPriority("Z")) }
        XCTAssertThrowsError(try run(.modify, "1", "project:a..b")) { XCTAssertEqual($0 as? NavError, .badProject("a..b")) }
        XCTAssertEqual(try task(1), before)
    }

    func testModifyTakesATimeAfterADate() throws {
        try run(.add, "Call", "due:tomorrow")
        // The tests' clock is Friday 2026-11-27 09:00 UTC: friday is a week on.
        try run(.modify, "1", "due:friday", "9am", "Call", "back")
        XCTAssertEqual(try task(1).fields.due, Instant(iso8601: "2026-12-04T09:00:00Z"))
        XCTAssertEqual(try task(1).title, "Call back")
    }

    func testModifyTakesABackslashedWordLiterally() throws {
        try run(.add, "x")
        try run(.modify, "1", "Call", "\\-5", "\\due:now")
        XCTAssertEqual(try task(1).title, "Call -5 due:now")
    }

    func testAnnotateAndDelete() throws {
        try run(.add, "Parent")
        XCTAssertEqual(try run(.annotate, "1", "called", "them").lines, ["annotated 1 \"Parent\""])
        XCTAssertEqual(try task(1).fields.annotations.map(\.text), ["called them"])
        XCTAssertThrowsError(try run(.annotate, "1")) { XCTAssertEqual($0 as? NavError, .missingArgument(.annotate)) }
        XCTAssertThrowsError(try run(.annotate, "1", "a\u{1}b")) {
            XCTAssertEqual($0 as? NavError, .badValue(.controlCharacter(.annotation, "\u{1}")))
        }
        _ = try store.insertAtTop("ana", DraftFields(title: "Child"), under: 1, as: .add)
        XCTAssertEqual(try run(.delete, "1").lines, ["deleted 1 \"Parent\" and its 1 subtasks"])
        XCTAssertNil(try store.task("ana", id: 1))
        XCTAssertEqual(try run(.undo).lines, ["undid delete of 1 \"Parent\" and 1 more"])
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 2, done: 0))
    }

    func testUndoWithNothingToUndoFails() throws {
        XCTAssertThrowsError(try run(.undo)) { XCTAssertEqual($0 as? NavError, .nothingToUndo) }
        XCTAssertThrowsError(try run(.redo)) { XCTAssertEqual($0 as? NavError, .nothingToRedo) }
        XCTAssertThrowsError(try run(.undo, "x")) { XCTAssertEqual($0 as? NavError, .unexpectedArgument(.undo, "x")) }
    }

    func testWhatItSaysIsInTheCatalogsLanguage() throws {
        let report = try OneShot(.add, ["Pão"]).run(user: "ana", store: store, clock: testClock, catalog: Catalog(.pt))
        XCTAssertEqual(report.lines, ["adicionada 1 \"Pão\""])
    }
}
