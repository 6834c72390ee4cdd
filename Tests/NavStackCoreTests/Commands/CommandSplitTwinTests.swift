import NavStackBytes
import TestSeeds
import XCTest

@testable import NavStackCore

/// The three ways a line is split and the two ways a command word is looked up, held
/// equal over thousands of drawn lines: a line of printable ASCII split from its bytes
/// (`Command.split(printableASCII:)`, the interpreter's first try), an ASCII line split
/// from its bytes inside `Command.split(_:)`, and any line split by characters
/// (`Command.splitByCharacters(_:)`, the plain way); a word looked up from its ASCII bytes
/// (`CommandWord.lookUp(ascii:)`) and from its text (`CommandWord(word:)`). Each failure
/// names its seed (``TestSeed``).
final class CommandSplitTwinTests: XCTestCase {
    /// The seeds each test runs (``TestSeed``); the counts of inputs that took the fast
    /// path are asked of each.
    private static let seeds = TestSeed.seeds(1...3)
    /// Whitespace a line may have around and between its parts, ASCII and not, and
    /// characters that are not whitespace however they look.
    private static let gaps = [
        " ", "  ", "\t", " \t ", "\u{0B}", "\u{0C}", "\r", "\r\n", "\u{A0}", "\u{2003}", "\u{85}", "\u{1C}", "\u{200B}",
    ]

    /// A command word as typed: any case, mistyped now and then.
    private func word(_ generator: inout SplitMix64) -> String {
        let word = generator.pick(CommandWord.allCases).rawValue
        var typed = String(word.map { generator.oneIn(3) ? Character($0.uppercased()) : $0 })
        switch generator.int(in: 0...9) {
        case 0: typed += generator.pick(["s", "!", "x", "é", "\u{301}"])
        case 1: typed = String(typed.dropLast())
        case 2: typed = String(typed.dropFirst())
        case 3: typed = String(typed.reversed())
        default: break
        }
        return typed
    }

    /// A line: a word (a command's, a comment's `#`, or any text) with an argument, and
    /// gaps around and between them.
    private func line(_ generator: inout SplitMix64, ascii: Bool) -> String {
        let first: String =
            switch generator.int(in: 0...9) {
            case 0...6: word(&generator)
            case 7: "#" + generator.plainText(words: 0...3)
            default: ascii ? generator.plainText(words: 1...2) : generator.text()
            }
        let argument: String =
            switch generator.int(in: 0...7) {
            case 0, 1: ""
            // Long: a title near its limit, notes past it.
            case 2: String(repeating: generator.plainText(words: 1...3) + " ", count: generator.int(in: 5...60)).trimmed
            default: ascii ? generator.plainText() : generator.text()
            }
        let gaps = ascii ? [" ", "  ", "   "] : Self.gaps
        let lead = generator.oneIn(3) ? generator.pick(gaps) : ""
        let trail = generator.oneIn(3) ? generator.pick(gaps) : ""
        let gap = argument.isEmpty && generator.oneIn(2) ? "" : generator.pick(gaps)
        return lead + first + gap + argument + trail
    }

    /// A split or its error, to compare.
    private func outcome(_ split: () throws(NavError) -> (word: CommandWord, argument: String)?) -> String {
        do throws(NavError) {
            guard let (word, argument) = try split() else { return "nothing" }
            return "\(word.rawValue) \(argument.debugDescription)"
        } catch {
            return "error \(error)"
        }
    }

    /// `Command.split(_:)` (its ASCII path for ASCII lines) gives what splitting by
    /// characters gives, for any line.
    func testALineSplitsAsItDoesByCharacters() {
        var ascii = 0
        forEachSeed(Self.seeds) { seed in
            var generator = SplitMix64(state: seed)
            for _ in 0..<5000 {
                let line = line(&generator, ascii: generator.oneIn(3))
                if line.utf8.allSatisfy({ $0 < 0x80 }) { ascii += 1 }
                XCTAssertEqual(
                    outcome { () throws(NavError) in try Command.split(line) },
                    outcome { () throws(NavError) in try Command.splitByCharacters(line) },
                    "\(TestSeed.named(seed)): \(line.debugDescription)")
            }
        }
        XCTAssertGreaterThan(ascii, Self.seeds.count * 2000, "many lines take the ASCII path")
    }

    /// A line of printable ASCII split from its bytes gives what splitting by characters
    /// gives: blank, or the word and its argument; a word it does not know is left to
    /// `split`, which refuses it.
    func testAPrintableLineSplitsFromItsBytesAsByCharacters() {
        var split = 0
        forEachSeed(Self.seeds) { seed in
            var generator = SplitMix64(state: seed)
            for _ in 0..<5000 {
                let line = line(&generator, ascii: true)
                let bytes = Array(line.utf8)
                guard bytes.withBytes(\.isPrintableASCII) else { continue }
                let plain = bytes.withBytes { Command.split(printableASCII: $0) }
                let expected: String
                switch plain {
                case .blank?: expected = "nothing"
                case .command(let word, let argument)?: expected = "\(word.rawValue) \(argument.debugDescription)"
                case nil: expected = "refused"
                }
                if plain != nil { split += 1 }
                var byCharacters = outcome { () throws(NavError) in try Command.splitByCharacters(line) }
                if byCharacters.hasPrefix("error ") { byCharacters = "refused" }
                XCTAssertEqual(expected, byCharacters, "\(TestSeed.named(seed)): \(line.debugDescription)")
            }
        }
        XCTAssertGreaterThan(split, Self.seeds.count * 2000, "many lines are split from their bytes")
    }

    /// A word looked up from its ASCII bytes is the word looked up from its text, for
    /// command words in any case, mistyped ones, and any ASCII bytes.
    func testAWordLooksUpFromItsBytesAsFromItsText() {
        var found = 0
        forEachSeed(Self.seeds) { seed in
            var generator = SplitMix64(state: seed)
            for _ in 0..<5000 {
                let typed: [UInt8]
                if generator.oneIn(3) {
                    typed = (0..<generator.int(in: 0...10)).map { _ in UInt8(generator.int(in: 0...0x7F)) }
                } else {
                    typed = Array(word(&generator).utf8).filter { $0 < 0x80 }
                }
                let fromBytes = typed.withBytes { CommandWord.lookUp(ascii: $0) }
                if fromBytes != nil { found += 1 }
                XCTAssertEqual(
                    fromBytes, CommandWord(word: String(decoding: typed, as: UTF8.self)), "\(TestSeed.named(seed)): \(typed)")
            }
        }
        XCTAssertGreaterThan(found, Self.seeds.count * 1500, "many words are found")
    }
}
