import NavStackCore
import NavStackSQLite
import XCTest

final class InterpreterTests: XCTestCase {
    private func interpreter(_ options: Interpreter.Options = .init()) -> Interpreter {
        Interpreter(
            router: Router(store: try! SQLiteStore(path: nil), configuration: .init(sampleForNewProfiles: true)),
            options: options)
    }

    func testEchoPrintsEachLineBeforeItsOutput() throws {
        var shell = interpreter(.init(echo: true, width: 40))
        let sink = RecordingSink()
        shell.handle("# just a comment", to: sink)
        shell.handle("opne", to: sink)
        XCTAssertEqual(
            sink.merged,
            """
            > # just a comment
            > opne
            navstack: line 2: unknown command 'opne'; did you mean 'open'? (help lists the commands)

            """)
    }

    func testEchoInJSONLinesIsAnObjectOfItsOwn() throws {
        var shell = interpreter(.init(format: .json, echo: true))
        let sink = RecordingSink()
        shell.handle("# a \"quoted\" comment", to: sink)
        shell.handle("opne", to: sink)
        XCTAssertEqual(
            sink.merged,
            """
            {"echo":"# a \\"quoted\\" comment","line":1}
            {"echo":"opne","line":2}
            {"error":{"message":"unknown command 'opne'; did you mean 'open'? (help lists the commands)","line":2}}

            """)
    }

    func testErrorsNameTheLineInAScriptAndNotForAPerson() {
        var script = interpreter()
        let sink = RecordingSink()
        script.handle("", to: sink)
        script.handle("where", to: sink)
        XCTAssertEqual(sink.errors, "navstack: line 2: 'where' is not available on the login screen; here: login, go, help, quit\n")
        var person = interpreter(.init(numberErrors: false))
        let personSink = RecordingSink()
        person.handle("where", to: personSink)
        XCTAssertTrue(personSink.errors.hasPrefix("error: 'where' is not available"))
        XCTAssertEqual(person.failures, 1)
    }

