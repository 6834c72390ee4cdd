import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// todo.txt lines (todotxt/todo.txt's format) as navstack reads them.
final class TodoTxtReaderTests: XCTestCase {
    private func read(_ text: String) throws(ImportError) -> [TaskwarriorRecord] {
        try TodoTxtReader.read(Array(text.utf8), source: "test", zone: .utc)
    }

    private func failure(_ text: String) -> ImportError? {
        importFailure { () throws(ImportError) in _ = try read(text) }
    }

    func testEachPartOfALineHasItsPlace() throws {
        let records = try read(
            """
            (A) 2026-11-20 Call Mom @phone +Family due:2026-12-01
            x 2026-11-25 2026-11-20 Pay rent +home pri:B
            (D) Buy milk @store
            Water plants rec:+1w t:2026-11-28 due:2026-11-30 note:keep http://example.com\r

            """)
        XCTAssertEqual(records.count, 4)
        let call = records[0]
        XCTAssertEqual(call.fields.title, "Call Mom @phone +Family")
        XCTAssertEqual(call.fields.tags, ["phone", "Family"])
        XCTAssertEqual(call.fields.priority, .high)
        XCTAssertEqual(call.fields.due, Instant(iso8601: "2026-12-01T00:00:00Z"))
        XCTAssertEqual(call.stamps.created, Instant(iso8601: "2026-11-20T00:00:00Z"))
        XCTAssertEqual(call.status, .open)
        let rent = records[1]
        XCTAssertTrue(rent.fields.done)
        XCTAssertEqual(rent.status, .done)
        XCTAssertEqual(rent.fields.priority, .medium)
        XCTAssertEqual(rent.stamps.completed, Instant(iso8601: "2026-11-25T00:00:00Z"))
        XCTAssertEqual(rent.stamps.created, Instant(iso8601: "2026-11-20T00:00:00Z"))
        XCTAssertEqual(records[2].fields.custom, [CustomField(name: "pri", value: "D")])
        let plants = records[3]
        XCTAssertEqual(plants.fields.title, "Water plants http://example.com")
        XCTAssertEqual(plants.fields.recur, "1w")
        XCTAssertEqual(plants.fields.wait, Instant(iso8601: "2026-11-28T00:00:00Z"))
        XCTAssertEqual(plants.fields.custom, [CustomField(name: "note", value: "keep")])
    }

    func testALinesUUIDComesFromItsText() throws {
        let once = try read("Buy milk\nBuy bread\n")
        let again = try read("Buy milk\nBuy bread\n")
        XCTAssertEqual(once.map(\.uuid), again.map(\.uuid))
        XCTAssertTrue(once.allSatisfy { $0.uuid.isUUID })
        // The same text twice makes two tasks.
        let twice = try read("Buy milk\nBuy milk\n")
        XCTAssertEqual(Set(twice.map(\.uuid)).count, 2)
        XCTAssertEqual(twice[0].uuid, once[0].uuid)
    }

    func testABadLineIsNamedByItsNumber() {
        XCTAssertEqual(failure("\n  \n"), .empty(source: "test"))
        XCTAssertEqual(failure("ok\nbad \u{1} line\n"), .badLine(number: 2, .controlCharacter(.title, "\u{1}")))
        XCTAssertEqual(failure("ok\n\nx due:2026-02-30 y\n"), .badLine(number: 3, .badValue(key: "due", expected: "YYYY-MM-DD")))
        XCTAssertEqual(failure("(A) +\n"), nil, "a lone sign is a word of the title")
        XCTAssertEqual(failure("(A) due:2026-12-01\n"), .badLine(number: 1, .blankTitle))
        XCTAssertThrowsError(try TodoTxtReader.read([0x61, 0xFF, 0x0A], source: "test", zone: .utc)) { error in
            guard case .badLine(number: 1, .notJSON(.invalidUTF8))? = error as? ImportError else { return XCTFail("\(error)") }
        }
    }
}
