import NavStackCore
import XCTest

@testable import NavStackSQLite

/// Two routers on one store, as two processes on one file: what `save`, `save!`, `theirs`,
/// `toggle`, `go` by uuid and the edit screen do when the other one wrote meanwhile.
final class ConflictTests: XCTestCase {
    /// A, on the edit screen of task 1; B, signed in on the list; both `ana`.
    private func twoWriters() throws -> (a: Router, b: Router) {
        var a = try makeRouter()
        var b = Router(store: a.store, configuration: .init(sampleForNewProfiles: true))
        try b.run("login ana")
        try a.run("open 1", "edit")
        return (a, b)
    }

    private func draftContent(_ router: Router) -> (Draft, [FieldConflict], Bool)? {
        guard case .draft(let draft, let conflicts, let deleted) = router.shown.content else { return nil }
        return (draft, conflicts, deleted)
    }

    /// Text retyped in another canonical form is the same text to `==`, so the field counts
    /// as unchanged and the edit screen shows the stored bytes, as a rebase does (the draft
    /// is shown as it is only when that gives the same bytes).
    func testATitleRetypedInAnotherNormalFormShowsTheStoredBytes() throws {
        var router = try makeRouter()
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        XCTAssertEqual(composed, decomposed)
        // `add` shows the new task.
        try router.run("add " + composed, "edit", "title " + decomposed, "notes x")
        guard let (draft, conflicts, deleted) = draftContent(router) else { return XCTFail("not an edit screen") }
        XCTAssertEqual(Array(draft.fields.title.utf8), Array(composed.utf8))
        XCTAssertEqual(draft.fields.notes, "x")
        XCTAssertEqual(conflicts, [])
        XCTAssertFalse(deleted)
        // Typed as stored, and changed for real: the draft as it is.
        try router.run("title Caf\u{E9}!")
        XCTAssertEqual(draftContent(router)?.0.fields.title, "Caf\u{E9}!")
    }

    func testAChangeElsewhereOfAnotherFieldIsMergedSilently() throws {
        var (a, b) = try twoWriters()
        try a.run("title Buy fruit and milk")
        try b.run("toggle 1")
        XCTAssertEqual(
            a.shown.actions.filter { [.title, .notes, .done, .save, .saveKeepingMine, .theirs].contains($0) },
            [.title, .notes, .done, .save, .saveKeepingMine, .theirs],
            "changed elsewhere: save! and theirs are offered")
        XCTAssertEqual(draftContent(a)?.1, [], "no conflict")
        try a.run("save")
        let task = try XCTUnwrap(try a.store.task("ana", id: 1))
        XCTAssertEqual(task.fields, DraftFields(title: "Buy fruit and milk", notes: "Apples, bananas, grapes", done: true))
        XCTAssertEqual(
            try XCTUnwrap(a.store as? SQLiteStore).db.first("SELECT rev FROM task WHERE id = 1") { $0.int(0) }, 3,
            "two changes, two revisions")
    }

    func testAConflictFailsNamesTheFieldsAndShowsOnTheEditScreen() throws {
        var (a, b) = try twoWriters()
        try a.run("title Mine", "done on")
        try b.run("open 1", "edit", "title Theirs", "done on", "save")
        XCTAssertEqual(a.failure("save"), .saveConflict(task: "Theirs", fields: [.title]))
        XCTAssertEqual(try a.store.task("ana", id: 1)?.title, "Theirs", "nothing overwritten")
        XCTAssertEqual(a.shown.path, [.detail(1), .edit(1)], "still editing")
        XCTAssertEqual(
            draftContent(a)?.1, [FieldConflict(field: .title, base: .text("Buy fruit"), mine: .text("Mine"), theirs: .text("Theirs"))])
        var text = ""
        TextRenderer(width: 60).render(.screen(a.shown), to: &text)
        XCTAssertTrue(
            text.contains(
                """
                Changed elsewhere too:
                  title: yours 'Mine', theirs 'Theirs' (was 'Buy fruit')
                save! keeps yours, theirs takes theirs
                """), text)
        try a.run("save!")
        XCTAssertEqual(try a.store.task("ana", id: 1)?.fields, DraftFields(title: "Mine", notes: "Apples, bananas, grapes", done: true))
    }

