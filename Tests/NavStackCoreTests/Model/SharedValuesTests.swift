import XCTest

@testable import NavStackCore

/// The values a command copies and looks up many times, kept cheap to copy and to look
/// up: a session shares its fields until it changes, drafts are a short list, printed
/// screens and available commands are remembered.
final class SharedValuesTests: XCTestCase {
    // MARK: - Session

    func testACopiedSessionChangesAlone() {
        var first = Session(user: "ana")
        first.tasksPath = [.detail(1)]
        first.drafts[.sheet] = Draft(editing: DraftFields(title: "Kept"))
        var second = first
        XCTAssertEqual(first, second)
        second.tasksPath.append(.edit(1))
        second.drafts[.sheet]?.fields.title = "Changed"
        second.list.page = 3
        XCTAssertEqual(first.tasksPath, [.detail(1)])
        XCTAssertEqual(first.drafts[.sheet]?.fields.title, "Kept")
        XCTAssertEqual(first.list.page, 1)
        XCTAssertEqual(second.tasksPath, [.detail(1), .edit(1)])
        XCTAssertEqual(second.drafts[.sheet]?.fields.title, "Changed")
        XCTAssertNotEqual(first, second)
        // Changed back field by field, equal again, and hashed alike.
        second.tasksPath.removeLast()
        second.drafts[.sheet]?.fields.title = "Kept"
        second.list.page = 1
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.hashValue, second.hashValue)
    }

    // MARK: - Drafts

    func testDraftsAreEqualInAnyOrder() {
        let edit = Draft(editing: DraftFields(title: "Edit"))
        let sheet = Draft(editing: DraftFields(title: "Sheet"))
        var one = Drafts()
        one[.edit(2)] = edit
        one[.sheet] = sheet
        var other: Drafts = [.sheet: sheet]
        other[.edit(2)] = edit
        XCTAssertEqual(one, other)
        XCTAssertEqual(one.hashValue, other.hashValue)
        other[.edit(2)]?.fields.done = true
        XCTAssertNotEqual(one, other)
        other[.edit(2)] = nil
        XCTAssertEqual(other.count, 1)
        XCTAssertNil(other[.edit(2)])
        XCTAssertEqual(other[.sheet], sheet)
        other[.sheet] = nil
        XCTAssertTrue(other.isEmpty)
        XCTAssertEqual(other, [:])
        XCTAssertEqual(Set(one.map { owner, _ in owner.description }), ["edit/2", "sheet"])
    }

    // MARK: - Memo

    /// A key whose memo hash is chosen, to make collisions.
    private struct Key: MemoKey {
        var name: String
        var memoHash: Int

        func isSameKey(as other: Key) -> Bool { name.hasSameBytes(as: other.name) }
    }

    func testTheMemoMakesEachKeyOnceAndTellsCollidingKeysApart() {
        let memo = Memo<Key, String>(capacity: 4)
        var made: [String] = []
        func value(_ name: String, hash: Int) -> String {
            memo.value(for: Key(name: name, memoHash: hash)) {
                made.append(name)
                return name.uppercased()
            }
        }
        XCTAssertEqual(value("a", hash: 7), "A")
        XCTAssertEqual(value("b", hash: 7), "B", "same hash, another key: made, not taken")
        XCTAssertEqual(value("a", hash: 7), "A")
        XCTAssertEqual(value("b", hash: 7), "B")
        XCTAssertEqual(made, ["a", "b"])
        // Full (four), then the oldest gives way.
        _ = value("c", hash: 1)
        _ = value("d", hash: 2)
        _ = value("e", hash: 3)
        XCTAssertEqual(made, ["a", "b", "c", "d", "e"])
        _ = value("b", hash: 7)
        XCTAssertEqual(made.count, 5, "b is still kept")
        _ = value("a", hash: 7)
        XCTAssertEqual(made, ["a", "b", "c", "d", "e", "a"], "a went first and is made again")
    }

    /// An edit screen of task 1 whose draft's title, breadcrumb and list row are given.
    private func screen(title: String, crumb: String = "Buy fruit", row: String = "Buy fruit") -> Response {
        .screen(
            Screen(
                kind: .edit, title: "Edit Task", tab: .tasks, path: [.detail(1), .edit(1)], sheet: nil,
                breadcrumb: ["My Tasks", crumb, "Edit"], actions: [.title, .save],
                content: .draft(Draft(editing: DraftFields(title: title, notes: row)), conflicts: [], deleted: false)))
    }

    func testResponsesBuiltApartButAlikeHashAlikeAndAreTheSameKey() {
        // Two screens made separately (not one object), as two commands make them.
        XCTAssertEqual(screen(title: "Same").memoHash, screen(title: "Same").memoHash)
        XCTAssertTrue(screen(title: "Same").isSameKey(as: screen(title: "Same")))
        XCTAssertNotEqual(screen(title: "Title 1").memoHash, screen(title: "Title 2").memoHash)
        XCTAssertFalse(screen(title: "Title 1").isSameKey(as: screen(title: "Title 2")))
        XCTAssertTrue(Response.quit.isSameKey(as: .quit))
    }

    /// `Cafe\u{301}` and `Caf\u{e9}` are equal to Swift's `==` but print other bytes: a
    /// screen that shows one is never the key of the other's printed text.
    func testCanonicallyEqualTextsAreNotTheSameKey() {
        let decomposed = "Cafe\u{301}"
        let composed = "Caf\u{e9}"
        XCTAssertEqual(decomposed, composed, "Swift's == is canonical: why the memo does not use it alone")
        XCTAssertFalse(decomposed.hasSameBytes(as: composed))
        XCTAssertTrue(composed.hasSameBytes(as: "Caf" + "\u{e9}"))
        let pairs: [(Response, Response)] = [
            (screen(title: decomposed), screen(title: composed)),
            (screen(title: "X", crumb: decomposed), screen(title: "X", crumb: composed)),
            (screen(title: "X", row: decomposed), screen(title: "X", row: composed)),
            (.location(url: nil, breadcrumb: [decomposed]), .location(url: nil, breadcrumb: [composed])),
            (
                .help([HelpEntry(command: "open", summary: decomposed)], details: []),
                .help([HelpEntry(command: "open", summary: composed)], details: [])
            ),
        ]
        for (index, (one, other)) in pairs.enumerated() {
            XCTAssertEqual(one, other, "pair \(index): equal to ==")
            XCTAssertFalse(one.isSameKey(as: other), "pair \(index)")
            XCTAssertFalse(other.isSameKey(as: one), "pair \(index)")
            XCTAssertTrue(one.isSameKey(as: one), "pair \(index)")
        }
    }

    // MARK: - Available commands

    /// Every shape a screen's commands depend on: looked up, they are the ones made
    /// straight from the session (sessions of one shape share what the first kept).
    func testTheWordsLookedUpAreTheWordsMade() {
        var sessions: [Session?] = [nil]
        for path in [[], [Route.detail(1)], [.detail(1), .edit(1)]] {
            for sheet in [nil, Sheet.newTask] {
                for confirm in [nil, Confirmation.delete(1, popping: false)] {
                    for draft in [false, true] {
                        var session = Session(user: "ana")
                        session.tasksPath = path
                        session.sheet = sheet
                        session.confirm = confirm
                        if draft { session.drafts[sheet == nil ? .edit(1) : .sheet] = Draft(editing: DraftFields()) }
                        sessions.append(session)
                    }
                }
            }
        }
        let table = AvailableWords()
        for session in sessions {
            for kind in ScreenKind.allCases {
                for elsewhere in [Showing.Elsewhere.unchanged, .changed, .deleted] {
                    let showing = Showing(kind, elsewhere: elsewhere)
                    let made = Router.availableWords(on: kind, in: session, extra: showing.extraWords)
                    let key = AvailableWords.key(kind, elsewhere, session)
                    XCTAssertEqual(table.words(for: key) { made }, made)
                    // A second look finds what the first kept.
                    let kept = table.words(for: key) {
                        XCTFail("made twice: \(kind)")
                        return []
                    }
                    XCTAssertEqual(kept, made, "\(kind)")
                }
            }
        }
        XCTAssertEqual(ScreenKind.allCases.map(\.index), Array(ScreenKind.allCases.indices))
    }

    // MARK: - Breadcrumbs

    /// The crumbs kept are shown again only for the same chain, titles byte for byte: a
    /// task retitled, even to a canonically equal title, is named anew.
    func testABreadcrumbIsKeptOnlyWhileItsTitlesStay() throws {
        var router = try makeRouter()
        try router.run("open 1")
        XCTAssertEqual(router.shown.breadcrumb, ["My Tasks", "Buy fruit"])
        for title in ["Caf\u{E9}", "Cafe", "Cafe\u{301}", "Caf\u{E9}"] {
            _ = try router.store.write("ana", id: 1, [.title], from: DraftFields(title: title), as: .save)
            let stored = try XCTUnwrap(router.store.task("ana", id: 1)).title
            let crumbs = router.shown.breadcrumb
            XCTAssertEqual(crumbs.count, 2)
            XCTAssertTrue(crumbs[1].hasSameBytes(as: stored), "\(crumbs[1].unicodeScalars.map(\.value)) for \(title)")
        }
        try router.run("edit")
        XCTAssertEqual(router.shown.breadcrumb.count, 3)
        try router.run("cancel")
        XCTAssertEqual(router.shown.breadcrumb.count, 2)
    }
}
