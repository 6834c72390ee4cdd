import XCTest

@testable import NavStackCore

final class StringTextTests: XCTestCase {
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
}
