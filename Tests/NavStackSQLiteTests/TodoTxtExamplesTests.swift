import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// todo.txt files through `import --from todotxt` and `export --to todotxt`, in a store: the
/// lines a task was not changed since come back byte for byte, and titles come back as
/// they were whatever todo.txt would read in their words.
final class TodoTxtExamplesTests: XCTestCase {
    private let clock = TaskClock(zone: .utc, fixedNow: Instant(iso8601: "2026-12-06T09:00:00Z")!)

    /// The examples of the todo.txt format's README and the lines of todo.txt-cli's tests
    /// (Tests/Fixtures/README.md says where each comes from).
    private var examples: String {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../Fixtures/todo.txt-examples.txt").standardizedFileURL
            return try String(contentsOf: url, encoding: .utf8)
        }
    }

    private func store() throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.clock = clock
        return store
    }

    private func importing(_ text: String, into store: SQLiteStore) throws -> ImportSummary {
        let records = try TodoTxtReader.read(Array(text.utf8), source: "test", zone: .utc)
        return try store.importTaskwarrior(records, user: "ana", dryRun: false)
    }

    private func exported(_ store: SQLiteStore) throws -> String {
        var text = ""
        try store.exportTasks(to: .todotxt, user: "ana", clock: clock) { text += $0 }
        return text
    }

    func testTheFormatsOwnExamplesAndTodoTxtCLIsLinesComeBackByteForByte() throws {
        let file = try examples
        XCTAssertEqual(file.split(separator: "\n", omittingEmptySubsequences: false).count, 201)
        let store = try store()
        XCTAssertEqual(try importing(file, into: store).added, 200)
        let back = try exported(store)
        let (mine, theirs) = (back.split(separator: "\n"), file.split(separator: "\n"))
        for (line, was) in zip(mine, theirs) where line != was { XCTFail("\(was) came back as \(line)") }
        XCTAssertEqual(back, file)
        // Read again, the file is the same tasks.
        let again = try importing(back, into: store)
        XCTAssertEqual([again.added, again.updated, again.unchanged], [0, 0, 200])
    }

    /// A line changed in navstack is written anew: with the day the task came in as its
    /// creation date, and its uuid (its text no longer gives it).
    func testALineChangedInNavstackIsWrittenAnew() throws {
        let store = try store()
        _ = try importing("Call Mom\nx Pay rent\n", into: store)
        XCTAssertEqual(try exported(store), "Call Mom\nx Pay rent\n")
        let call = try XCTUnwrap(try store.page("ana", ListQuery(filter: .every), offset: 0, limit: 10).first { $0.title == "Call Mom" })
        var fields = call.fields
        fields.title = "Call Mom today"
        _ = try store.write("ana", id: call.id, [.title], from: fields, as: .save)
        let lines = try exported(store).split(separator: "\n")
        XCTAssertEqual(lines[0], Substring("2026-12-06 Call Mom today uuid:\(call.uuid)"))
        XCTAssertEqual(lines[1], "x Pay rent")
    }

    /// Title words that todo.txt reads as something else go out with a `\` before them and
    /// come back as the same title, tags and all.
    func testTitlesTodoTxtWouldMisreadComeBackAsTheyWere() throws {
        let titles = [
            "Review PR:123 today", "Email +bob and @ana", "x marks the spot", "(A) plan", "2026-01-01 review",
            #"\+200 is already escaped"#, #"\\x two"#, #"C:\WINDOWS stays"#, "uuid:7e160343-d492-49b6-8ab5-ec32f89ee792 in words",
            "due:tomorrow", "+ lone signs @", "ends with a:b", #"\PR:1 and \\PR:2"#,
        ]
        let created = Instant(iso8601: "2026-11-20T00:00:00Z")
        let completed = Instant(iso8601: "2026-11-25T00:00:00Z")
        let starts: [(done: Bool, priority: Priority?, stamps: TaskStamps)] = [
            (false, nil, TaskStamps()), (false, .high, TaskStamps()), (false, nil, TaskStamps(created: created)),
            (true, nil, TaskStamps()), (true, nil, TaskStamps(completed: completed)),
            (true, .low, TaskStamps(created: created, completed: completed)),
        ]
        for title in titles {
            for start in starts {
                var fields = DraftFields(title: title, done: start.done)
                fields.priority = start.priority
                fields.tags = title.hasPrefix("Email") ? ["ana"] : []
                let line = TodoTxtWriter.line(fields, stamps: start.stamps, parentUUID: nil, zone: .utc)
                let back = try TodoTxtReader.parse(line, zone: .utc)
                XCTAssertEqual(back.fields.title, title, line)
                XCTAssertEqual(back.fields.tags, fields.tags, line)
                XCTAssertEqual(back.fields.done, start.done, line)
                XCTAssertEqual(back.fields.priority, start.priority, line)
                XCTAssertEqual(back.fields.custom, [], line)
            }
        }
        var fields = DraftFields(title: "Review PR:123 today")
        XCTAssertEqual(TodoTxtWriter.line(fields, stamps: TaskStamps(), parentUUID: nil, zone: .utc), #"Review \PR:123 today"#)
        fields.title = "x +bob @ana"
        fields.tags = ["ana"]
        XCTAssertEqual(TodoTxtWriter.line(fields, stamps: TaskStamps(), parentUUID: nil, zone: .utc), #"\x \+bob @ana"#)
        // A word escaped by hand (Simpletask's `\+200`) is the title's, not a tag.
        let record = try TodoTxtReader.parse(#"Switch dial to \+200"#, zone: .utc)
        XCTAssertEqual(record.fields.title, "Switch dial to +200")
        XCTAssertEqual(record.fields.tags, [])
    }
}
