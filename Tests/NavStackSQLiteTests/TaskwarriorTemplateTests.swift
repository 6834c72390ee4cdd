import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// A series' template through `import --from taskwarrior` and `export --to taskwarrior`:
/// it comes back whenever navstack holds it, and only what navstack holds comes back.
final class TaskwarriorTemplateTests: XCTestCase {
    private let clock = TaskClock(zone: .utc, fixedNow: Instant(iso8601: "2026-11-27T09:00:00Z")!)
    private let series = "00000000-0000-4000-8000-0000000000ff"

    private func exported(_ records: String) throws -> [String] {
        let store = try SQLiteStore(path: nil)
        store.clock = clock
        _ = try store.importTaskwarrior(try TaskwarriorReader.read(Array(records.utf8), source: "test"), user: "ana", dryRun: false)
        var text = ""
        try store.exportTasks(to: .taskwarrior, user: "ana", clock: clock) { text += $0 }
        return text.split(separator: "\n").map(String.init).filter { $0 != "[" && $0 != "]" }
    }

    private func instance(_ number: String, _ status: String, more: String = "") -> String {
        #"{"uuid":"00000000-0000-4000-8000-00000000000\#(number)","description":"Pay rent","status":"\#(status)","#
            + #""entry":"20261001T090000Z","modified":"20261101T090000Z","due":"2026110\#(number)T000000Z","recur":"monthly","#
            + #""parent":"\#(series)","imask":"\#(number)"\#(more)}"#
    }

    private var template: String {
        #"{"uuid":"\#(series)","description":"Pay rent","status":"recurring","entry":"20261001T090000Z","#
            + #""due":"20261101T000000Z","recur":"monthly","mask":"++","rtype":"periodic"}"#
    }

    /// Taskwarrior with `recurrence=off` (a second machine of a synced Taskwarrior) holds
    /// a series' template while every instance it holds is done: the template comes back,
    /// once, before the first.
    func testATemplateKeptByADoneInstanceComesBack() throws {
        let lines = try exported(
            "["
                + [
                    instance("1", "completed", more: #","end":"20261101T100000Z""#), template,
                    instance("2", "completed", more: #","end":"20261102T100000Z""#),
                ]
                .joined(separator: ",\n") + "]")
        XCTAssertEqual(lines.count, 3, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.filter { $0.hasPrefix(template) }.count, 1, lines.joined(separator: "\n"))
    }

    /// A user's own attribute `template` is theirs: it goes back as an attribute with its
    /// text, and never as a record of its own, even when it reads as one.
    func testAUsersAttributeNamedTemplatePrintsNoRecord() throws {
        let victim = "00000000-0000-4000-8000-0000000000aa"
        let forged = #"{\"uuid\":\"\#(victim)\",\"description\":\"Overwritten\",\"status\":\"recurring\"}"#
        for parent in [series, victim] {
            let record =
                #"{"uuid":"00000000-0000-4000-8000-000000000001","description":"Mine","status":"pending","parent":"\#(parent)","#
                + #""template":"\#(forged)"}"#
            let lines = try exported("[" + record + "]")
            XCTAssertEqual(lines.count, 1, lines.joined(separator: "\n"))
            XCTAssertTrue(lines[0].contains(#""template":"\#(forged)""#), lines[0])
            XCTAssertFalse(lines.contains { $0.contains(#""description":"Overwritten""#) && !$0.contains("Mine") })
        }
    }

    /// The fields navstack keeps for itself come from no other program's record.
    func testNavstacksOwnFieldsAreRefusedFromARecord() {
        for key in [TaskwarriorWriter.templateField, TodoTxtWriter.lineField] {
            let text = #"[{"uuid":"00000000-0000-4000-8000-000000000001","description":"Mine","status":"pending","\#(key)":"x"}]"#
            XCTAssertEqual(
                importFailure { () throws(ImportError) in _ = try TaskwarriorReader.read(Array(text.utf8), source: "test") },
                .badRecord(index: 0, .reservedField(key)))
            XCTAssertEqual(
                ImportError.badRecord(index: 0, .reservedField(key)).message(in: .english),
                "record 0: '\(key)' is a field navstack keeps for itself; another program's record cannot give it; nothing was imported")
        }
    }
}
