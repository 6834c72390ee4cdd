import NavStackBytes
import XCTest

@testable import NavStackCore

final class CommandParsingTests: XCTestCase {
    private func parse(_ line: String) throws -> Command? { try Command.parse(line) }

    private func error(_ line: String) -> NavError? {
        do {
            _ = try Command.parse(line)
            return nil
        } catch {
            return error
        }
    }

    func testBlankLinesAndCommentsAreNothing() throws {
        for line in ["", "   ", "\t", "# a comment", "   #also"] {
            XCTAssertNil(try parse(line), line)
        }
    }

    func testEveryCommandParses() throws {
        let cases: [(String, Command)] = [
            ("help", .help(nil)), ("help open", .help(.open)), ("help back!", .help(.backDiscarding)),
            ("where", .where), ("go tasks/2", .go(.task(2))), ("go navstack://account", .go(.account)),
            ("back", .back(1, discarding: false)), ("back 3", .back(3, discarding: false)),
            ("back!", .back(1, discarding: true)), ("back! 2", .back(2, discarding: true)),
            ("root", .root), ("tab tasks", .tab(.tasks)), ("tab ACCOUNT", .tab(.account)),
            ("undo", .undo), ("redo", .redo), ("quit", .quit), ("exit", .quit),
            ("login ana", .login("ana")), ("login Ana Lima", .login("Ana Lima")), ("logout", .logout),
            ("open 2", .open(row: 2)), ("open 007", .open(row: 7)), ("add", .add(title: nil)),
            ("add Buy milk", .add(title: "Buy milk")), ("new", .new), ("toggle", .toggle(row: nil)),
            ("toggle 3", .toggle(row: 3)), ("delete", .delete(row: nil)), ("delete 1", .delete(row: 1)),
            ("filter open", .filter(.open, ListTerms())), ("filter all", .filter(.every, ListTerms())),
            ("filter tag:home", .filter(.open, ListTerms(tags: ["home"]))),
            ("filter DONE pro:work due:week pri:h", .filter(.done, ListTerms(project: "work", priority: .high, due: .week))),
            ("find milk", .find("milk")), ("find", .find(nil)),
            ("next", .next), ("prev", .prev), ("page 4", .page(4)), ("edit", .edit),
            ("title  Two  spaces  inside ", .title("Two  spaces  inside")), ("notes", .notes("")),
            ("notes a b", .notes("a b")), ("done on", .done(true)), ("done OFF", .done(false)),
            ("save", .save(keepingMine: false)), ("save!", .save(keepingMine: true)), ("theirs", .theirs), ("cancel", .cancel),
            ("settings", .settings), ("about", .about),
        ]
        for (line, command) in cases {
            XCTAssertEqual(try parse(line), command, line)
        }
    }

    /// Notes of several lines typed on one: `\n` breaks the line, `\\` is a backslash,
    /// any other backslash stays; the limit counts the notes as kept.
    func testNotesTypedOnOneLineTakeLineBreaks() throws {
        let cases: [(String, String)] = [
            ("notes Buy:\\nmilk\\nbread", "Buy:\nmilk\nbread"), ("notes a\\\\nb", "a\\nb"),
            ("notes C:\\Users\\ana", "C:\\Users\\ana"), ("notes end\\", "end\\"), ("notes \\n", "\n"),
            ("notes ação\\nñ", "ação\nñ"),
        ]
        for (line, notes) in cases {
            XCTAssertEqual(try parse(line), .notes(notes), line)
        }
        let limit = FieldRules.textCharacters
        let typed = "notes " + String(repeating: "ab\\n", count: limit / 3)
        XCTAssertEqual(try parse(typed), .notes(String(repeating: "ab\n", count: limit / 3)))
        XCTAssertThrowsError(try parse("notes " + String(repeating: "a\\n", count: limit / 2 + 1))) { error in
            XCTAssertEqual(error as? NavError, .textTooLong(.notes, count: (limit / 2 + 1) * 2, limit: limit))
        }
    }

