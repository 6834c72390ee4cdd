import NavStackCore
import TestSeeds
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

    func testCommandLinesAreReadWithTheirOwnOptions() throws {
        let text = """
            #! navstack NAVSTACK_NOW=2026-12-01T08:00:00Z TZ=Europe/Madrid
            $ navstack -c 'login ana' -c "add Buy milk"
            My Tasks
            $ navstack watch agenda --format json &
            {"screen":"agenda"}
            $ navstack   -c root

            """
        let transcript = try Transcript(text: text)
        XCTAssertEqual(transcript.commands, [], "no line of one process's commands")
        XCTAssertEqual(transcript.environment, ["NAVSTACK_NOW": "2026-12-01T08:00:00Z", "TZ": "Europe/Madrid"])
        XCTAssertEqual(
            transcript.commandLines,
            [
                .init(
                    text: "$ navstack -c 'login ana' -c \"add Buy milk\"", arguments: ["-c", "login ana", "-c", "add Buy milk"],
                    inBackground: false),
                .init(
                    text: "$ navstack watch agenda --format json &", arguments: ["watch", "agenda", "--format", "json"], inBackground: true),
                .init(text: "$ navstack   -c root", arguments: ["-c", "root"], inBackground: false),
            ])
        XCTAssertEqual(transcript.expected.count, 5, "the lines under each command line are its expected output")
        XCTAssertNil(try Transcript(text: "> login ana\n$ navstack -c root\n").commandLines, "a transcript of one process's commands")
        // Standard input from a file beside the transcript.
        XCTAssertEqual(
            try Transcript(text: "$ navstack import --from taskwarrior - < rent.json\n").commandLines,
            [
                .init(
                    text: "$ navstack import --from taskwarrior - < rent.json", arguments: ["import", "--from", "taskwarrior", "-"],
                    inBackground: false, input: "rent.json")
            ])
    }

    func testBadCommandLinesAreRefused() {
        let refused: [(String, TranscriptError)] = [
            ("#! navstack --width 40\n$ navstack -c root\n", .commandLineHeader),
            ("$ ls -l\n", .notNavstack("$ ls -l")),
            (
                "$ navstack --store /home/me/navstack.sqlite -c root\n",
                .storeOptionInLine("--store", line: "$ navstack --store /home/me/navstack.sqlite -c root")
            ),
            ("$ navstack watch --store=x.sqlite &\n", .storeOptionInLine("--store", line: "$ navstack watch --store=x.sqlite &")),
            ("$ navstack test .\n", .nestedTest("$ navstack test .")),
            ("$ navstack --memory test x.transcript\n", .nestedTest("$ navstack --memory test x.transcript")),
            ("$ navstack -c 'root\n", .unclosedQuote),
        ]
        for (text, error) in refused {
            XCTAssertThrowsError(try Transcript(text: text), text) { XCTAssertEqual($0 as? TranscriptError, error, text) }
        }
        XCTAssertNoThrow(try Transcript(text: "$ navstack -c test\n"), "a command named test is no replay")
        // Past the first line, only `$ navstack` starts a command line: the rest is output.
        let printed = try? Transcript(text: "$ navstack -c 'add $ 50 to Ana'\n$ 50 to Ana\n$ rm -rf / &\n$ navstackx\n")
        XCTAssertEqual(printed?.commandLines?.map(\.arguments), [["-c", "add $ 50 to Ana"]])
        XCTAssertEqual(
            TranscriptError.notNavstack("$ ls").message(in: .english),
            "a command line of a transcript runs navstack: '$ navstack ARGUMENTS [&]' (got '$ ls')")
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
        XCTAssertEqual(
            LineDiff.unified(edits, oldName: "x (expected)", newName: "x (actual)", context: 1),
            """
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
        XCTAssertEqual(
            transcript.unifiedDiff(["one", "2"], path: "t"),
            """
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
        XCTAssertEqual(
            transcript.updated(with: ["navstack 9.9", "> where", "new", "stays here"]),
            ["navstack [..]", "> where", "new", "stays [..]"])
        XCTAssertEqual(transcript.updated(with: ["changed", "> where"]), ["changed", "> where"])
    }

    // MARK: - Myers' diff

    /// The length of a longest common subsequence, by the textbook table.
    private func lcs(_ a: [String], _ b: [String]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in a.indices.reversed() {
            for j in b.indices.reversed() {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    func testTheDiffIsAShortestEditScriptOnRandomInputs() {
        forEachSeed([9]) { seed in
            var generator = SplitMix64(state: seed)
            diffRounds(&generator)
        }
    }

    private func diffRounds(_ generator: inout SplitMix64) {
        for round in 0..<400 {
            let alphabet = ["a", "b", "c", "d"].prefix(Int.random(in: 1...4, using: &generator))
            let a = (0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let edits = LineDiff.edits(from: a, to: b)
            let old = edits.compactMap { edit -> String? in
                switch edit {
                case .same(let line, _), .removed(let line): line
                case .added: nil
                }
            }
            let new = edits.compactMap { edit -> String? in
                switch edit {
                case .same(_, let line), .added(let line): line
                case .removed: nil
                }
            }
            XCTAssertEqual(old, a, "round \(round)")
            XCTAssertEqual(new, b, "round \(round)")
            let same = edits.filter { if case .same(let x, let y) = $0 { x == y } else { false } }.count
            XCTAssertEqual(edits.count - same, a.count + b.count - 2 * lcs(a, b), "round \(round): \(a) → \(b)")
        }
    }

    func testRemovedLinesComeBeforeAddedOnesInEachChange() {
        let edits = LineDiff.edits(from: ["x", "a", "b", "y"], to: ["x", "c", "a2", "d", "y"])
        XCTAssertEqual(edits, [.same("x", "x"), .removed("a"), .removed("b"), .added("c"), .added("a2"), .added("d"), .same("y", "y")])
    }

    func testPastTheCostLimitTheMiddleIsOneReplacement() {
        let old = ["head", "1", "2", "x", "3", "tail"]
        let new = ["head", "x", "4", "5", "6", "tail"]
        XCTAssertEqual(
            LineDiff.edits(from: old, to: new, matching: { old[$0] == new[$1] }, costLimit: 2),
            [
                .same("head", "head"), .removed("1"), .removed("2"), .removed("x"), .removed("3"),
                .added("x"), .added("4"), .added("5"), .added("6"), .same("tail", "tail"),
            ])
        XCTAssertEqual(
            LineDiff.edits(from: old, to: new, matching: { old[$0] == new[$1] }).filter { if case .same = $0 { true } else { false } }
                .count, 3)
    }

    func testALongDiffIsExact() {
        let old = (0..<5000).map { $0 % 2 == 0 ? "> where" : "line \($0)" }
        let new = (0..<5000).map { $0 % 2 == 0 ? "> where" : "changed \($0)" }
        let edits = LineDiff.edits(from: old, to: new)
        XCTAssertEqual(edits.count, 7500)
        XCTAssertEqual(edits.prefix(3), [.same("> where", "> where"), .removed("line 1"), .added("changed 1")])
    }

    // MARK: - Reading transcripts

    func testCRLFLinesAreReadAndKept() throws {
        let transcript = try Transcript(text: "#! navstack --memory\r\n> where\r\nSign in\r\n")
        XCTAssertEqual(transcript.header, "#! navstack --memory")
        XCTAssertEqual(transcript.expected, ["> where", "Sign in"])
        XCTAssertEqual(transcript.commands, ["where"])
        XCTAssertEqual(transcript.text(with: ["> where", "x"]), "#! navstack --memory\r\n> where\r\nx\r\n")
    }

    func testABareCommandPromptMatchesTheEchoOfAnEmptyLine() throws {
        XCTAssertTrue(Transcript.line("> ", matches: ">"))
        XCTAssertFalse(Transcript.line("> x", matches: ">"))
        let transcript = try Transcript(text: "> where\nSign in\n>\n")
        XCTAssertEqual(transcript.commands, ["where", ""])
        XCTAssertTrue(transcript.compare(["> where", "Sign in", "> "]).allSatisfy { if case .same = $0 { true } else { false } })
        XCTAssertEqual(transcript.updated(with: ["> where", "Sign in", "> "]), ["> where", "Sign in", ">"])
    }

    func testAHeaderCannotChooseAStoreOrASubcommand() {
        for text in [
            "#! navstack --store /home/me/.local/share/navstack/navstack.sqlite\n",
            "#! navstack --memory --store=../x.sqlite\n", "#! navstack --width 40 --store ~/x\n",
        ] {
            XCTAssertThrowsError(try Transcript(text: text), text) { error in
                XCTAssertEqual(error as? TranscriptError, .storeOption("--store"))
            }
        }
        XCTAssertThrowsError(try Transcript(text: "#! navstack import x.json --store y\n")) { error in
            XCTAssertEqual(error as? TranscriptError, .badHeader("#! navstack import x.json --store y"))
        }
        XCTAssertNoThrow(try Transcript(text: "#! navstack --open tasks/2\n"))
        XCTAssertEqual(
            TranscriptError.storeOption("--store").message(in: .english),
            "the header chooses a store with '--store'; a transcript always runs with a temporary store of its own, so remove it")
        XCTAssertEqual(TranscriptError.tooLarge(bytes: 20_000_000).description, "it is too large (20000000 bytes; the limit is 16777216)")
    }

    func testTheUnifiedDiffEscapesControlCharacters() {
        let text = LineDiff.unified([.removed("a\u{1B}[2J"), .added("b\u{7}")], oldName: "x\u{1B}", newName: "y")
        XCTAssertEqual(text, "--- x\\u{1B}\n+++ y\n@@ -1,1 +1,1 @@\n-a\\u{1B}[2J\n+b\\u{7}\n")
    }
}
