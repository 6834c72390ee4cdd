import NavStackCore
import XCTest

final class CommandSpecTests: XCTestCase {
    private let spec = CommandSpec(
        name: "tool",
        abstract: "Does things.",
        discussion: "A longer text that explains what the tool does, long enough to be wrapped at eighty columns by the help.",
        options: [
            .init("memory", help: "In memory."),
            .init("store", value: "path", help: "Where."),
            .init("width", value: "width", help: "How wide."),
            .init("format", value: "format", help: "text or json."),
            .init("", short: "c", value: "command", repeatable: true, help: "A command."),
        ],
        arguments: [.init("file", repeating: true, help: "Files.")])

    private func run(_ words: String...) throws -> ParsedArguments {
        guard case .run(let parsed) = try spec.parse(words) else {
            XCTFail("not a run: \(words)")
            return ParsedArguments()
        }
        return parsed
    }

    private func error(_ words: String...) -> UsageError? {
        do {
            _ = try spec.parse(words)
            return nil
        } catch {
            return error
        }
    }

    func testFlagsValuesAndArguments() throws {
        let parsed = try run("--memory", "--store", "/s", "-c", "open 1", "a.txt", "-c", "back", "--width=40", "b.txt")
        XCTAssertTrue(parsed.flag("memory"))
        XCTAssertEqual(parsed.value("store"), "/s")
        XCTAssertEqual(parsed.values["c"], ["open 1", "back"])
        XCTAssertEqual(try parsed.integer("width", in: 20...100), 40)
        XCTAssertEqual(parsed.arguments, ["a.txt", "b.txt"])
        XCTAssertFalse(try run("x").flag("memory"))
    }

    func testTheLastValueOfAnOptionThatDoesNotRepeatWins() throws {
        XCTAssertEqual(try run("--store", "/a", "--store", "/b", "x").value("store"), "/b")
    }

    func testAValueThatStartsWithADashIsAttachedAndArgumentsFollowDoubleDash() throws {
        XCTAssertEqual(try run("--store=-x", "f").value("store"), "-x")
        XCTAssertEqual(try run("--store", "-", "f").value("store"), "-", "a lone dash is a value")
        XCTAssertEqual(try run("--", "--memory", "-").arguments, ["--memory", "-"])
        XCTAssertEqual(try run("-").arguments, ["-"])
    }

    func testAValueOptionRefusesAnOptionAsItsValue() {
        XCTAssertEqual(error("--store", "--memory", "f")?.message, "missing value for '--store <path>'")
        XCTAssertEqual(error("-c", "-x", "f")?.message, "missing value for '-c <command>'")
        XCTAssertEqual(error("--width", "--", "f")?.message, "missing value for '--width <width>'")
        XCTAssertEqual(error("--store", "-5", "f")?.message, "missing value for '--store <path>'")
    }

    func testAnUnknownOptionSuggestsTheClosestLongOne() {
        XCTAssertEqual(error("--formt", "json", "f")?.message, "unknown option '--formt'; did you mean '--format'?")
        XCTAssertEqual(error("--stroe=x", "f")?.message, "unknown option '--stroe=x'; did you mean '--store'?")
        XCTAssertEqual(error("--memroy", "f")?.message, "unknown option '--memroy'; did you mean '--memory'?")
        XCTAssertEqual(error("--zzzzzz", "f")?.message, "unknown option '--zzzzzz'")
        XCTAssertEqual(error("-m", "f")?.message, "unknown option '-m'", "no suggestion for a short option")
    }

    func testHelpAndVersionWin() throws {
        XCTAssertEqual(try spec.parse(["--bogus", "--help"]), .help)
        XCTAssertEqual(try spec.parse(["-h"]), .help)
        XCTAssertEqual(try spec.parse(["--version"]), .version)
        XCTAssertEqual(error("--", "--help"), nil, "after -- it is an argument")
    }

    func testBadUsage() {
        XCTAssertEqual(error("--bogus", "f"), .unknownOption("--bogus"))
        XCTAssertEqual(error("-x", "f"), .unknownOption("-x"))
        XCTAssertEqual(error("--c", "v", "f"), .unknownOption("--c"))
        XCTAssertEqual(error("f", "--store"), .missingValue("--store <path>"))
        XCTAssertEqual(error("--memory=yes", "f"), .flagWithValue("--memory"))
        XCTAssertEqual(error("--memory"), .missingArgument("<file>"))
        XCTAssertEqual(UsageError.unknownOption("--bogus").message, "unknown option '--bogus'")
    }

    func testWhatWasTypedIsShownEscapedInAUsageError() {
        let text = spec.errorText(.invalidValue(option: "--width", value: "\u{1B}[31mX\u{7}", problem: .notAWholeNumber))
        XCTAssertTrue(text.hasPrefix(#"Error: the value '\u{1B}[31mX\u{7}' is invalid for '--width'"#), text)
        XCTAssertFalse(text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
    }

    func testNumbersAndChoicesAreChecked() throws {
        XCTAssertThrowsError(try run("--width", "wide", "f").integer("width", in: 20...100)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "the value 'wide' is invalid for '--width': not a whole number")
        }
        XCTAssertThrowsError(try run("--width", "5", "f").integer("width", in: 20...100)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "the value '5' is invalid for '--width': use 20 to 100")
        }
        XCTAssertNil(try run("f").integer("width", in: 20...100))
        XCTAssertEqual(try run("--format", "json", "f").choice("format", as: Interpreter.Format.self), .json)
        XCTAssertThrowsError(try run("--format", "xml", "f").choice("format", as: Interpreter.Format.self)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "the value 'xml' is invalid for '--format': use text or json")
        }
    }

    func testAnArgumentTooMany() throws {
        let one = CommandSpec(name: "tool one", abstract: "One file.", options: [], arguments: [.init("file", help: "A file.")])
        XCTAssertThrowsError(try one.parse(["a", "b"])) { error in
            XCTAssertEqual(error as? UsageError, .unexpectedArgument("b"))
        }
    }

    func testHelpListsEverythingWithinEightyColumns() {
        let help = spec.help
        for text in [
            "OVERVIEW: Does things.", "USAGE: tool [--memory] [--store <path>]", "[-c <command> ...] <file> ...",
            "  --store <path>", "  -c <command>", "  <file>", "  -h, --help", "  --version",
        ] {
            XCTAssertTrue(help.contains(text), text)
        }
        for line in help.split(separator: "\n") where !line.hasPrefix("USAGE:") {
            XCTAssertLessThanOrEqual(line.count, 80, String(line))
        }
        XCTAssertEqual(
            spec.errorText(.unknownOption("--x")),
            "Error: unknown option '--x'\nUsage: \(spec.usage)\n  See 'tool --help' for more information.\n")
    }
}
