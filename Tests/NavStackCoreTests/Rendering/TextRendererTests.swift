import XCTest

@testable import NavStackCore

final class TextRendererTests: XCTestCase {
    private func text(_ router: Router, width: Int = 80) -> String {
        var out = ""
        TextRenderer(width: width).render(.screen(router.shown), to: &out)
        return out
    }

    func testTheListScreen() throws {
        let router = try makeRouter()
        XCTAssertEqual(
            text(router, width: 60),
            """
            My Tasks
            My Tasks · navstack://tasks
            ────────────────────────────────────────────────────────────
            3 tasks · page 1 of 1

             1  [ ] Buy fruit · #1
             2  [ ] Study SwiftUI · #2
             3  [x] Go for a walk · #3
            ────────────────────────────────────────────────────────────
            Actions: open N · add [TITLE] · new · toggle N · done N
                     modify N WORDS… · delete N · move N to ID|top
                     filter all|open|done|waiting [TERM…] · find [TEXT]
                     sort [-]KEY|none · next · prev · page N
            Also:    root · tab tasks|agenda|account · undo · redo
                     go URL · where · help · quit


            """)
    }

    func testASortedListSaysItsSort() throws {
        var router = try makeRouter()
        try router.run("filter open", "sort -title")
        let lines = text(router).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines[1], "My Tasks · navstack://tasks?filter=open&sort=-title")
        XCTAssertEqual(lines[3], "2 tasks · open · sort -title · page 1 of 1")
        XCTAssertEqual(lines[5], " 1  [ ] Study SwiftUI · #2")
        XCTAssertEqual(lines[6], " 2  [ ] Buy fruit · #1")
    }

    func testADisabledSaveIsShownAsDisabled() throws {
        var router = try makeRouter()
        try router.run("new")
        XCTAssertTrue(text(router).contains("save (disabled)"))
        XCTAssertTrue(text(router).contains("Save is disabled until the title is set."))
        try router.run("title Something")
        XCTAssertFalse(text(router).contains("disabled"))
    }

    func testControlCharactersInUserTextAreEscaped() throws {
        var router = try makeRouter()
        _ = try router.store.insertAtTop(
            "ana", DraftFields(title: "Evil\u{1B}[2J title\u{202E}", notes: "line\nbreak\u{1B}c\r"), as: .add)
        try router.run("root", "open 1")  // the list shows the task added behind its back first
        let screen = text(router)
        XCTAssertFalse(screen.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x0D })
        XCTAssertTrue(screen.contains("Evil\\u{1B}[2J title\\u{202E}"))
        XCTAssertTrue(screen.contains("Notes:  line\n        break\\u{1B}c\\r\n"), "notes of several lines, each under the first")
    }

    /// Rows and fields of plain ASCII are written as they are while they fit, and cut,
    /// wrapped or escaped like any other text once they do not (at 30 columns a row of a
    /// task with a one-digit id has 17 for its title, a field 22 for its value).
    func testPlainTextIsWrittenAsItIsOnlyWhileItFits() throws {
        var router = try makeRouter()
        let fits = String(repeating: "f", count: 17)
        let over = String(repeating: "o", count: 18)
        try router.run("add " + over, "back", "add " + fits, "back", "add Tab\there", "back")
        let list = text(router, width: 30).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(list.contains(" 1  [ ] Tab\\there · #6"), list.joined(separator: "\n"))
        XCTAssertTrue(list.contains(" 2  [ ] " + fits + " · #5"))
        XCTAssertTrue(list.contains(" 3  [ ] " + String(repeating: "o", count: 16) + "… · #4"))
        try router.run("open 2", "edit", "notes two  spaces")
        var lines = text(router, width: 30).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.contains("Title:  " + fits), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("Notes:  two spaces"), "two spaces wrap as one")
        try router.run("title " + String(repeating: "o", count: 23))
        lines = text(router, width: 30).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.contains("Title:  " + String(repeating: "o", count: 22)), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("        o"), "the rest of a word too long wraps under it")
    }

    /// The place line of plain crumbs is written as they are; a crumb that is not plain,
    /// or crumbs that do not fit, leave nothing of that first try behind.
    func testThePlaceLineIsWrittenOnceWhateverItsCrumbs() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit")
        XCTAssertEqual(text(router).split(separator: "\n")[1], "My Tasks › Buy fruit › Edit · navstack://tasks/1/edit")
        try router.run("title Café au lait", "save", "edit")
        XCTAssertEqual(
            text(router).split(separator: "\n")[1], "My Tasks › Café au lait › Edit · navstack://tasks/1/edit",
            "a crumb not ASCII: the line made the long way")
        let long = String(repeating: "x", count: 100)
        try router.run("title " + long, "save", "edit")
        let place = text(router).split(separator: "\n")[1]
        XCTAssertFalse(place.contains("My Tasks › " + long), "too long to share the line: \(place)")
        XCTAssertEqual(place.filter { $0 == "›" }.count, 2, "written once: \(place)")
        XCTAssertLessThanOrEqual(place.displayWidth, 80)
        XCTAssertEqual(text(router).split(separator: "\n")[0], "Edit Task")
        try router.run("cancel")
        XCTAssertEqual(text(router).split(separator: "\n")[0], String(long.prefix(79)) + "…", "a title too wide is cut")
    }

    func testNoLineIsWiderThanTheWidth() throws {
        var router = try makeRouter()
        try router.run(
            "add " + String(repeating: "Wide 日本語の題名 ", count: 10), "back",
            "add " + String(repeating: "e\u{301}mojis 👩‍👩‍👧 ", count: 12))
        try router.run("edit", "notes " + String(repeating: "a-very-long-unbroken-word", count: 8))
        for width in [20, 21, 33, 47, 80, 120] {
            var screens = [text(router, width: width)]
            var copy = router
            try copy.run("back!")
            screens.append(text(copy, width: width))
            try copy.run("back")
            screens.append(text(copy, width: width))
            var help = ""
            TextRenderer(width: width).render(try copy.run("help"), to: &help)
            screens.append(help)
            for line in screens.joined().split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.displayWidth, width, "\(width): \(line)")
            }
        }
    }

    func testDisplayWidthCountsColumns() {
        XCTAssertEqual("abc".displayWidth, 3)
        XCTAssertEqual("日本".displayWidth, 4)
        XCTAssertEqual("e\u{301}".displayWidth, 1)
        XCTAssertEqual("☕".displayWidth, 2)
        XCTAssertEqual("👩‍👩‍👧".displayWidth, 2)
        XCTAssertEqual("Café".displayWidth, 4)
    }

    func testTruncationNeverSplitsACharacter() {
        XCTAssertEqual("日本語の題名".truncated(toWidth: 6), "日本…")
        XCTAssertEqual("abcdef".truncated(toWidth: 6), "abcdef")
        XCTAssertEqual("abcdefg".truncated(toWidth: 6), "abcde…")
        XCTAssertEqual("e\u{301}e\u{301}e\u{301}".truncated(toWidth: 2), "e\u{301}…")
    }

    func testWrapping() {
        XCTAssertEqual("one two three four".wrapped(toWidth: 9), ["one two", "three", "four"])
        XCTAssertEqual("abcdefghij".wrapped(toWidth: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual("".wrapped(toWidth: 4), [""])
    }

    func testTheSameScreenGivesTheSameBytes() throws {
        var one = try makeRouter()
        var two = try makeRouter()
        try one.run("open 2", "edit", "title Same")
        try two.run("open 2", "edit", "title Same")
        XCTAssertEqual(text(one), text(two))
    }

    func testABreadcrumbTooLongIsShortenedInTheMiddle() {
        let crumbs = ["My Tasks"] + (1...100).map { "Level \($0)" }
        // Whole when it fits.
        XCTAssertEqual(TextRenderer.breadcrumb(["My Tasks", "Buy fruit"], fitting: 40), "My Tasks › Buy fruit")
        // The tab, then as many of the last crumbs as fit.
        XCTAssertEqual(TextRenderer.breadcrumb(crumbs, fitting: 40), "My Tasks › … › Level 99 › Level 100")
        XCTAssertEqual(TextRenderer.breadcrumb(crumbs, fitting: 60), "My Tasks › … › Level 97 › Level 98 › Level 99 › Level 100")
        // When only the last fits whole, the one before it stays named, cut short.
        XCTAssertEqual(
            TextRenderer.breadcrumb(["My Tasks", "Shopping", "A rather long title", "Edit"], fitting: 30),
            "My Tasks › … › A rathe… › Edit")
        XCTAssertEqual(
            TextRenderer.breadcrumb(["My Tasks", "A rather long title", "Edit"], fitting: 28),
            "My Tasks › A rather … › Edit")
        for width in 20...80 {
            XCTAssertLessThanOrEqual(TextRenderer.breadcrumb(crumbs, fitting: width).displayWidth, width)
        }
    }

    func testARowKeepsItsProgressWhenItsTitleIsCutShort() throws {
        var router = try makeRouter()
        try router.run("add A very long title for a task that has subtasks", "add Sub", "root")
        let rows = text(router, width: 40).split(separator: "\n").filter { $0.hasPrefix(" 1  ") }
        XCTAssertEqual(rows, [" 1  [ ] A very long title fo… [0/1] · #4"])
        XCTAssertTrue(text(router, width: 80).contains(" 1  [ ] A very long title for a task that has subtasks [0/1] · #4\n"))
    }

    /// The place line written byte by byte is the one the breadcrumb's layout makes.
    func testThePlaceLineWrittenAsItIsIsTheOneLaidOut() {
        let url = "navstack://tasks/1/2/edit"
        var written = 0
        for crumbs in [["My Tasks"], ["My Tasks", "Buy fruit"], ["My Tasks", "A", "B", "Edit"], ["My Tasks", ""]] {
            for width in [20, 40, 60, 80, 120] {
                let room = width - url.utf8.count - 3
                var lines = Lines(width: width, style: .plain, rule: "")
                guard room >= 8, lines.addPlace(crumbs, url, room: room) else {
                    XCTAssertEqual(lines.takeBytes(), [], "nothing written when it does not fit")
                    continue
                }
                written += 1
                let laidOut = TextRenderer.breadcrumb(crumbs, fitting: room) + " · " + url + "\n"
                XCTAssertEqual(String(decoding: lines.takeBytes(), as: UTF8.self), laidOut, "\(crumbs) at \(width)")
            }
        }
        XCTAssertGreaterThan(written, 5)
        var lines = Lines(width: 80, style: .plain, rule: "")
        XCTAssertFalse(lines.addPlace(["My Tasks", "Café"], url, room: 50), "not ASCII: laid out by characters")
        XCTAssertFalse(lines.addPlace(["My Tasks", "a\tb"], url, room: 50), "a control character: escaped")
        XCTAssertEqual(lines.takeBytes(), [])
    }

    /// A task's fields written from their bytes are the fields laid out from their
    /// escaped text, whatever the text.
    func testTaskFieldsWrittenAsTheyAreAreTheOnesLaidOutFromEscapedText() {
        let labels = ["Title", "Notes", "Done"]
        let texts = [
            "Buy fruit", "", " leading", "trailing ", "two  spaces", "a\tb", "line\nbreak", "\u{1B}[31mred", "Café au lait",
            "\u{202E}bidi", String(repeating: "word ", count: 30), String(repeating: "x", count: 200), "—", "~!@#$%^&*()_+{}",
            "\u{7F}", "exactly fits" + String(repeating: "y", count: 57),
        ]
        // (Notes of several lines are laid out line by line: testControlCharactersInUserTextAreEscaped.)
        var fast = 0
        for width in [20, 30, 80] {
            for (first, second) in zip(texts, texts.reversed()) where !second.contains("\n") {
                var written = Lines(width: width, style: .plain, rule: "")
                written.fields(FieldHeads(labels), first, second, "no")
                var laidOut = Lines(width: width, style: .plain, rule: "")
                laidOut.fields([
                    (labels[0], first.escapedForDisplay), (labels[1], second.escapedForDisplay), (labels[2], "no"),
                ])
                let bytes = written.takeBytes()
                XCTAssertEqual(
                    String(decoding: bytes, as: UTF8.self), String(decoding: laidOut.takeBytes(), as: UTF8.self),
                    "\(first) / \(second) at \(width)")
                if bytes.count < 3 * width { fast += 1 }
            }
        }
        XCTAssertGreaterThan(fast, 10, "most write each field on its one line")
    }
}
