@testable import NavStackCore
import XCTest

/// What is read from the option table besides parsing, and the XDG folders.
final class CommandLineToolsTests: XCTestCase {
    private let root = CommandSpec(
        name: "tool", abstract: "Does things.",
        options: [.init("store", value: "path", complete: .file, help: "Where. More."),
                  .init("memory", help: "In memory."),
                  .init("format", value: "format", complete: .choices(["text", "json"]), help: "It's text or json."),
                  .init("", short: "c", value: "command", repeatable: true, help: "A command.")],
        subcommands: [("run", "Runs.")])
    private let run = CommandSpec(name: "tool run", abstract: "Runs -fast.",
                                  options: [.init("user", value: "name", help: "Who.")],
                                  arguments: [.init("file", complete: .file, help: "A file.")])

    func testTheSubcommandIsTheFirstWordThatIsNeitherAnOptionNorItsValue() {
        func index(_ words: String...) -> Int? {
            CommandSpec.subcommandIndex(in: words, among: [run], root: root)
        }
        XCTAssertEqual(index("run", "f"), 0)
        XCTAssertEqual(index("--store", "s", "run", "f"), 2)
        XCTAssertEqual(index("--store=s", "--memory", "--user", "ana", "run"), 4, "a subcommand's value option is skipped too")
        XCTAssertEqual(index("-c", "run"), nil, "the value of -c")
        XCTAssertEqual(index("--store", "--memory", "run"), 2, "--store without a value: its parse says so")
        XCTAssertEqual(index("x", "run"), nil)
        XCTAssertEqual(index("--", "run"), nil)
        XCTAssertEqual(index("--memory"), nil)
    }

    func testARelativeXDGFolderIsIgnored() {
        func path(_ kind: BaseDirectory, _ environment: [String: String]) -> String? {
            kind.path { environment[$0] }
        }
        XCTAssertEqual(path(.data, ["XDG_DATA_HOME": "/d", "HOME": "/h"]), "/d")
        XCTAssertEqual(path(.data, ["XDG_DATA_HOME": "d", "HOME": "/h"]), "/h/.local/share")
        XCTAssertEqual(path(.state, ["XDG_STATE_HOME": "/s", "HOME": "/h"]), "/s")
        XCTAssertEqual(path(.state, ["XDG_STATE_HOME": "./s", "HOME": "/h"]), "/h/.local/state")
        XCTAssertEqual(path(.state, ["XDG_STATE_HOME": "s"]), nil)
    }

    func testConflictingOptionsNameBoth() {
        XCTAssertEqual(UsageError.conflictingOptions("--memory", "--store <path>").message,
                       "'--memory' cannot be used with '--store <path>'")
        XCTAssertEqual(UsageError.list(["a", "b", "c"]), "a, b or c")
        XCTAssertEqual(UsageError.list(["a"]), "a")
    }
}
