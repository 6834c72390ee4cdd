import TestSeeds
import XCTest

@testable import NavStackCore

/// The text checks and transforms that answer from bytes when they can (ASCII, or text of
/// one line) held equal to their plain definitions by characters and scalars, over
/// thousands of drawn texts. Each failure names its seed (``TestSeed``).
final class StringTwinTests: XCTestCase {
    /// The seeds each test runs (``TestSeed``); the counts of inputs that took the fast
    /// path are asked of each.
    private static let seeds = TestSeed.seeds(1...3)
    private func draw(_ count: Int = 5000, _ body: (inout SplitMix64) -> Void) {
        forEachSeed(Self.seeds) { seed in
            var generator = SplitMix64(state: seed)
            for _ in 0..<count { body(&generator) }
        }
    }

    /// Wrapping: a text that is its own one line is kept whole, as wrapping it word by word
    /// keeps it, a first word of no columns (a lone combining mark, a control, U+FEFF)
    /// included.
    func testAOneLineTextIsWrappedAsWordByWord() {
        var whole = 0
        var zeroWidthFirst = 0
        draw { generator in
            let text = generator.text()
            let width = generator.int(in: 1...120)
            if text.split(separator: " ").first?.displayWidth == 0 { zeroWidthFirst += 1 }
            if text.isOneLine(fitting: width) { whole += 1 }
            XCTAssertEqual(text.wrapped(toWidth: width), text.wrappedByWords(toWidth: width), "\(text.debugDescription) in \(width)")
        }
        XCTAssertGreaterThan(whole, Self.seeds.count * 1500, "many texts are their own line")
        XCTAssertGreaterThan(zeroWidthFirst, 0, "texts that start with a word of no columns were drawn")
    }

    /// A word of no columns first keeps the space after it when the text is wrapped.
    func testAFirstWordOfNoColumnsKeepsItsSpace() {
        XCTAssertEqual("\u{200B} alpha beta".wrappedByWords(toWidth: 10), ["\u{200B} alpha", "beta"])
        XCTAssertEqual("\u{301} ab cd ef".wrapped(toWidth: 5), ["\u{301} ab", "cd ef"])
    }

    /// Columns: counted from the bytes (ASCII), scalar by scalar, or by characters, as
    /// character by character.
    func testTheWidthIsTheSumOfTheCharactersWidths() {
        draw { generator in
            let text = generator.text()
            XCTAssertEqual(text.displayWidth, text.reduce(0) { $0 + $1.displayWidth }, text.debugDescription)
        }
    }

    /// Trimming and blankness: answered from ASCII ends and bytes, as by characters.
    func testTrimmingAndBlanknessAreTheCharactersOnes() {
        draw { generator in
            let text = generator.text()
            let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            XCTAssertEqual(Array(text.trimmed.utf8), Array(trimmed.utf8), text.debugDescription)
            XCTAssertEqual(text.isBlank, text.allSatisfy(\.isWhitespace), text.debugDescription)
        }
    }

    /// Escaping: printable ASCII and text with nothing unsafe are kept as they are, as the
    /// scalar by scalar escape keeps them; same bytes compared eight at a time, as byte by
    /// byte.
    func testEscapingAndSameBytesAreTheScalarAndByteOnes() {
        draw { generator in
            let text = generator.text()
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\n": escaped += "\\n"
                case "\t": escaped += "\\t"
                case "\r": escaped += "\\r"
                case _ where scalar.needsEscapeForDisplay: escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            XCTAssertEqual(Array(text.escapedForDisplay.utf8), Array(escaped.utf8), text.debugDescription)
            // The same text, another, or the text with one ASCII byte changed (same length).
            var other = generator.oneIn(3) ? text : generator.text()
            var bytes = Array(text.utf8)
            if generator.oneIn(2), let place = bytes.indices.filter({ bytes[$0] < 0x80 }).randomElement(using: &generator) {
                bytes[place] = bytes[place] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
                other = String(decoding: bytes, as: UTF8.self)
            }
            XCTAssertEqual(
                text.hasSameBytes(as: other), Array(text.utf8) == Array(other.utf8), "\(text.debugDescription) \(other.debugDescription)")
        }
    }
}
