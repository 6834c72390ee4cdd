import NavStackBytes
import TestSeeds
import XCTest

@testable import NavStackCore

final class StringTextTests: XCTestCase {
    /// The bytes a string lends are its UTF-8, whatever its size or content.
    func testAStringLendsItsUTF8() {
        let texts = ["", "a", "Buy fruit", "Café au lait", "a\u{0}b", String(repeating: "long title ", count: 40), "🙂 emoji", "e\u{301}"]
        for text in texts + texts.map({ String($0.reversed()) }) {
            XCTAssertEqual(text.withUTF8Bytes { Array($0) }, Array(text.utf8), text)
            XCTAssertEqual(text.withUTF8Bytes { $0.count }, text.utf8.count)
        }
        let slice = "  padded  ".dropFirst(2).dropLast(2)
        XCTAssertEqual(String(slice).withUTF8Bytes { Array($0) }, Array("padded".utf8))
    }

    func testDecimalDigitsAreAppendedAsText() {
        for number in [0, 7, 10, 12_345, -1, -90, Int.max, Int.min] {
            var bytes = Array("line ".utf8)
            bytes.appendDecimal(number)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "line \(number)")
        }
    }

    func testTrimmingKeepsInnerSpaceAndDropsUnicodeSpaceAtTheEnds() {
        XCTAssertEqual("  a  b \t".trimmed, "a  b")
        XCTAssertEqual("\u{A0}café\u{2003}".trimmed, "café")
        XCTAssertEqual(" \t\r\n".trimmed, "")
    }

    func testInvisibleSeparatingAndDirectionCharactersAreShownEscaped() {
        let hidden: [(Unicode.Scalar, String)] = [
            ("\u{061C}", "\\u{61C}"), ("\u{2028}", "\\u{2028}"), ("\u{2029}", "\\u{2029}"),
            ("\u{200B}", "\\u{200B}"), ("\u{FEFF}", "\\u{FEFF}"), ("\u{202E}", "\\u{202E}"),
        ]
        for (scalar, shown) in hidden {
            XCTAssertEqual(("a" + String(scalar) + "b").escapedForDisplay, "a" + shown + "b", "U+\(String(scalar.value, radix: 16))")
        }
        // Joiners that build emoji and scripts stay as they are.
        XCTAssertEqual("👩\u{200D}💻".escapedForDisplay, "👩\u{200D}💻")
    }

    func testBlankIsOnlyWhitespaceWhateverTheBytes() {
        for blank in ["", " ", "\t\r\n", "\u{A0}\u{2003}", " \u{301}"] {
            XCTAssertTrue(blank.isBlank, blank.debugDescription)
        }
        for text in ["a", "  x ", "\u{A0}b", "é", "\u{2003}1\u{2003}", "👩\u{200D}💻"] {
            XCTAssertFalse(text.isBlank, text.debugDescription)
        }
    }

    func testPrintableASCIIIsASpaceToATildeAndNothingElse() {
        XCTAssertTrue("Buy fruit ~!".isPrintableASCII)
        XCTAssertTrue("".isPrintableASCII)
        for text in ["tab\there", "del\u{7F}", "café", "line\n", "\u{1B}[31m"] {
            XCTAssertFalse(text.isPrintableASCII, text.debugDescription)
        }
        // Printable ASCII is shown as it is; anything else still goes through the scalars.
        XCTAssertEqual("Study SwiftUI".escapedForDisplay, "Study SwiftUI")
        XCTAssertEqual("a\tb\u{1B}".escapedForDisplay, "a\\tb\\u{1B}")
    }

    func testOneLineMeansNoSpaceAtTheEndsNorTwoTogether() {
        XCTAssertTrue("Buy fruit".isOneLine(fitting: 9))
        XCTAssertFalse("Buy fruit".isOneLine(fitting: 8))
        for text in ["", " a", "a ", "a  b", " "] {
            XCTAssertFalse(text.isOneLine(fitting: 80), text.debugDescription)
        }
        XCTAssertTrue("café au lait".isOneLine(fitting: 13))
        XCTAssertEqual("a  b".wrapped(toWidth: 80), ["a b"])
    }

    /// Texts of 0 to 40 bytes drawn from the bytes at the edges of each check (controls,
    /// space, the first and last printable, DEL, the first high byte, 0xFF), each byte in
    /// every position of an eight-byte word: the checks made eight bytes at a time answer
    /// as the byte-by-byte definitions do.
    func testTheEightAtATimeChecksAnswerAsByteByByte() {
        let edges: [UInt8] = [0x00, 0x09, 0x1F, 0x20, 0x21, 0x41, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        func oneLine(_ bytes: [UInt8]) -> Bool {
            !bytes.isEmpty && bytes.first != 0x20 && bytes.last != 0x20
                && !zip(bytes, bytes.dropFirst()).contains { $0 == 0x20 && $1 == 0x20 }
        }
        forEachSeed([5]) { seed in
            var generator = SplitMix64(state: seed)
            var texts: [[UInt8]] = []
            for length in 0...40 {
                for _ in 0..<60 { texts.append((0..<length).map { _ in edges.randomElement(using: &generator)! }) }
                // Mostly printable, with one edge byte in each place, and two spaces at each place.
                for place in 0..<length {
                    for edge in edges {
                        var text = [UInt8](repeating: 0x61, count: length)
                        text[place] = edge
                        texts.append(text)
                    }
                    var spaced = [UInt8](repeating: 0x61, count: length)
                    spaced[place] = 0x20
                    if place + 1 < length { spaced[place + 1] = 0x20 }
                    texts.append(spaced)
                }
            }
            for bytes in texts {
                let expectedPrintable = bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
                bytes.withBytes { view in
                    XCTAssertEqual(view.isPrintableASCII, expectedPrintable, "\(bytes)")
                    XCTAssertEqual(view.isPlainOneLine, expectedPrintable && oneLine(bytes), "\(bytes)")
                }
                // Whole bytes of valid UTF-8 only make a String as they are.
                if let text = String(validating: bytes, as: UTF8.self) {
                    XCTAssertEqual(text.isPrintableASCII, expectedPrintable, "\(bytes)")
                    XCTAssertEqual(text.isOneLine(fitting: 80), oneLine(bytes), "\(bytes)")
                }
            }
        }
    }

    func testTextIsAppendedAsItsUTF8() {
        var bytes = Array("> ".utf8)
        bytes.append(utf8: "café")
        bytes.append(utf8: "ab"[...])
        bytes.appendSpaces(2)
        bytes.appendSpaces(-1)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "> caféab  ")
    }

    func testSameBytesIsNotCanonicalEquality() {
        XCTAssertTrue("Caf\u{E9}".hasSameBytes(as: "Caf\u{E9}"))
        XCTAssertTrue("".hasSameBytes(as: ""))
        XCTAssertFalse("Caf\u{E9}".hasSameBytes(as: "Cafe\u{301}"))
        XCTAssertFalse("a\u{301}\u{316}".hasSameBytes(as: "a\u{316}\u{301}"), "same length, marks in another order")
        XCTAssertEqual("a\u{301}\u{316}", "a\u{316}\u{301}")
        XCTAssertFalse("abc".hasSameBytes(as: "abd"))
        XCTAssertTrue(String(repeating: "long text ", count: 10).hasSameBytes(as: String(repeating: "long text ", count: 10)))
        // Compared eight bytes at a time, then the rest: a difference in either part.
        let long = String(repeating: "0123456789", count: 3)
        for index in [0, 7, 8, 15, 23, 24, 29] {
            var bytes = Array(long.utf8)
            bytes[index] = UInt8(ascii: "x")
            XCTAssertFalse(long.hasSameBytes(as: String(decoding: bytes, as: UTF8.self)), "byte \(index)")
        }
        XCTAssertTrue(long.hasSameBytes(as: String(decoding: Array(long.utf8), as: UTF8.self)), "apart, same bytes")
    }

    /// A control character is known from its value: exactly the scalars Unicode's table
    /// puts in the general category Cc, every scalar checked.
    func testAControlCharacterIsWhatUnicodesTableSays() {
        var controls = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = scalar.properties.generalCategory == .control
            if scalar.isControlCharacter != expected { XCTFail("U+\(String(value, radix: 16))") }
            if expected { controls += 1 }
        }
        XCTAssertEqual(controls, 65)
    }
}
