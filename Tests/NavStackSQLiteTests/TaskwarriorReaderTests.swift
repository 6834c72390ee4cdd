import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// What `task export` prints, as navstack reads it (the real program's output is checked in
/// Tests/EndToEndTests/TaskwarriorImportTests).
final class TaskwarriorReaderTests: XCTestCase {
    private let uuid = "7e160343-d492-49b6-8ab5-ec32f89ee792"

    private func read(_ text: String) throws(ImportError) -> [TaskwarriorRecord] {
        try TaskwarriorReader.read(Array(text.utf8), source: "test")
    }

    private func failure(_ text: String) -> ImportError? {
        importFailure { () throws(ImportError) in _ = try read(text) }
    }

    func testEveryAttributeHasItsPlace() throws {
        let records = try read(
            """
            \u{FEFF}[{"id": 3, "uuid": "7E160343-D492-49B6-8AB5-EC32F89EE792", "description": "Write report", "status": "completed",
              "entry": "20261120T080000Z", "modified": "20261121T080000Z", "end": "2026-11-22T08:00:00Z",
              "due": "20261130T170000Z", "scheduled": "20261129T000000Z", "wait": "20261128T000000Z", "until": "20270101T000000Z",
              "priority": "H", "project": "work.reports", "recur": "Weekly", "tags": ["work", "c++"],
              "annotations": [{"entry": "20261121T090000Z", "description": "asked Bob"}],
              "depends": "03fdcbd3-03be-44cc-b7a2-ce08f3d23c56,03457da3-a364-4d9d-9ea0-998491920997",
              "urgency": 4.9, "estimate": 2.5, "client": "ACME", "start": "20261121T100000Z", "flagged": true}]
            """)
        let record = try XCTUnwrap(records.first)
        XCTAssertEqual(record.uuid, uuid)
        XCTAssertEqual(record.status, .done)
        XCTAssertEqual(record.stamps.created, Instant(iso8601: "2026-11-20T08:00:00Z"))
        XCTAssertEqual(record.stamps.modified, Instant(iso8601: "2026-11-21T08:00:00Z"))
        XCTAssertEqual(record.stamps.completed, Instant(iso8601: "2026-11-22T08:00:00Z"))
        let fields = record.fields
        XCTAssertEqual(fields.title, "Write report")
        XCTAssertTrue(fields.done)
        XCTAssertEqual(fields.due, Instant(iso8601: "2026-11-30T17:00:00Z"))
        XCTAssertEqual(fields.until, Instant(iso8601: "2027-01-01T00:00:00Z"))
        XCTAssertEqual(fields.priority, .high)
        XCTAssertEqual(fields.project, "work.reports")
        XCTAssertEqual(fields.recur, "weekly")
        XCTAssertEqual(fields.tags, ["work"])
        XCTAssertEqual(fields.annotations, [Annotation(entry: Instant(iso8601: "2026-11-21T09:00:00Z")!, text: "asked Bob")])
        XCTAssertEqual(fields.depends, ["03fdcbd3-03be-44cc-b7a2-ce08f3d23c56", "03457da3-a364-4d9d-9ea0-998491920997"])
        XCTAssertEqual(
            fields.custom,
            [
                CustomField(name: "estimate", value: "2.5"), CustomField(name: "client", value: "ACME"),
                CustomField(name: "start", value: "20261121T100000Z"), CustomField(name: "flagged", value: "true"),
                CustomField(name: "tags", value: "c++"),
            ])
    }

    /// Taskwarrior's other rule names are read as the rule they step by, which the export
    /// writes back and Taskwarrior reads the same.
    func testTaskwarriorsRuleNamesAreReadAsTheirRule() throws {
        let rules = ["annual": "yearly", "fortnight": "biweekly", "3days": "3d", "biannual": "2y", "semiannual": "6m"]
        for (typed, rule) in rules {
            let line =
                #"{"uuid":"7E160343-D492-49B6-8AB5-EC32F89EE792","description":"T","status":"pending","#
                + #""due":"20261130T170000Z","recur":""# + typed + #""}"#
            XCTAssertEqual(try read(line).first?.fields.recur, rule, typed)
        }
    }