    func testARepeatedErrorNamesEachLineAndColourWrapsTheWholeLine() {
        var script = interpreter(.init(colorErrors: true))
        let sink = RecordingSink()
        for _ in 1...3 { script.handle("where", to: sink) }
        let message = "'where' is not available on the login screen; here: login, go, help, quit"
        XCTAssertEqual(sink.errors, (1...3).map { "\u{1B}[31mnavstack: line \($0): \(message)\u{1B}[0m\n" }.joined())
        var person = interpreter(.init(numberErrors: false, colorErrors: true))
        let personSink = RecordingSink()
        for _ in 1...2 { person.handle("where", to: personSink) }
        XCTAssertEqual(personSink.errors, String(repeating: "\u{1B}[31merror: \(message)\u{1B}[0m\n", count: 2))
        var json = interpreter(.init(format: .json))
        let jsonSink = RecordingSink()
        for _ in 1...2 { json.handle("where", to: jsonSink) }
        XCTAssertEqual(jsonSink.output, (1...2).map { #"{"error":{"message":"\#(message)","line":\#($0)}}"# + "\n" }.joined())
    }

    func testJSONGivesOneLinePerCommandAndErrorsAsObjects() throws {
        var shell = interpreter(.init(format: .json))
        let sink = RecordingSink()
        try shell.launch(to: sink)
        for line in ["login ana", "", "# comment", "open 9", "help", "where", "quit"] {
            shell.handle(line, to: sink)
        }
        let lines = sink.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 5)
        XCTAssertEqual(lines[2], #"{"error":{"message":"there is no row 9: the list has 3 rows","line":4}}"#)
        XCTAssertTrue(lines[3].hasPrefix(#"{"help":["#))
        XCTAssertEqual(lines[4], #"{"url":"navstack://tasks","breadcrumb":["My Tasks"]}"#)
        XCTAssertEqual(sink.errors, "")
    }

    func testBadBytesGetOneErrorEachAndChangeNothing() throws {
        var shell = interpreter()
        let sink = RecordingSink()
        shell.handle("login ana", to: sink)
        let before = shell.router.phase
        let bad: [([UInt8], NavError)] = [
            ([0x6F, 0x70, 0x65, 0x6E, 0x20, 0xFF], .invalidUTF8),
            (Array("open 1".utf8) + [0], .nulByte),
            (Array("title \u{1B}[31mred".utf8), .controlCharacter("\u{1B}")),
            (Array("add \u{7}bell".utf8), .controlCharacter("\u{7}")),
            ([UInt8](repeating: 0x61, count: 1 << 20), .lineTooLong(bytes: 1 << 20)),
        ]
        for (bytes, error) in bad {
            let errorsBefore = sink.errors
            XCTAssertEqual(shell.handle(bytes, to: sink), .failed)
            XCTAssertEqual(shell.router.phase, before)
            XCTAssertEqual(
                String(sink.errors.dropFirst(errorsBefore.count)),
                "navstack: line \(shell.lineNumber): \(error.message)\n")
        }
        XCTAssertEqual(shell.handle("open 1", to: sink), .succeeded)
    }

    /// A bidi control or an invisible character is kept as typed, as every door keeps it
    /// (``FieldRules``), and shown escaped.
    func testBidiAndInvisibleCharactersAreKeptAndShownEscaped() throws {
        var shell = interpreter(.init(width: 60))
        let sink = RecordingSink()
        shell.handle("login ana", to: sink)
        XCTAssertEqual(shell.handle(Array("add Pay\u{200B}rent \u{202E}evil".utf8), to: sink), .succeeded)
        XCTAssertTrue(sink.output.contains("Pay\\u{200B}rent \\u{202E}evil"), sink.output)
        XCTAssertFalse(sink.output.contains("\u{202E}"), "never printed raw")
    }

    /// A title of 1,000 characters fits the width: its detail wraps it whole, its list row
    /// cuts it.
    func testALongTitleIsWrappedWholeOnItsDetailAndCutOnItsRow() throws {
        var shell = interpreter(.init(width: 40))
        let sink = RecordingSink()
        shell.handle("login ana", to: sink)
        let words = (1...250).map { String(format: "w%03d", $0) }
        let title = words.joined(separator: " ").prefix(1000)
        XCTAssertEqual(title.count, 1000)
        XCTAssertEqual(shell.handle("add " + title, to: sink), .succeeded)
        let detail = sink.output.split(separator: "\n")
        XCTAssertTrue(detail.allSatisfy { String($0).displayWidth <= 40 }, sink.output)
        let shown = detail.joined(separator: " ").split(separator: " ")
        var rest = shown[...]
        for word in words.prefix(200) {
            guard let found = rest.firstIndex(where: { $0 == word }) else { return XCTFail("\(word) is not on the detail") }
            rest = rest[(found + 1)...]
        }
        XCTAssertEqual(shell.handle("back", to: sink), .succeeded)
        let row = try XCTUnwrap(sink.output.split(separator: "\n").last { $0.contains("w001 w002") })
        XCTAssertTrue(row.hasSuffix("… · #4"), String(row))
        XCTAssertLessThanOrEqual(String(row).displayWidth, 40)
    }

    func testALineTheReaderCutShort() {
        var shell = interpreter()
        let sink = RecordingSink()
        XCTAssertEqual(shell.handle(Array("help".utf8), length: 10_000, to: sink), .failed)
        XCTAssertTrue(sink.errors.contains("line too long (10000 bytes"))
    }

    func testTabsAreBlanks() {
        var shell = interpreter()
        let sink = RecordingSink()
        XCTAssertEqual(shell.handle("\tlogin\tana\t", to: sink), .succeeded)
        XCTAssertEqual(shell.router.session?.user, "ana")
    }

    func testQuitAndExitEndTheSession() {
        var shell = interpreter()
        let sink = RecordingSink()
        XCTAssertEqual(shell.handle("quit", to: sink), .quit)
        XCTAssertEqual(shell.handle("EXIT", to: sink), .quit)
        XCTAssertEqual(sink.merged, "")
    }
}