    func testTheirsThenSave() throws {
        var (a, b) = try twoWriters()
        try a.run("title Mine", "notes Only mine")
        try b.run("open 1", "edit", "title Theirs", "save")
        try a.run("theirs")
        XCTAssertEqual(draftContent(a)?.0.fields, DraftFields(title: "Theirs", notes: "Only mine", done: false))
        XCTAssertEqual(draftContent(a)?.1, [])
        XCTAssertFalse(a.shown.actions.contains(.theirs), "nothing more to take")
        try a.run("save")
        XCTAssertEqual(try a.store.task("ana", id: 1)?.fields, DraftFields(title: "Theirs", notes: "Only mine", done: false))
    }

    func testADraftWhoseTaskWasDeletedIsKeptAndSaveBangBringsTheTaskBack() throws {
        var (a, b) = try twoWriters()
        let before = try XCTUnwrap(try a.store.task("ana", id: 1))
        try a.run("title Kept")
        try b.run("delete 1")
        XCTAssertEqual(a.shown.kind, .edit)
        XCTAssertEqual(draftContent(a)?.2, true, "deleted elsewhere")
        XCTAssertFalse(a.shown.actions.contains(.theirs))
        XCTAssertEqual(a.failure("save"), .draftTaskDeleted(task: "Buy fruit"))
        XCTAssertEqual(a.failure("back"), .unsavedDraft(.back), "the draft is still guarded")
        try a.run("save!")
        let back = try XCTUnwrap(try a.store.task("ana", id: 1))
        XCTAssertEqual(back.uuid, before.uuid)
        XCTAssertEqual(back.fields, DraftFields(title: "Kept", notes: "Apples, bananas, grapes", done: false))
        guard case .list(let page) = b.shown.content else { return XCTFail("not the list") }
        XCTAssertEqual(page.rows.map(\.task.id), [1, 2, 3], "in its place")
    }

    func testCancelDropsADraftWhoseTaskWasDeleted() throws {
        var (a, b) = try twoWriters()
        try a.run("title Dropped")
        try b.run("delete 1")
        try a.run("cancel")
        XCTAssertEqual(a.shown.kind, .notFound)
        XCTAssertNil(try a.store.task("ana", id: 1))
    }

    func testToggleFlipsWhatIsStoredNotWhatWasRead() throws {
        var (a, b) = try twoWriters()
        try a.run("back")  // A's detail of task 1, read: open
        try b.run("toggle 1")  // done
        try a.run("toggle")  // flips what is stored: open again
        XCTAssertEqual(try a.store.task("ana", id: 1)?.done, false)
    }

    func testGoAcceptsAUUIDAndShowsTheIdsURL() throws {
        var router = try makeRouter()
        let task = try XCTUnwrap(try router.store.task("ana", id: 2))
        try router.run("go tasks/\(task.uuid.uppercased())/edit")
        XCTAssertEqual(router.shown.path, [.detail(2), .edit(2)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/2/edit")
        try router.run("back!", "go navstack://tasks/\(task.uuid)")
        XCTAssertEqual(router.shown.path, [.detail(2)])
        let unknown = "0b1c2d3e-4f50-4a61-8b72-8c9d0e1f2a3b"
        XCTAssertEqual(router.failure("go tasks/\(unknown)"), .noSuchTask(unknown))
        XCTAssertEqual(router.failure("go tasks/\(task.uuid)/edits"), .malformedLink("tasks/\(task.uuid)/edits"))
        XCTAssertEqual(router.shown.path, [.detail(2)], "a failed go changes nothing")
    }

    func testALinkByUUIDWaitsForLogin() throws {
        var router = try makeRouter()
        let uuid = try XCTUnwrap(try router.store.task("ana", id: 3)).uuid
        try router.run("tab account", "logout", "go tasks/\(uuid)", "login ana")
        XCTAssertEqual(router.shown.path, [.detail(3)])
        try router.run("tab account", "logout", "go tasks/0b1c2d3e-4f50-4a61-8b72-8c9d0e1f2a3b", "login ana")
        XCTAssertEqual(
            router.takeLinkFailure(),
            .linkNotOpened(
                url: "navstack://tasks/0b1c2d3e-4f50-4a61-8b72-8c9d0e1f2a3b",
                id: "0b1c2d3e-4f50-4a61-8b72-8c9d0e1f2a3b"))
    }
}