    func testStatusesAndOneObjectALine() throws {
        let lines = ["pending", "waiting", "completed", "deleted", "recurring"].enumerated().map { index, status in
            "{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee79\(index)\", \"description\": \"t\(index)\", \"status\": \"\(status)\"}"
        }
        let records = try read(lines.joined(separator: "\n") + "\n\n")
        XCTAssertEqual(records.map(\.status), [.open, .open, .done, .deleted, .template])
        // Taskwarrior 3's array of dependencies; a priority and a project navstack lacks stay as text.
        let three = try read(
            "[{\"uuid\": \"\(uuid)\", \"description\": \"x\", \"depends\": [\"03FDCBD3-03be-44cc-b7a2-ce08f3d23c56\"], \"priority\": \"U\", \"project\": \"a..b\"}]"
        )
        XCTAssertEqual(three.first?.fields.depends, ["03fdcbd3-03be-44cc-b7a2-ce08f3d23c56"])
        XCTAssertEqual(
            three.first?.fields.custom, [CustomField(name: "priority", value: "U"), CustomField(name: "project", value: "a..b")])
    }

    func testABadRecordIsNamedByItsIndexAndField() {
        XCTAssertEqual(failure("   "), .empty(source: "test"))
        XCTAssertEqual(
            failure("{\"uuid\": \"\(uuid)\", \"description\": \"ok\"}\nnot json"), .badRecord(index: 1, .notJSON(.unexpected("n", at: 0))))
        XCTAssertEqual(
            failure("[{\"uuid\": \"\(uuid)\", \"description\": \"a\"}, {\"uuid\": \"\(uuid)\", \"description\": \"b\"}]"),
            .badRecord(index: 1, .duplicateUUID(uuid)))
        XCTAssertEqual(
            failure("[{\"uuid\": \"\(uuid)\", \"description\": \"a\", \"due\": \"20260230T000000Z\"}]"),
            .badRecord(index: 0, .badValue(key: "due", expected: "YYYYMMDDTHHMMSSZ")))
        XCTAssertEqual(failure("[{\"uuid\": \"\(uuid)\"}]"), .badRecord(index: 0, .badValue(key: "description", expected: "\"…\"")))
        XCTAssertEqual(failure("[{\"description\": \"a\"}]"), .badRecord(index: 0, .badValue(key: "uuid", expected: "8-4-4-4-12")))
        XCTAssertEqual(
            failure("[{\"uuid\": \"\(uuid)\", \"description\": \"a\\u0007\"}]"),
            .badRecord(index: 0, .value(.controlCharacter(.title, "\u{7}"))))
        XCTAssertEqual(failure("[{\"uuid\": \"\(uuid)\", \"description\": \"  \"}]"), .badRecord(index: 0, .value(.blank(.title))))
        XCTAssertEqual(failure("[3]"), .badRecord(index: 0, .notAnObject))
        if case .notJSON? = failure("[{\"uuid\": ") {} else { XCTFail("a cut array is not JSON") }
        XCTAssertThrowsError(try TaskwarriorReader.read([0x5B, 0xFF, 0x5D], source: "test")) { error in
            guard case .notJSON(.invalidUTF8(at: 1))? = error as? ImportError else { return XCTFail("\(error)") }
        }
    }

