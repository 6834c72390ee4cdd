import NavStackCore
import NavStackTime
import XCTest

/// `done N` and `modify [N] WORDS…` at the prompt: one change each, undoable, where rows
/// are shown; refused with one error, nothing changed, elsewhere.
final class PromptModifyTests: XCTestCase {
    private func task(_ router: Router, _ id: Int) throws -> TaskItem {
        try XCTUnwrap(try router.store.task("ana", id: id))
    }

    func testDoneMarksARowDoneAndUndoTakesItBack() throws {
        var router = try makeRouter()
        let first = try XCTUnwrap(try router.store.page("ana", .subtasks(of: 0), offset: 0, limit: 1).first)
        XCTAssertFalse(first.done)
        try router.run("done 1")
        XCTAssertTrue(try task(router, first.id).done)
        // Done already: nothing changes, nothing fails.
        try router.run("done 1")
        XCTAssertTrue(try task(router, first.id).done)
        try router.run("undo")
        XCTAssertFalse(try task(router, first.id).done)
        XCTAssertEqual(router.failure("done 9"), .noSuchRow(9, rows: 3))
        XCTAssertEqual(router.failure("done"), .needsRow(.done))
        XCTAssertEqual(router.failure("done on"), .needsRow(.done))
        XCTAssertEqual(router.failure("done soon"), .badChoice(.done, "soon"))
    }

    func testDoneOnADetailIsTheTaskShownAndOnADraftStillOnOff() throws {
        var router = try makeRouter()
        try router.run("open 2")
        guard case .detail(let shown, _) = router.shown.content else { return XCTFail("not a detail") }
        try router.run("done")
        XCTAssertTrue(try task(router, shown.id).done)
        try router.run("edit", "done off")
        XCTAssertEqual(router.failure("done 1"), .badChoice(.done, "1"))
        XCTAssertEqual(router.failure("done"), .missingArgument(.done))
        try router.run("save")
        XCTAssertFalse(try task(router, shown.id).done)
    }

    func testModifyARowInOneUndoableChange() throws {
        var router = try makeRouter()
        let first = try XCTUnwrap(try router.store.page("ana", .subtasks(of: 0), offset: 0, limit: 1).first)
        try router.run("modify 1 due:2026-12-01 +home pri:M Buy more fruit")
        var fields = try task(router, first.id).fields
        XCTAssertEqual(fields.title, "Buy more fruit")
        XCTAssertEqual(fields.tags, ["home"])
        XCTAssertEqual(fields.priority, .medium)
        XCTAssertEqual(fields.due, Instant(iso8601: "2026-12-01T00:00:00Z"))
        try router.run("modify 1 -home due:")
        fields = try task(router, first.id).fields
        XCTAssertEqual(fields.tags, [])
        XCTAssertNil(fields.due)
        try router.run("undo")
        XCTAssertEqual(try task(router, first.id).fields.tags, ["home"])
        try router.run("undo")
        XCTAssertEqual(try task(router, first.id).title, first.title)
        XCTAssertEqual(router.failure("modify 1"), .modifyNeedsWords)
        XCTAssertEqual(router.failure("modify Buy"), .needsRow(.modify))
        XCTAssertEqual(router.failure("modify 1 pri:Q"), .badPriority("Q"))
        XCTAssertEqual(try task(router, first.id).title, first.title, "a refused modify changes nothing")
    }

    func testModifyOnADetailChangesTheTaskShown() throws {
        var router = try makeRouter()
        try router.run("open 1")
        guard case .detail(let shown, _) = router.shown.content else { return XCTFail("not a detail") }
        try router.run("modify Renamed +x")
        XCTAssertEqual(try task(router, shown.id).title, "Renamed")
        XCTAssertEqual(try task(router, shown.id).fields.tags, ["x"])
        try router.run("tab account")
        XCTAssertEqual(
            router.failure("modify 1 x"), .notAvailable(.modify, screen: .account, available: router.availableWords(on: .account)))
    }
}

/// What a mistyped command word is taken for.
final class SuggestionTests: XCTestCase {
    func testATypoIsNeverTakenForACommandThatLosesWork() {
        XCTAssertEqual(CommandWord.suggestion(for: "opne"), .open)
        XCTAssertEqual(CommandWord.suggestion(for: "modfy"), .modify)
        for typo in ["info", "undoo", "redoo", "delte", "cancle", "logut", "yse"] {
            XCTAssertFalse(
                [CommandWord.undo, .redo, .delete, .cancel, .logout, .yes].contains(CommandWord.suggestion(for: typo)), typo)
        }
    }
}

/// `undo` and `redo` at the prompt say what they changed, in a line before the screen.
final class PromptUndoTests: XCTestCase {
    func testUndoAndRedoSayWhatTheyChanged() throws {
        var shell = Interpreter(router: try makeRouter(), options: .init(width: 60))
        let sink = RecordingSink()
        shell.handle("modify 1 Buy more fruit", to: sink)
        shell.handle("undo", to: sink)
        XCTAssertTrue(sink.output.contains("undid save of 1 \"Buy more fruit\"\nMy Tasks\n"), sink.output)
        shell.handle("redo", to: sink)
        XCTAssertTrue(sink.output.contains("redid save of 1 \"Buy more fruit\"\nMy Tasks\n"), sink.output)
        // A failed undo says only its error; JSON screens stay one object a line.
        shell.handle("undo", to: sink)
        shell.handle("undo", to: sink)
        XCTAssertEqual(shell.handle("undo", to: sink), .failed)
        var json = Interpreter(router: try makeRouter(), options: .init(format: .json, width: 60))
        let lines = RecordingSink()
        json.handle("toggle 1", to: lines)
        json.handle("undo", to: lines)
        XCTAssertTrue(lines.output.split(separator: "\n").allSatisfy { $0.hasPrefix("{") }, lines.output)
    }
}

/// Annotations read alike on every replica: in their canonical order.
final class AnnotationOrderTests: XCTestCase {
    func testAnnotationsOfOneInstantAreInOneOrderHoweverTheyCame() throws {
        let at = try XCTUnwrap(Instant(iso8601: "2026-12-06T09:00:00Z"))
        let later = try XCTUnwrap(Instant(iso8601: "2026-12-06T09:00:01Z"))
        let typed = [
            Annotation(entry: later, text: "late"), Annotation(entry: at, text: "x  review"), Annotation(entry: at, text: "café"),
        ]
        var one = DraftFields()
        one.annotations = typed
        var other = DraftFields()
        other.annotations = typed.reversed()
        XCTAssertEqual(one.annotations, other.annotations)
        XCTAssertEqual(one.annotations.map(\.text), ["café", "x  review", "late"])
        // In order already: kept as it is.
        XCTAssertEqual(Annotation.canonical([typed[2], typed[0]]), [typed[2], typed[0]])
    }
}
