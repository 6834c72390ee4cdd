import NavStackCore
import XCTest

@testable import NavStackSQLite

/// An import with bad records names every one of them (20, then how many more), each by
/// its index or line, uuid and first words, and the field; and imports nothing.
final class ImportBadRecordsTests: XCTestCase {
    static func uuid(_ n: Int) -> String { "7e160343-d492-49b6-8ab5-" + String(format: "%012d", n) }

    func testEveryBadRecordOfNavstacksOwnImportIsNamed() {
        let records = [
            #"{"title":"Fine"}"#,
            #"{"title":"\#(String(repeating: "long ", count: 250))","uuid":"\#(Self.uuid(1))"}"#,
            #"{"title":"Tagged","tags":["not a tag"]}"#,
            #"{"title":"Ring\u0007 the bell now please","notes":"n"}"#,
        ]
        XCTAssertThrowsError(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8))) {
            XCTAssertEqual(
                ($0 as? ImportError)?.description,
                """
                record 1 (uuid \(Self.uuid(1)), "long long long long long…"): title too long (1250 characters; the limit is 1000)
                record 2 ("Tagged"): tags cannot be 'not a tag'
                record 3 ("Ring\\u{7} the bell now please"): the title contains the control character \\u{7}; nothing was imported
                """)
        }
    }

    func testEveryBadTaskwarriorRecordIsNamedTwentyThenACount() {
        let records = (0..<25).map { n in
            #"{"uuid":"\#(Self.uuid(n))","description":"Task \#(n)","status":"pending","uda":"\#(n == 3 ? "ok" : "a\\u001b")"}"#
        }
        XCTAssertThrowsError(try TaskwarriorReader.read(Array(("[" + records.joined(separator: ",") + "]").utf8), source: "test")) {
            guard case .badRecords(let named, let more)? = $0 as? ImportError else { return XCTFail("\($0)") }
            XCTAssertEqual(named.count, 20)
            XCTAssertEqual(more, 4)
            XCTAssertEqual(named.map(\.place), ([0, 1, 2] + Array(4...20)).map(BadRecord.Place.record))
            let lines = ($0 as? ImportError)?.description.split(separator: "\n") ?? []
            XCTAssertEqual(lines.count, 21)
            XCTAssertEqual(
                lines.first,
                #"record 0 (uuid \#(Self.uuid(0)), "Task 0"): the custom field value contains the control character \u{1B}"#)
            XCTAssertEqual(lines.last, "4 more bad records; nothing was imported")
        }
    }

    func testEveryBadTodoTxtLineIsNamedByItsNumber() {
        let notes = String(repeating: "n", count: 2001)
        let file = "ok\n(A) due:2026-12-01\nfine\nbell \u{7} here\nNote notes:\(notes) uuid:\(Self.uuid(9))\n"
        XCTAssertThrowsError(try TodoTxtReader.read(Array(file.utf8), source: "test", zone: .utc)) {
            XCTAssertEqual(
                ($0 as? ImportError)?.description,
                """
                line 2 ("(A) due:2026-12-01"): the title is blank
                line 4 ("bell \\u{7} here"): the title contains the control character \\u{7}
                line 5 (uuid \(Self.uuid(9)), "Note"): notes too long (2001 characters; the limit is 2000); nothing was imported
                """)
        }
    }

    /// Past the items a task holds, a record is refused, never cut: 201 annotations or
    /// custom fields used to import as `added 1` and then show none.
    func testARecordPastTheItemsATaskHoldsIsRefused() {
        let annotations = (0..<201).map { #"{"entry":"20261120T080000Z","description":"a\#($0)"}"# }
        let fields = (0..<201).map { #""uda\#($0)":"v""# }
        for extra in [#""annotations":[\#(annotations.joined(separator: ","))]"#, fields.joined(separator: ",")] {
            let record = #"[{"uuid":"\#(Self.uuid(1))","description":"Many","status":"pending",\#(extra)}]"#
            XCTAssertThrowsError(try TaskwarriorReader.read(Array(record.utf8), source: "test")) {
                guard case .badRecords(let named, 0)? = $0 as? ImportError, case .value(.tooManyItems(_, 201, 200)) = named.first?.problem
                else { return XCTFail("\($0)") }
            }
        }
    }

    /// One record of 20,000 custom fields or annotations is read in linear time and
    /// refused by the item limit (appending to a draft's field one at a time made it
    /// quadratic).
    func testARecordOfTwentyThousandItemsIsRefusedQuickly() {
        let annotations = (0..<20_000).map { #"{"entry":"20261120T080000Z","description":"a\#($0)"}"# }
        let fields = (0..<20_000).map { #""uda\#($0)":"v""# }
        for extra in [#""annotations":[\#(annotations.joined(separator: ","))]"#, fields.joined(separator: ",")] {
            let record = #"[{"uuid":"\#(Self.uuid(1))","description":"Many","status":"pending",\#(extra)}]"#
            XCTAssertThrowsError(try TaskwarriorReader.read(Array(record.utf8), source: "test")) {
                guard case .badRecords(let named, 0)? = $0 as? ImportError,
                    case .value(.tooManyItems(_, 20_000, 200)) = named.first?.problem
                else { return XCTFail("\($0)") }
            }
        }
    }
}
