@testable import NavStackCore
import XCTest

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
}
