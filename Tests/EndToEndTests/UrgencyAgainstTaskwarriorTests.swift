import Foundation
import NavStackCore
import NavStackSQLite
import NavStackTime
import XCTest

/// navstack's ``Urgency`` held to the urgency Debian's Taskwarrior 2.6.2 (which scripts/test
/// installs) gives the same tasks: forty tasks of every kind are imported into Taskwarrior
/// and into navstack, and each task's urgency in `task export` (six digits; `task
/// _urgency` prints three) is compared with what ``Urgency`` makes of the task navstack
/// holds. Both import at 2026-11-27 09:00 UTC (faketime, NAVSTACK_NOW); Taskwarrior's clock
/// is then stopped at each instant compared.
final class UrgencyAgainstTaskwarriorTests: XCTestCase {
    private var folder: URL!
    private let now = Instant(iso8601: "2026-11-27T09:00:00Z")!

    override func setUpWithError() throws {
        for program in ["/usr/bin/task", "/usr/bin/faketime"] where !FileManager.default.isExecutableFile(atPath: program) {
            XCTFail("\(program) is not installed (scripts/test installs taskwarrior and faketime): urgency cannot be compared")
            throw CocoaError(.fileNoSuchFile)
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-urgency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        let taskrc = "data.location=\(folder.appendingPathComponent("data").path)\nconfirmation=off\nverbose=nothing\n"
        try taskrc.write(to: folder.appendingPathComponent("taskrc"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs Taskwarrior with its clock stopped at `instant`; a failure fails the test with
    /// what Taskwarrior said.
    private func task(at instant: Instant, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
        process.arguments = ["-f", Self.format(instant, "yyyy-MM-dd HH:mm:ss"), "/usr/bin/task"] + arguments
        process.environment = ["TASKRC": folder.appendingPathComponent("taskrc").path, "TZ": "UTC", "HOME": folder.path]
        let (out, err) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let (output, errors) = (try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
        guard process.terminationStatus == 0 else {
            XCTFail("task \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(errors)\(output)")
            throw CocoaError(.executableLoad)
        }
        return output
    }

    /// Each task's urgency in `task export` at `instant`, by uuid, deleted tasks left out.
    private func urgencies(at instant: Instant, count: Int) throws -> [String: Double] {
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try task(at: instant, "export").utf8)) as? [[String: Any]])
        XCTAssertEqual(exported.count, count, "Taskwarrior holds every record")
        var urgencies: [String: Double] = [:]
        for record in exported where record["status"] as? String != "deleted" {
            urgencies[try XCTUnwrap(record["uuid"] as? String)] = try XCTUnwrap(record["urgency"] as? Double)
        }
        return urgencies
    }

    /// Imported at `now`; compared then, nine days later (waits and schedules past, dues
    /// further along) and 400 days later (every age past a year, every due overdue).
    func testEveryImportedTaskHasTaskwarriorsUrgency() throws {
        let file = folder.appendingPathComponent("tasks.json")
        let records = Self.records(now: now)
        try JSONSerialization.data(withJSONObject: records, options: [.sortedKeys]).write(to: file)
        _ = try task(at: now, "import", file.path)
        let store = folder.appendingPathComponent("navstack.sqlite").path
        let imported = try NavstackProcess.run(["import", "--from", "taskwarrior", "--user", "ana", "--store", store, file.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let opened = try SQLiteStore(path: store)

        for instant in [now, now.adding(seconds: 9 * 86_400 + 5 * 3_600 + 17 * 60 + 3), now.adding(seconds: 400 * 86_400)] {
            let theirs = try urgencies(at: instant, count: records.count)
            XCTAssertEqual(theirs.count, records.count - 1, "one deleted task, which navstack does not import")
            var held: [TaskItem] = []
            for uuid in theirs.keys.sorted() { held.append(try XCTUnwrap(try opened.task("ana", uuid: uuid), uuid)) }
            let links = Urgency.links(among: held)
            XCTAssertFalse(links.blocked.isEmpty || links.blocking.isEmpty, "the tasks block one another")
            var largest = 0.0
            for item in held {
                let (blocking, blocked) = (links.blocking.contains(item.uuid), links.blocked.contains(item.uuid))
                let ours = Urgency.of(item, now: instant, blocking: blocking, blocked: blocked)
                let expected = theirs[item.uuid]!
                largest = max(largest, abs(ours - expected))
                XCTAssertEqual(ours, expected, accuracy: 0.001, "\(item.title) \(item.uuid) at \(instant.secondsSinceEpoch)")
            }
            print(
                "urgency of \(held.count) tasks at \(Self.format(instant, "yyyy-MM-dd HH:mm:ss")) UTC as Taskwarrior 2.6.2's; largest difference \(largest)"
            )
        }
    }

    /// Forty Taskwarrior export records: due long past, near and far, scheduled and waiting
    /// before and after now, every priority, projects, 0 to 4 tags (`next` among them, and
    /// tags differing only in case), 0 to 5 annotations (two made the same second),
    /// dependencies on open, waiting, done, deleted and missing tasks, started tasks, done
    /// tasks, a deleted one, and ages from an hour to six years.
    static func records(now: Instant) -> [[String: Any]] {
        let day = 86_400.0
        let ages: [Int] = [
            3_600, 43_200, 86_399, 86_400, 216_000, 864_000, 3_888_000, 8_640_000, 17_280_000, 31_527_360, 31_536_000,
            31_622_400, 34_560_000, 94_608_000, 189_216_000,
        ]
        let dues: [Double?] = [nil, -30, -7, -6.5, -1, -0.1, 0, 0.25, 1, 3.7, 7, 13.9, 14, 15, 60, 400]
        let pool = ["next", "home", "errand", "bills", "Home"]
        let uuid = { (i: Int) in String(format: "%08x-0000-4000-8000-%012x", i + 1, i + 1) }
        let date = { (seconds: Double) in Self.format(now.adding(seconds: Int64(seconds.rounded())), "yyyyMMdd'T'HHmmss'Z'") }
        return (0..<40).map { i in
            var record: [String: Any] = ["uuid": uuid(i), "description": "Task \(i)", "status": "pending"]
            if i != 39 {
                record["entry"] = date(-Double(ages[i % ages.count]))
                record["modified"] = record["entry"]
            }
            if [5, 18, 31].contains(i) {
                record["status"] = "completed"
                record["end"] = date(-2 * day)
            }
            if i == 38 {
                record["status"] = "deleted"
                record["end"] = date(-day)
            }
            if let due = dues[i % dues.count] { record["due"] = date(due * day) }
            if i % 5 == 1 { record["scheduled"] = date(-2 * day) }
            if i % 5 == 3 { record["scheduled"] = date(3 * day) }
            if i % 9 == 2 || i == 18 { record["wait"] = date(5 * day) }
            if i % 9 == 6 { record["wait"] = date(-day) }
            if i == 7 {
                record["status"] = "waiting"
                record["wait"] = date(10 * day)
            }
            if let priority = ["H", "M", "L", nil][i % 4] { record["priority"] = priority }
            if let project = [nil, "home", "work.reports"][i % 3] { record["project"] = project }
            let turn = (i / 5) % pool.count
            let tags = Array((pool[turn...] + pool[..<turn]).prefix(i % 5))
            if !tags.isEmpty { record["tags"] = tags }
            let notes = i == 22 ? 5 : (i / 2) % 4
            if notes > 0 {
                record["annotations"] = (0..<notes).map { n in
                    ["entry": date(-Double(min(n, 3) + 1) * day), "description": "note \(n)"]
                }
            }
            var depends: [Int] = []
            if i % 6 == 4 { depends.append(i - 1) }
            switch i {
            case 7: depends.append(6)
            case 12: depends.append(38)
            case 19: depends.append(18)
            case 25: depends += [0, 1, 2]
            case 31: depends.append(30)
            case 37: depends.append(99)
            default: break
            }
            if !depends.isEmpty { record["depends"] = depends.map(uuid) }
            if i % 7 == 3 { record["start"] = date(-day) }
            return record
        }
    }

    /// `instant` in UTC, in `pattern`.
    static func format(_ instant: Instant, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch)))
    }
}
