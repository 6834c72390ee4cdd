import Foundation
import XCTest

/// `navstack import --from taskwarrior` against what the real Taskwarrior (Debian's
/// `taskwarrior`, which scripts/test installs) exports.
final class TaskwarriorImportTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/task"), "taskwarrior is not installed (scripts/test installs it)")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "faketime is not installed (scripts/test installs it)")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-tw-\(UUID().uuidString)")
        for name in ["data", "empty", "third"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            let taskrc = """
                data.location=\(folder.appendingPathComponent(name).path)
                confirmation=off
                verbose=nothing
                recurrence.confirmation=off
                uda.estimate.type=numeric
                uda.estimate.label=Estimate
                uda.client.type=string
                uda.client.label=Client

                """
            try taskrc.write(to: folder.appendingPathComponent("\(name).taskrc"), atomically: true, encoding: .utf8)
        }
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// The tests' clock (2026-11-27 09:00 UTC, as NAVSTACK_NOW) when the test began, and
    /// running since, as faketime's offset from the real one (`-123s`, `+5s`).
    private let clock: String = {
        let seconds = Int(Date(timeIntervalSince1970: 1_795_770_000).timeIntervalSinceNow)
        return "\(seconds < 0 ? "" : "+")\(seconds)s"
    }()

    /// Runs `task` on this test's data (`data`), or on another Taskwarrior's, on the
    /// tests' clock: Taskwarrior makes a series' instances up to its own now, so on the
    /// real clock the tasks it holds would change with the day the test runs.
    @discardableResult
    private func task(_ arguments: String..., data: String = "data") throws -> String {
        try OtherProgram.run(
            "/usr/bin/faketime", ["-f", clock, "/usr/bin/task"] + arguments,
            environment: ["TASKRC": folder.appendingPathComponent("\(data).taskrc").path, "TZ": "UTC", "HOME": folder.path]
        ).output
    }

    private var store: String { folder.appendingPathComponent("navstack.sqlite").path }

    private func exported() throws -> [[String: Any]] {
        let result = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    func testEveryAttributeOfARealExportIsKeptAndASecondImportChangesNothing() throws {
        try task("add", "Pay rent", "due:2026-12-01", "recur:monthly", "project:home.bills", "+bills", "priority:H")
        try task("add", "Café com açúcar — ünïcode", "project:home", "+errand", "estimate:2.5", "client:ACME")
        try task("add", "Write report", "due:2026-11-30T17:00", "scheduled:2026-11-29", "wait:2026-11-28")
        try task("3", "annotate", "asked Bob")
        try task("add", "Review report", "depends:3", "priority:L")
        try task("add", "Old thing")
        try task("add", "Gone")
        try task("list")
        let uuids = try task("_uuids").split(separator: "\n").map(String.init)
        XCTAssertEqual(uuids.count, 7, "six tasks and the series' template")
        try task(uuids.first { try! task("_get", "\($0).description").hasPrefix("Old thing") }!, "done")
        try task(uuids.first { try! task("_get", "\($0).description").hasPrefix("Gone") }!, "delete")
        let file = folder.appendingPathComponent("export.json")
        try task("export").write(to: file, atomically: true, encoding: .utf8)

        let dry = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "--from", "taskwarrior", "--dry-run", file.path])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.hasPrefix("dry run, nothing written: would add 5, update 0, leave 0 unchanged"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("1 deleted, 1 series templates"), dry.stdout)
        let none = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(none.status, 1, "a dry run writes nothing, not even the profile")

        let first = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "--from", "taskwarrior", file.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("added 5, updated 0, unchanged 0"), first.stdout)
        let again = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "--from", "taskwarrior", file.path])
        XCTAssertTrue(again.stdout.hasPrefix("added 0, updated 0, unchanged 5"), again.stdout)

        let tasks = Dictionary(uniqueKeysWithValues: try exported().map { ($0["title"] as! String, $0) })
        XCTAssertEqual(tasks.count, 5)
        let source = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let byUUID = Dictionary(uniqueKeysWithValues: source.map { ($0["uuid"] as! String, $0) })
        for (title, mine) in tasks {
            let theirs = try XCTUnwrap(byUUID[mine["uuid"] as! String], title)
            XCTAssertEqual(theirs["description"] as? String, title)
            XCTAssertEqual(mine["done"] as? Bool, theirs["status"] as? String == "completed", title)
        }
        let rent = try XCTUnwrap(tasks["Pay rent"])
        XCTAssertEqual(rent["due"] as? String, "2026-12-01T00:00:00Z")
        XCTAssertEqual(rent["recur"] as? String, "monthly")
        XCTAssertEqual(rent["project"] as? String, "home.bills")
        XCTAssertEqual(rent["priority"] as? String, "H")
        XCTAssertEqual(rent["tags"] as? [String], ["bills"])
        let series = try XCTUnwrap(source.first { $0["status"] as? String == "recurring" })
        XCTAssertEqual((rent["fields"] as? [String: String])?["parent"], series["uuid"] as? String, "the instance keeps its template")
        let cafe = try XCTUnwrap(tasks["Café com açúcar — ünïcode"])
        XCTAssertEqual(cafe["fields"] as? [String: String], ["estimate": "2.5", "client": "ACME"])
        let report = try XCTUnwrap(tasks["Write report"])
        XCTAssertEqual(report["due"] as? String, "2026-11-30T17:00:00Z")
        XCTAssertEqual(report["scheduled"] as? String, "2026-11-29T00:00:00Z")
        XCTAssertEqual(report["wait"] as? String, "2026-11-28T00:00:00Z")
        let annotations = try XCTUnwrap(report["annotations"] as? [[String: String]])
        XCTAssertEqual(annotations.map { $0["text"] }, ["asked Bob"])
        XCTAssertEqual(tasks["Review report"]?["depends"] as? [String], [report["uuid"] as! String])
        let old = try XCTUnwrap(tasks["Old thing"])
        let oldSource = try XCTUnwrap(byUUID[old["uuid"] as! String])
        XCTAssertEqual(old["completed"] as? String, Self.iso(oldSource["end"] as! String))
        XCTAssertEqual(old["created"] as? String, Self.iso(oldSource["entry"] as! String))

        // Changed in Taskwarrior later: the next import updates it, once.
        Thread.sleep(forTimeInterval: 1.1)
        try task(report["uuid"] as! String, "modify", "Write the report", "+work")
        try task("export").write(to: file, atomically: true, encoding: .utf8)
        let update = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "--from", "taskwarrior", file.path])
        XCTAssertTrue(update.stdout.hasPrefix("added 0, updated 1, unchanged 4"), update.stdout)
        XCTAssertNotNil(try exported().first { $0["title"] as? String == "Write the report" && $0["tags"] as? [String] == ["work"] })
    }

    /// The records of a `task export`, by uuid, without what Taskwarrior works out (`id`,
    /// `urgency`) and without deleted tasks (which navstack counts and does not import).
    private static func records(_ text: String) throws -> [String: [String: NSObject]] {
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: NSObject]])
        var records: [String: [String: NSObject]] = [:]
        for var record in list where record["status"] as? String != "deleted" {
            record["id"] = nil
            record["urgency"] = nil
            records[record["uuid"] as! String] = record
        }
        return records
    }

    func testATaskwarriorExportComesBackFromNavstackToAnEmptyTaskwarriorAsItWas() throws {
        let long = String(repeating: "ü", count: 150) + " long, with “quotes” and \\ a backslash"
        try task("add", "Pay rent", "due:2026-12-01", "recur:monthly", "project:home.bills", "+bills", "priority:H")
        try task("add", "Water plants", "due:2026-11-30T08:00", "recur:2d", "until:2027-03-01", "+Home", "+home")
        try task("add", "Café com açúcar — ünïcode", "project:home", "+errand", "+Zeta", "+alpha", "estimate:2.5", "client:ACME Corp")
        try task("add", long, "scheduled:2026-11-29", "priority:M")
        try task("add", "Write report", "due:2026-11-30T17:00", "wait:2026-12-20")
        try task("add", "Review report", "priority:L")
        try task("add", "Old thing")
        try task("add", "Gone")
        try task("list")
        let byTitle = { (title: String) in
            try self.task("_uuids").split(separator: "\n").map(String.init).first {
                try self.task("_get", "\($0).description").hasPrefix(title) && self.task("_get", "\($0).status") != "recurring\n"
            }!
        }
        let report = try byTitle("Write report")
        try task(report, "annotate", "asked Bob")
        try task(report, "annotate", "Bob said: next week")
        try task(try byTitle("Review report"), "modify", "depends:\(report)")
        try task(try byTitle("Old thing"), "done")
        try task(try byTitle("Gone"), "delete")
        let original = try task("export")
        let file = folder.appendingPathComponent("export.json")
        try original.write(to: file, atomically: true, encoding: .utf8)

        let imported = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "--from", "taskwarrior", file.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let back = try NavstackProcess.run(["export", "--store", store, "--user", "ana", "--to", "taskwarrior"])
        XCTAssertEqual(back.status, 0, back.stderr)
        let backFile = folder.appendingPathComponent("back.json")
        try back.stdout.write(to: backFile, atomically: true, encoding: .utf8)
        try task("import", backFile.path, data: "empty")
        let again = try task("export", data: "empty")

        let theirs = try Self.records(original)
        let ours = try Self.records(again)
        XCTAssertEqual(theirs.count, 9, "seven tasks, two templates")
        XCTAssertEqual(Set(ours.keys), Set(theirs.keys))
        for (uuid, record) in theirs {
            let other = try XCTUnwrap(ours[uuid])
            for key in Set(record.keys).union(other.keys) {
                XCTAssertEqual(other[key], record[key], "\(record["description"] ?? "" as NSString) · \(key)")
            }
        }
        // Nothing of navstack's own was added on the way.
        XCTAssertFalse(again.contains("navstack_"), again)
    }

    /// A series whose instances are all done, as a Taskwarrior that makes no instances
    /// (`recurrence=off`, the second machine of a synced Taskwarrior) holds it, comes back
    /// with its template (`status: recurring`), and a second Taskwarrior holds what the
    /// first did.
    func testASeriesWhoseInstancesAreAllDoneComesBackWithItsTemplate() throws {
        try task("add", "Pay rent", "due:2026-11-01", "recur:monthly", "project:home", "+bills")
        try task("add", "Water plants", "due:2026-11-20", "recur:weekly")
        try task("list")
        let open = try task("rc.recurrence=off", "status:pending", "_uuids").split(separator: "\n").map(String.init)
        XCTAssertGreaterThanOrEqual(open.count, 3, "two series' instances, up to now")
        for uuid in open { try task("rc.recurrence=off", uuid, "done") }
        let original = try task("rc.recurrence=off", "export")
        XCTAssertEqual(try Self.records(original).values.filter { $0["status"] as? String == "recurring" }.count, 2, original)
        let file = folder.appendingPathComponent("export.json")
        try original.write(to: file, atomically: true, encoding: .utf8)

        let imported = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "--from", "taskwarrior", file.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let back = try NavstackProcess.run(["export", "--store", store, "--user", "ana", "--to", "taskwarrior"])
        XCTAssertEqual(back.status, 0, back.stderr)
        let backFile = folder.appendingPathComponent("back.json")
        try back.stdout.write(to: backFile, atomically: true, encoding: .utf8)
        try task("rc.recurrence=off", "import", backFile.path, data: "empty")
        let (theirs, ours) = (try Self.records(original), try Self.records(try task("rc.recurrence=off", "export", data: "empty")))
        XCTAssertEqual(Set(ours.keys), Set(theirs.keys), back.stdout)
        for (uuid, record) in theirs {
            let other = try XCTUnwrap(ours[uuid])
            for key in Set(record.keys).union(other.keys) {
                XCTAssertEqual(other[key], record[key], "\(record["description"] ?? "" as NSString) · \(key)")
            }
        }
    }

    func testNavstacksOwnNotesAndSubtasksTravelThroughTaskwarriorAndComeBack() throws {
        let records = """
            [{"title": "Plan the trip", "notes": "flights first\\nthen hotels", "subtasks": [
              {"title": "Book flights", "done": true},
              {"title": "Book hotel", "notes": "near the station"}]},
             {"title": "Alone"}]
            """
        let made = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "-"], input: Data(records.utf8))
        XCTAssertEqual(made.status, 0, made.stderr)
        let before = try exported()
        let out = try NavstackProcess.run(["export", "--store", store, "--user", "ana", "--to", "taskwarrior"])
        let file = folder.appendingPathComponent("navstack.json")
        try out.stdout.write(to: file, atomically: true, encoding: .utf8)
        try task("import", file.path, data: "third")
        try task("export", data: "third").write(to: file, atomically: true, encoding: .utf8)
        // The same uuids in another profile of the store are refused, by record.
        let taken = try NavstackProcess.run(["import", "--store", store, "--user", "bea", "--from", "taskwarrior", file.path])
        XCTAssertEqual(taken.status, 1)
        XCTAssertTrue(taken.stderr.contains("record 0:") && taken.stderr.hasSuffix("nothing was imported\n"), taken.stderr)
        let other = folder.appendingPathComponent("other.sqlite").path
        let home = try NavstackProcess.run(["import", "--store", other, "--user", "bea", "--from", "taskwarrior", file.path])
        XCTAssertEqual(home.status, 0, home.stderr)
        let after = try NavstackProcess.run(["export", "--store", other, "--user", "bea"])
        let tasks = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
        /// A task tree as uuids, titles, notes, done and subtasks, without ids. Tasks under
        /// one parent are compared in uuid order: Taskwarrior keeps no order of its own (its
        /// export lists pending tasks before completed ones).
        func shape(_ tasks: [[String: Any]]) -> String {
            tasks.map { task in
                "\(task["uuid"]!) \(task["title"]!) \(task["notes"]!) \(task["done"]!) ["
                    + shape(task["subtasks"] as? [[String: Any]] ?? []) + "]"
            }.sorted().joined(separator: "; ")
        }
        XCTAssertEqual(shape(tasks), shape(before))
        XCTAssertTrue(shape(tasks).contains("flights first\nthen hotels"), shape(tasks))
    }

    func testABadRecordFailsTheWholeImportNamingItsIndexAndField() throws {
        let uuid = "7e160343-d492-49b6-8ab5-ec32f89ee792"
        let cases: [(String, String)] = [
            ("not json", "record 0: not JSON"),
            (
                "{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"x\", \"due\": \"2026-13-01\"}",
                "record 0 (uuid \(uuid), \"x\"): 'due'"
            ),
            (
                "{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"ok\"}\n{\"uuid\": \"nope\", \"description\": \"x\"}",
                "record 1 (\"x\"): \"uuid\" is not a uuid"
            ),
            (
                "[{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"x\", \"status\": \"lost\"}]",
                "record 0 (uuid \(uuid), \"x\"): 'status'"
            ),
            (
                "[{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"x\", \"depends\": \"1,2\"}]",
                "record 0 (uuid \(uuid), \"x\"): 'depends'"
            ),
            (
                "[{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"" + String(repeating: "x", count: 1001) + "\"}]",
                "record 0 (uuid \(uuid), \"\(String(repeating: "x", count: 40))…\"): title too long (1001 characters; the limit is 1000)"
            ),
        ]
        for (input, expected) in cases {
            let result = try NavstackProcess.run(
                ["import", "--store", store, "--user", "ana", "--from", "taskwarrior", "-"], input: Data(input.utf8))
            XCTAssertEqual(result.status, 1, input)
            XCTAssertTrue(result.stderr.contains(expected) && result.stderr.hasSuffix("nothing was imported\n"), result.stderr)
        }
        let result = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertFalse(result.stdout.contains("uuid"), "nothing was imported")
    }

    /// `20261127T090000Z` as `2026-11-27T09:00:00Z`.
    private static func iso(_ taskwarrior: String) -> String {
        let c = Array(taskwarrior)
        return
            "\(String(c[0..<4]))-\(String(c[4..<6]))-\(String(c[6..<8]))T\(String(c[9..<11])):\(String(c[11..<13])):\(String(c[13..<15]))Z"
    }
}
