import Foundation
import XCTest

/// `navstack import --from taskwarrior` against what the real Taskwarrior (Debian's
/// `taskwarrior`, which scripts/test installs) exports.
final class TaskwarriorImportTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/task"), "taskwarrior is not installed (scripts/test installs it)")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-tw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        let taskrc = """
            data.location=\(folder.appendingPathComponent("data").path)
            confirmation=off
            verbose=nothing
            recurrence.confirmation=off
            uda.estimate.type=numeric
            uda.estimate.label=Estimate
            uda.client.type=string
            uda.client.label=Client

            """
        try taskrc.write(to: folder.appendingPathComponent("taskrc"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs `task` on this test's data.
    @discardableResult
    private func task(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/task")
        process.arguments = arguments
        process.environment = ["TASKRC": folder.appendingPathComponent("taskrc").path, "TZ": "UTC", "HOME": folder.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
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

    func testABadRecordFailsTheWholeImportNamingItsIndexAndField() throws {
        let cases: [(String, String)] = [
            ("not json", "record 0: not JSON"),
            ("{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"x\", \"due\": \"2026-13-01\"}", "record 0: 'due'"),
            (
                "{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"ok\"}\n{\"uuid\": \"nope\", \"description\": \"x\"}",
                "record 1: \"uuid\" is not a uuid"
            ),
            ("[{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"x\", \"status\": \"lost\"}]", "record 0: 'status'"),
            ("[{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"x\", \"depends\": \"1,2\"}]", "record 0: 'depends'"),
            (
                "[{\"uuid\": \"7e160343-d492-49b6-8ab5-ec32f89ee792\", \"description\": \"" + String(repeating: "x", count: 300) + "\"}]",
                "record 0"
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
