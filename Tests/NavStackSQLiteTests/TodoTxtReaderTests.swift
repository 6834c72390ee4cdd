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
        XCTAssertEqual(call.fields.tags, ["Family", "phone"], "a set, sorted")
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
        // Without a creation date, the line is kept as it was (the store gives the task one).
        XCTAssertEqual(
            records[2].fields.custom,
            [CustomField(name: "pri", value: "D"), CustomField(name: TodoTxtWriter.lineField, value: "(D) Buy milk @store")])
        let plants = records[3]
        XCTAssertEqual(plants.fields.title, "Water plants http://example.com")
        XCTAssertEqual(plants.fields.recur, "1w")
        XCTAssertEqual(plants.fields.wait, Instant(iso8601: "2026-11-28T00:00:00Z"))
        // navstack would write its words in another order: the line is kept as it was.
        XCTAssertEqual(
            plants.fields.custom,
            [
                CustomField(name: "note", value: "keep"),
                CustomField(
                    name: TodoTxtWriter.lineField, value: "Water plants rec:+1w t:2026-11-28 due:2026-11-30 note:keep http://example.com"),
            ])
        XCTAssertEqual(call.fields.custom, [], "a line as navstack writes it keeps nothing more")
    }

    /// A word with a colon is `key:value` only when its key starts with a letter: a time,
    /// a ratio or a verse stays in the title, and comes back there.
    func testTimesAndRatiosStayInTheTitle() throws {
        let records = try read("Call the bank at 10:30 about 16:9 screens, John 3:16 h:1 x1:y\n")
        XCTAssertEqual(records[0].fields.title, "Call the bank at 10:30 about 16:9 screens, John 3:16")
        XCTAssertEqual(records[0].fields.custom.prefix(2), [CustomField(name: "h", value: "1"), CustomField(name: "x1", value: "y")])
        var fields = DraftFields(title: "Stand-up 09:15")
        fields.due = Instant(iso8601: "2026-12-01T00:00:00Z")
        let line = TodoTxtWriter.line(fields, stamps: TaskStamps(), parentUUID: nil, zone: .utc)
        XCTAssertEqual(try read(line + "\n")[0].fields.title, "Stand-up 09:15")
    }

    /// One of navstack's own keys with a value that is not one stays a word of the title:
    /// a custom field `uuid` or `project` would be written over the task's own attribute by
    /// `export --to taskwarrior`. The writer leaves such a word as it is.
    func testOwnKeysWithValuesThatAreNotOnesStayInTheTitle() throws {
        let records = try read("Call uuid:x about project:a..b depends:y and PR:12\n")
        XCTAssertEqual(records[0].fields.title, "Call uuid:x about project:a..b depends:y and")
        XCTAssertNil(records[0].fields.project)
        XCTAssertEqual(records[0].fields.custom.map(\.name).filter { $0 != TodoTxtWriter.lineField }, ["PR"])
        XCTAssertTrue(records[0].uuid.isUUID, "its own uuid, from its text")
        let line = TodoTxtWriter.line(DraftFields(title: "Call uuid:x now"), stamps: TaskStamps(), parentUUID: nil, zone: .utc)
        XCTAssertTrue(line.hasSuffix("Call uuid:x now"), line)
        XCTAssertEqual(try read(line + "\n")[0].fields.title, "Call uuid:x now")
    }

    func testTheWriterWritesWhatTheReaderReadsBack() throws {
        let madrid = try Zone.named("Europe/Madrid")
        var fields = DraftFields(title: "Plan +trip the 100% way", notes: "first line\nsecond\tthird %20 literal", done: false)
        fields.due = Instant(iso8601: "2026-12-03T08:30:00Z")
        fields.scheduled = Instant(iso8601: "2026-11-30T23:00:00Z")
        fields.until = Instant(iso8601: "2027-03-28T12:15:30Z")
        fields.priority = .low
        fields.project = "travel.eu"
        fields.recur = "2w"
        fields.tags = ["later", "trip"]
        fields.annotations = [Annotation(entry: Instant(iso8601: "2026-11-27T09:00:00Z")!, text: "booked: 50% of it")]
        fields.depends = ["7e160343-d492-49b6-8ab5-ec32f89ee792"]
        fields.custom = [CustomField(name: "client", value: "ACME Corp")]
        let stamps = TaskStamps(created: Instant(iso8601: "2026-11-27T09:00:00Z"))
        let line = TodoTxtWriter.line(fields, stamps: stamps, parentUUID: "01a2269f-c051-7000-910d-53e32eff12da", zone: madrid)
        XCTAssertEqual(
            line,
            "(C) 2026-11-27 Plan +trip the 100% way +later due:2026-12-03T09:30 rec:2w scheduled:2026-12-01 until:2027-03-28T14:15:30 "
                + "project:travel.eu depends:7e160343-d492-49b6-8ab5-ec32f89ee792 notes:first%20line%0Asecond%09third%20%2520%20literal "
                + "ann:20261127T090000Z:booked:%2050%%20of%20it navstack_parent:01a2269f-c051-7000-910d-53e32eff12da client:ACME%20Corp")
        let back = try TodoTxtReader.parse(line, zone: madrid)
        var expected = fields
        expected.title = "Plan +trip the 100% way +later"
        XCTAssertEqual(back.fields, expected)
        XCTAssertEqual(back.parentUUID, "01a2269f-c051-7000-910d-53e32eff12da")
        XCTAssertEqual(back.stamps.created, Instant(iso8601: "2026-11-26T23:00:00Z"), "the day, at midnight in Madrid")
        for text in ["", "100%", "%20", "% 20", "a%25b c", "%%", "tab\there", "%0a%0A"] {
            XCTAssertEqual(TodoTxtWriter.decoded(TodoTxtWriter.encoded(text)), text, text)
            XCTAssertFalse(TodoTxtWriter.encoded(text).contains(" "), text)
        }
    }

    func testADoneTasksPriorityAndAKeptLetterComeBack() throws {
        for line in ["x 2026-11-25 2026-11-20 Pay rent pri:B", "(Q) Someday", "x Done without dates", "2026-11-20 Plain"] {
            let record = try XCTUnwrap(read(line).first)
            XCTAssertEqual(TodoTxtWriter.line(record.fields, stamps: record.stamps, parentUUID: nil, zone: .utc), line)
            // A line without a creation date is kept: the store gives the task one.
            XCTAssertEqual(record.fields.custom.contains { $0.name == TodoTxtWriter.lineField }, record.stamps.created == nil, line)
        }
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
        XCTAssertEqual(failure("ok\nbad \u{1} line\n"), .badLine(number: 2, .value(.controlCharacter(.title, "\u{1}"))))
        XCTAssertEqual(failure("ok\n\nx due:2026-02-30 y\n"), .badLine(number: 3, .badValue(key: "due", expected: "YYYY-MM-DD")))
        XCTAssertEqual(failure("(A) +\n"), nil, "a lone sign is a word of the title")
        let uuid = "7e160343-d492-49b6-8ab5-ec32f89ee792"
        XCTAssertEqual(failure("a uuid:\(uuid)\nb uuid:\(uuid)\n"), .badLine(number: 2, .duplicateUUID(uuid)))
        XCTAssertEqual(failure("ok\nx ann:2026:text y\n"), .badLine(number: 2, .badValue(key: "ann", expected: "YYYYMMDDTHHMMSSZ:TEXT")))
        XCTAssertEqual(failure("t:2026-12-01T24:00 late\n"), .badLine(number: 1, .badValue(key: "t", expected: "YYYY-MM-DD")))
        XCTAssertEqual(failure("(A) due:2026-12-01\n"), .badLine(number: 1, .value(.blank(.title))))
        XCTAssertThrowsError(try TodoTxtReader.read([0x61, 0xFF, 0x0A], source: "test", zone: .utc)) { error in
            guard case .badLine(number: 1, .notJSON(.invalidUTF8))? = (error as? ImportError)?.single else { return XCTFail("\(error)") }
        }
    }
}