    func testCommandWordsIgnoreCaseAndArgumentsKeepIt() throws {
        XCTAssertEqual(try parse("  OPEN 2  "), .open(row: 2))
        XCTAssertEqual(try parse("Title Keep THIS case"), .title("Keep THIS case"))
        XCTAssertEqual(try parse("BAC\u{212A}"), .back(1, discarding: false), "the Kelvin sign lowers to k")
        XCTAssertEqual(CommandWord(word: "Settings"[...]), .settings)
        XCTAssertNil(CommandWord(word: "settingsx"))
    }

    func testLinesWithOtherCharactersSplitAsASCIIOnesDo() throws {
        // ASCII lines are split on their bytes; others by characters. Both read alike.
        XCTAssertEqual(try parse("\u{A0}open 2\u{A0}"), .open(row: 2))
        XCTAssertEqual(try parse("open\u{2003}2"), .open(row: 2))
        XCTAssertEqual(try parse("title Café\u{A0}"), .title("Café"))
        XCTAssertEqual(try parse("\u{A0}# a comment"), nil)
        XCTAssertEqual(try parse("\u{0B}\u{0C}ROOT\r"), .root)
        XCTAssertEqual(error("öpen 2"), .unknownCommand("öpen", suggestion: .open))
        // A word is never matched by its last bytes: a NUL before them keeps it unknown.
        XCTAssertEqual(error("\u{0}go tasks"), .unknownCommand("\\u{0}go", suggestion: .go))
        XCTAssertEqual(error("settingss"), .unknownCommand("settingss", suggestion: .settings))
        // back! throws a draft away: a typo is never taken for it.
        XCTAssertEqual(error("BACK!!"), .unknownCommand("BACK!!", suggestion: .back))
    }

    func testUnknownWordsSuggestACloseOne() {
        XCTAssertEqual(error("opne 1"), .unknownCommand("opne", suggestion: .open))
        XCTAssertEqual(error("tgogle"), .unknownCommand("tgogle", suggestion: .toggle))
        XCTAssertEqual(error("xyzzy"), .unknownCommand("xyzzy", suggestion: nil))
        XCTAssertEqual(error("help opne"), .unknownCommand("opne", suggestion: .open))
    }

    func testNumbersAreWholeAndFromOne() {
        XCTAssertEqual(error("open"), .missingArgument(.open))
        XCTAssertEqual(error("open two"), .notANumber(.open, "two"))
        XCTAssertEqual(error("open 2.5"), .notANumber(.open, "2.5"))
        XCTAssertEqual(error("open 0"), .numberBelowOne(.open, "0"))
        XCTAssertEqual(error("open -1"), .numberBelowOne(.open, "-1"))
        XCTAssertEqual(error("open 1 2"), .unexpectedArgument(.open, "1 2"))
        XCTAssertEqual(error("back 0"), .numberBelowOne(.back, "0"))
        XCTAssertEqual(error("page 99999999999999999999"), .numberTooLarge(.page, "99999999999999999999"))
        XCTAssertEqual(try parse("open 999999999999999999"), .open(row: 999_999_999_999_999_999))
        XCTAssertEqual(try parse("open +3"), .open(row: 3))
        XCTAssertEqual(try parse("open 0000000000000000000012"), .open(row: 12))
        XCTAssertEqual(error("open 1e3"), .notANumber(.open, "1e3"))
        XCTAssertEqual(error("open ٣"), .notANumber(.open, "٣"))
    }

    func testWordsThatTakeNoArgumentRefuseOne() {
        XCTAssertEqual(error("edit 2"), .unexpectedArgument(.edit, "2"))
        XCTAssertEqual(error("where am i"), .unexpectedArgument(.where, "am i"))
        XCTAssertEqual(error("quit now"), .unexpectedArgument(.quit, "now"))
    }

    func testChoicesAreChecked() {
        XCTAssertEqual(error("tab home"), .badChoice(.tab, "home"))
        XCTAssertEqual(error("filter later"), .badChoice(.filter, "later"))
        XCTAssertEqual(error("done maybe"), .badChoice(.done, "maybe"))
        XCTAssertEqual(error("tab"), .missingArgument(.tab))
    }

