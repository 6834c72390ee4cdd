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
}
