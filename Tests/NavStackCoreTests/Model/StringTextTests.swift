import NavStackCore
import XCTest

final class StringTextTests: XCTestCase {
    func testALineAroundANumberIsTheThreeJoined() {
        for number in [0, 7, 10, 12_345, -1, -90, Int.max, Int.min] {
            XCTAssertEqual(String("navstack: line ", number, ": oops\n"), "navstack: line \(number): oops\n")
        }
        XCTAssertEqual(String("", 42, ""), "42")
        XCTAssertEqual(String("línea ", 3, " ☕ 日本\n"), "línea 3 ☕ 日本\n")
        let long = String(repeating: "x", count: 300)
        XCTAssertEqual(String(long, 1, long), long + "1" + long)
    }

    func testTrimmingKeepsInnerSpaceAndDropsUnicodeSpaceAtTheEnds() {
        XCTAssertEqual("  a  b \t".trimmed, "a  b")
        XCTAssertEqual("\u{A0}café\u{2003}".trimmed, "café")
        XCTAssertEqual(" \t\r\n".trimmed, "")
    }
}
