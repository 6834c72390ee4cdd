import XCTest

@testable import NavStackCore

/// What is made from the option table besides parsing: where a subcommand stands, the XDG
/// folders, the manual page and the completion scripts.
final class CommandLineToolsTests: XCTestCase {
    private let root = CommandSpec(
        name: "tool", abstract: "Does things.",
        options: [
            .init("store", value: "path", complete: .file, help: "Where. More."),
            .init("memory", help: "In memory."),
            .init("format", value: "format", complete: .choices(["text", "json"]), help: "It's text or json."),
            .init("", short: "c", value: "command", repeatable: true, help: "A command."),
        ],
        subcommands: [("run", "Runs.")])
    private let run = CommandSpec(
        name: "tool run", abstract: "Runs -fast.",
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

    func testTheManualPageEscapesRoff() {
        let page = ManualPage(root: root, subcommands: [run], version: "1.0").text
        XCTAssertTrue(page.hasPrefix(".TH TOOL 1 \"\" \"tool 1.0\" \"User Commands\"\n.SH NAME\ntool \\- Does things.\n"), page)
        XCTAssertTrue(page.contains(".TP\n\\fB\\-\\-store\\fR \\fIpath\\fR\nWhere. More.\n"), page)
        XCTAssertTrue(page.contains(".SS tool run\nRuns \\-fast.\n"), page)
        XCTAssertEqual(ManualPage.escaped(".x \\ …"), "\\&.x \\e \\[u2026]")
    }

    func testCompletionScriptsComeFromTheTable() {
        let scripts = CompletionScript(root: root, subcommands: [run])
        let bash = scripts.script(for: .bash)
        XCTAssertTrue(bash.contains("        --format) candidates=(text json) ;;\n"), bash)
        XCTAssertTrue(bash.contains("        --store) files=1 ;;\n"), bash)
        XCTAssertTrue(bash.contains("                run) candidates=(--user --help) ;;\n"), bash)
        XCTAssertTrue(bash.hasSuffix("complete -F _tool tool\n"))
        let zsh = scripts.script(for: .zsh)
        XCTAssertTrue(zsh.hasPrefix("#compdef tool\n"))
        XCTAssertTrue(zsh.contains("'--format:It'\\''s text or json.'"), zsh)
        XCTAssertTrue(zsh.contains("'run:Runs -fast.'"), zsh)
        let fish = scripts.script(for: .fish)
        XCTAssertTrue(fish.contains("complete -c tool -n '__tool_is tool' -l store -r -F -d Where.\n"), fish)
        XCTAssertTrue(fish.contains("complete -c tool -n '__tool_is run' -l user -x -d Who.\n"), fish)
    }

    func testConflictingOptionsNameBoth() {
        XCTAssertEqual(
            UsageError.conflictingOptions("--memory", "--store <path>").message,
            "'--memory' cannot be used with '--store <path>'")
        XCTAssertEqual(UsageError.list(["a", "b", "c"]), "a, b or c")
        XCTAssertEqual(UsageError.list(["a"]), "a")
    }
}