    /// A uuid the store knows is refused by record, as navstack's own import refuses it:
    /// held by another profile, or by an own import that was undone (redo would bring its
    /// task back).
    /// An export read a block at a time gives what it gives read whole: the same records
    /// and templates kept, or the same failure (at the same offset), for arrays and for one
    /// object a line, however small the blocks.
    func testAnExportReadInBlocksIsTheExportReadWhole() {
        func outcome(_ bytes: [UInt8], blockSize: Int?) -> String {
            var records: [TaskwarriorRecord] = []
            do {
                let kept = try TaskwarriorReader.read(bytes, source: "test", blockSize: blockSize) { record, index in
                    XCTAssertEqual(index, records.count)
                    records.append(record)
                }
                return "\(records.map { "\($0)" }) \(kept.map { "\($0)" })"
            } catch {
                return "\(error)"
            }
        }
        func task(_ digit: Character, _ more: String = "") -> String {
            #"{"uuid":"00000000-0000-4000-8000-00000000000\#(digit)","description":"Tarefa ação 😀 \"x\"","status":"pending","#
                + #""entry":"20261101T090000Z","modified":"20261101T090000Z","urgency":12.5\#(more)}"#
        }
        let series = #","parent":"00000000-0000-4000-8000-00000000000f","recur":"weekly","due":"20261201T090000Z""#
        let template =
            #"{"uuid":"00000000-0000-4000-8000-00000000000f","description":"T","status":"recurring","recur":"weekly","#
            + #""due":"20261201T090000Z","entry":"20261101T090000Z"}"#
        let good = [task("1"), task("2", series), template, task("3")]
        let texts = [
            "\u{FEFF}[" + good.joined(separator: ",\n") + "]\n", "  \n" + good.joined(separator: "\r\n") + "\r\n",
            good.joined(separator: "\n\n  \n"), "[" + good.joined(separator: ",") + ",]", "[" + task("1") + "," + task("1") + "]",
            task("1") + "\n{\"uuid\": 1}\n", "[" + task("1") + "] x", "[" + task("1"), "   ", "",
            "[" + task("1", ",\"a\":\"\u{7}\"") + "]", task("1") + "\n" + task("2", ",\"a\":01"),
        ]
        for text in texts {
            var bytes = Array(text.utf8)
            let whole = outcome(bytes, blockSize: nil)
            for size in [1, 2, 7, 64, 1000] {
                XCTAssertEqual(outcome(bytes, blockSize: size), whole, "\(text.debugDescription) in blocks of \(size)")
            }
            // A byte that is not UTF-8 in the middle.
            bytes.insert(0xFF, at: bytes.count / 2)
            let broken = outcome(bytes, blockSize: nil)
            for size in [1, 3, 64] { XCTAssertEqual(outcome(bytes, blockSize: size), broken, "\(text.debugDescription) broken") }
        }
        let kept = outcome(Array(texts[0].utf8), blockSize: 5)
        // The template is kept by the open instance of its series (shown escaped, in a list).
        XCTAssertTrue(kept.contains(#"instance: \"00000000-0000-4000-8000-000000000002\""#), kept)
    }

    /// A byte that is not UTF-8 in one object a line is named at its offset in the input,
    /// after characters of several bytes too.
    func testABadByteIsNamedWhereItIs() {
        let first = #"{"uuid":"00000000-0000-4000-8000-000000000001","description":"One","status":"pending"}"# + "\n"
        let offset = first.utf8.count
        for (line, at) in [([0xFF], 0), (Array("é😀x".utf8) + [0xFF], 7), (Array("ab".utf8) + [0xE2, 0x82], 2), ([0x80, 0x41], 0)] {
            XCTAssertEqual(
                importFailure { () throws(ImportError) in
                    _ = try TaskwarriorReader.read(Array(first.utf8) + line + Array("\n".utf8), source: "test")
                }, .notJSON(.invalidUTF8(at: offset + at)), "\(line)")
            XCTAssertEqual(TaskwarriorReader.firstNotUTF8(line[...]), at)
        }
        XCTAssertNil(TaskwarriorReader.firstNotUTF8(Array("é😀x".utf8)[...]))
    }

    func testAUUIDTheStoreKnowsFailsTheRecord() throws {
        let store = try SQLiteStore(path: nil)
        let records = try read("[{\"uuid\": \"\(uuid)\", \"description\": \"Pay rent\"}]")
        XCTAssertEqual(try store.importTaskwarrior(records, user: "ana", dryRun: false).added, 1)
        for dryRun in [true, false] {
            XCTAssertThrowsError(try store.importTaskwarrior(records, user: "bea", dryRun: dryRun)) { error in
                XCTAssertEqual(error as? ImportError, .badRecord(index: 0, .uuidInStore(uuid)))
            }
        }
        let other = "0f3c1b2a-9d8e-4f7a-8b6c-5d4e3f2a1b0c"
        _ = try store.importTasks(try SQLiteStore.parseImport(Array("[{\"title\": \"Own\", \"uuid\": \"\(other)\"}]".utf8)), user: "cy")
        XCTAssertEqual(try store.undo("cy")?.kind, .import)
        let again = try read("[{\"uuid\": \"\(other)\", \"description\": \"Own\"}]")
        XCTAssertThrowsError(try store.importTaskwarrior(again, user: "cy", dryRun: false)) { error in
            XCTAssertEqual(error as? ImportError, .badRecord(index: 0, .uuidInStore(other)))
        }
        XCTAssertEqual(try store.redo("cy")?.kind, .import, "the import undone comes back")
    }
}