    func testTextLimits() {
        XCTAssertEqual(error("title"), .missingArgument(.title))
        XCTAssertEqual(error("title    "), .missingArgument(.title))
        let long = String(repeating: "a", count: FieldRules.titleCharacters + 1)
        XCTAssertEqual(
            error("title " + long), .textTooLong(.title, count: FieldRules.titleCharacters + 1, limit: FieldRules.titleCharacters))
        XCTAssertEqual(error("add " + long), .textTooLong(.title, count: FieldRules.titleCharacters + 1, limit: FieldRules.titleCharacters))
        XCTAssertNotNil(try? parse("title " + String(repeating: "é", count: FieldRules.titleCharacters)))
        XCTAssertNotNil(try? parse("title " + String(repeating: "a", count: FieldRules.titleCharacters)))
        // Characters are counted, not bytes: over the limit by one character of two bytes.
        let wide = String(repeating: "é", count: FieldRules.titleCharacters + 1)
        XCTAssertEqual(
            error("title " + wide), .textTooLong(.title, count: FieldRules.titleCharacters + 1, limit: FieldRules.titleCharacters))
        XCTAssertEqual(error("login " + String(repeating: "ñ", count: 65)), .textTooLong(.name, count: 65, limit: 64))
        XCTAssertNotNil(try? parse("login " + String(repeating: "ñ", count: 64)))
        XCTAssertEqual(error("login " + String(repeating: "n", count: 65)), .textTooLong(.name, count: 65, limit: 64))
    }

    func testAWordLooksUpFromItsBytesAsFromItsText() {
        func lookUp(_ word: String) -> CommandWord? {
            Array(word.utf8).withBytes { CommandWord.lookUp(ascii: $0) }
        }
        for word in CommandWord.allCases {
            for typed in [word.rawValue, word.rawValue.uppercased(), word.rawValue.prefix(1).uppercased() + word.rawValue.dropFirst()] {
                XCTAssertEqual(lookUp(typed), word, typed)
                XCTAssertEqual(CommandWord(word: typed), word, typed)
            }
            XCTAssertNil(lookUp(word.rawValue + "s"), "one byte more")
            XCTAssertNil(lookUp(String(word.rawValue.dropLast())) == word ? word : nil, "one byte less")
        }
        for other in ["", "settingsx", "sav", "tit le", "@pen", "[edit", "{one}", "ba ck"] {
            XCTAssertNil(lookUp(other), other)
            XCTAssertNil(CommandWord(word: other), other)
        }
    }

    /// A line of printable ASCII split from its bytes gives what `split` gives the line
    /// decoded; an unknown word is left to `split` (for its error and suggestion).
    func testAPlainLineSplitsFromItsBytesAsFromItsText() throws {
        let lines = [
            "", "   ", "# a comment", "  #open 2", "open 2", "  OPEN   2  ", "title  Buy  milk ", "title", "Save", "save!",
            "back! 2", "toggle", "notes a#b", "opne 2", "xyzzy", "go navstack://tasks/1", "find  ~`!@$%^&*()", "where  ",
        ]
        for line in lines {
            let plain = Array(line.utf8).withBytes { Command.split(printableASCII: $0) }
            switch plain {
            case .blank?:
                XCTAssertNil(try Command.split(line), line)
            case .command(let word, let argument)?:
                let split = try XCTUnwrap(try Command.split(line), line)
                XCTAssertEqual(split.word, word, line)
                XCTAssertEqual(split.argument, argument, line)
            case nil:
                XCTAssertThrowsError(try Command.split(line), line)
            }
        }
    }

    func testEditDistanceCountsTranspositionsAsOne() {
        XCTAssertEqual(editDistance(Array("opne"), Array("open")), 1)
        XCTAssertEqual(editDistance(Array("kitten"), Array("sitting")), 3)
        XCTAssertEqual(editDistance(Array(""), Array("abc")), 3)
    }
}
