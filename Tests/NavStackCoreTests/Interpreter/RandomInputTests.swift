import NavStackCore
import NavStackSQLite
import TestSeeds
import XCTest

/// Thousands of seeded random lines, good and bad: every line gets exactly one answer
/// (a screen, help, where, or one error), and nothing crashes.
final class RandomInputTests: XCTestCase {
    private static let words = CommandWord.allCases.map(\.rawValue) + ["opne", "xyzzy", "", "#", "BACK", "Go", "tab"]
    private static let arguments = [
        "", "1", "2", "3", "0", "-1", "99999999999999999999", "two", "2.5", "1 2", "tasks", "account", "on", "off",
        "all", "open", "done", "tasks/2/edit", "navstack://tasks/new", "http://x", "tasks/9", "Café ☕ 日本",
        "e\u{301}\u{301}", "\t", "  spaced  ", String(repeating: "a", count: 250), "back!",
    ]

    /// Lines that work on some screen.
    private static let plausible = [
        "open 1", "open 2", "back", "root", "edit", "title Walked", "notes n", "done on", "save", "cancel", "back!",
        "tab account", "tab tasks", "settings", "about", "new", "toggle 1", "toggle", "next", "prev", "filter all",
        "go tasks/1/edit", "go tasks/new", "go account/settings", "where", "help", "undo", "redo", "add Random",
    ]

    private func randomLine(_ rng: inout SplitMix64) -> [UInt8] {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0:  // raw random bytes, NUL, escapes, invalid UTF-8 included
            return (0..<Int.random(in: 0..<40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        case 1:  // a long line
            return [UInt8](repeating: UInt8(ascii: "x"), count: Int.random(in: 4000...5000, using: &rng))
        default:
            let word = Self.words.randomElement(using: &rng)!
            let argument = Self.arguments.randomElement(using: &rng)!
            return Array((word + " " + argument).utf8)
        }
    }

    private func run(format: Interpreter.Format, seed: UInt64, lines count: Int) throws {
        var rng = SplitMix64(state: seed)
        var shell = Interpreter(
            router: Router(
                store: try SQLiteStore(path: nil),
                configuration: .init(
                    pageSize: 2, sampleForNewProfiles: true,
                    catalog: Catalog(Language.allCases.randomElement(using: &rng)!))),
            options: .init(format: format, width: Int.random(in: 20...120, using: &rng)))
        var answers = [Interpreter.Outcome: Int]()
        for _ in 0..<count {
            // Sign in now and then, and often type a line that works, so every screen is reached.
            let line: [UInt8] =
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: Array("login ana".utf8)
                case 1...3: Array(Self.plausible.randomElement(using: &rng)!.utf8)
                default: randomLine(&rng)
                }
            let sink = RecordingSink()
            let outcome = shell.handle(line, to: sink)
            answers[outcome, default: 0] += 1
            let added = sink.merged
            let printed = added.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            switch (outcome, format) {
            case (.nothing, _), (.quit, _):
                XCTAssertEqual(added, "", "\(line)")
            case (.failed, _):
                XCTAssertEqual(printed.count, 1, "one error line for \(line): \(added)")
            case (.succeeded, .json):
                XCTAssertEqual(printed.count, 1, "one JSON line for \(line)")
                XCTAssertTrue(added.hasPrefix("{"), added)
            case (.succeeded, .text):
                XCTAssertFalse(printed.isEmpty, "a screen for \(line)")
                XCTAssertFalse(added.unicodeScalars.contains { $0.value == 0x1B || $0 == "\0" }, "no escape reaches the terminal")
            }
        }
        XCTAssertGreaterThan(answers[.succeeded, default: 0], count / 10, "the walk reached screens")
        XCTAssertGreaterThan(answers[.failed, default: 0], count / 10, "the walk met errors")
    }

    func testEveryLineGetsExactlyOneAnswerInJSON() throws {
        forEachSeed(1...3) { seed in try run(format: .json, seed: seed, lines: 3000) }
    }

    func testEveryLineGetsExactlyOneAnswerInText() throws {
        forEachSeed(11...13) { seed in try run(format: .text, seed: seed, lines: 3000) }
    }
}
