import NavStackCore
import XCTest

final class TranscriptTests: XCTestCase {
    func testTheHeaderGivesTheOptions() throws {
        let plain = try Transcript(text: "Sign in\n> login ana\nMy Tasks\n")
        XCTAssertNil(plain.header)
        XCTAssertEqual(plain.options, ["--memory", "--lang", "en", "--width", "80"])
        XCTAssertEqual(plain.expected, ["Sign in", "> login ana", "My Tasks"])
        XCTAssertEqual(plain.commands, ["login ana"])

        let headed = try Transcript(text: "#! navstack --memory --open 'navstack://tasks/2' --width \"40\"\n> \n> # note\n")
        XCTAssertEqual(headed.options, ["--memory", "--open", "navstack://tasks/2", "--width", "40"])
        XCTAssertEqual(headed.commands, ["", "# note"])
        XCTAssertEqual(headed.text(with: ["a"]), "#! navstack --memory --open 'navstack://tasks/2' --width \"40\"\na\n")
    }

    func testBadHeadersAreRefused() {
        for text in ["#! bash\n", "#! navstack -c root\n", "#! navstack --echo\n", "#!navstack --memory\n"] {
            XCTAssertThrowsError(try Transcript(text: text), text)
        }
        XCTAssertThrowsError(try Transcript(text: "#! navstack --open 'x\n")) { error in
            XCTAssertEqual(error as? TranscriptError, .unclosedQuote)
        }
    }

    func testAnyTextWithinALineMatchesTheWildcard() {
        XCTAssertTrue(Transcript.line("navstack 0.2.0", matches: "navstack [..]"))
        XCTAssertTrue(Transcript.line("Store: /tmp/x/navstack.sqlite", matches: "Store: [..]/navstack.sqlite"))
        XCTAssertTrue(Transcript.line("a-b-c", matches: "[..]-[..]-[..]"))
        XCTAssertTrue(Transcript.line("ab", matches: "a[..]b"))
        XCTAssertFalse(Transcript.line("navstack 0.2.0", matches: "navstack [..]x"))
        XCTAssertFalse(Transcript.line("xnavstack", matches: "navstack[..]"))
        XCTAssertFalse(Transcript.line("a", matches: "a[..]a"), "the pieces may not overlap")
        XCTAssertFalse(Transcript.line("exact", matches: "exact "))
    }

    func testDiffsAndTheirUnifiedForm() {
        let old = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
        var new = old
        new[1] = "B"
        new.insert("new", at: 8)
        let edits = LineDiff.edits(from: old, to: new)
        XCTAssertEqual(edits.filter { if case .same = $0 { false } else { true } }, [.removed("b"), .added("B"), .added("new")])
        XCTAssertEqual(LineDiff.unified(edits, oldName: "x (expected)", newName: "x (actual)", context: 1), """
            --- x (expected)
            +++ x (actual)
            @@ -1,3 +1,3 @@
             a
            -b
            +B
             c
            @@ -8,2 +8,3 @@
             h
            +new
             i

            """)
        XCTAssertEqual(LineDiff.unified(LineDiff.edits(from: old, to: old), oldName: "a", newName: "b"), "")
        XCTAssertEqual(LineDiff.edits(from: [], to: ["x"]), [.added("x")])
        XCTAssertEqual(LineDiff.edits(from: ["x"], to: []), [.removed("x")])
    }

    func testTheDiffNamesTheFilesLineCountingTheHeader() throws {
        let transcript = try Transcript(text: "#! navstack --memory\none\ntwo\n")
        XCTAssertEqual(transcript.unifiedDiff(["one", "2"], path: "t"), """
            --- t (expected)
            +++ t (actual)
            @@ -1,3 +1,3 @@
             #! navstack --memory
             one
            -two
            +2

            """)
    }

    func testUpdatingKeepsWildcardLinesThatStillMatch() throws {
        let transcript = try Transcript(text: "#! navstack --memory\nnavstack [..]\n> where\nold\nstays [..]\n")
        XCTAssertEqual(transcript.updated(with: ["navstack 9.9", "> where", "new", "stays here"]),
                       ["navstack [..]", "> where", "new", "stays [..]"])
        XCTAssertEqual(transcript.updated(with: ["changed", "> where"]), ["changed", "> where"])
    }
}
