import Foundation
import XCTest

/// `navstack import --from todotxt` and `export --to todotxt` against the real todo.txt
/// command line (Debian's `todotxt-cli`, `todo-txt`, which scripts/test installs).
final class TodoTxtRoundTripTests: XCTestCase {
    private var folder: URL!
    private let todo = "/usr/bin/todo-txt"

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: todo), "todotxt-cli is not installed (scripts/test installs it)")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-todo-\(UUID().uuidString)")
        for name in ["mine", "back"] {
            let directory = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let config = """
                export TODO_DIR=\(directory.path)
                export TODO_FILE="$TODO_DIR/todo.txt"
                export DONE_FILE="$TODO_DIR/done.txt"
                export REPORT_FILE="$TODO_DIR/report.txt"
                export TODOTXT_DATE_ON_ADD=1

                """
            try config.write(to: folder.appendingPathComponent("\(name).cfg"), atomically: true, encoding: .utf8)
        }
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs todo.sh on one of this test's lists (`mine`, or `back`), without colours and
    /// without moving done tasks to done.txt until `archive`.
    @discardableResult
    private func todo(_ arguments: String..., list: String = "mine") throws -> String {
        let result = try OtherProgram.run(
            todo, ["-d", folder.appendingPathComponent("\(list).cfg").path, "-f", "-p", "-a"] + arguments,
            environment: ["TZ": "UTC", "HOME": folder.path, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 0, arguments.joined(separator: " "))
        return result.output
    }

    private var store: String { folder.appendingPathComponent("navstack.sqlite").path }

    private func navstack(_ arguments: [String], input: String = "") throws -> NavstackProcess.Result {
        try NavstackProcess.run(arguments + ["--store", store, "--user", "ana"], input: Data(input.utf8), environment: ["TZ": "UTC"])
    }

    private func file(_ list: String, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(list).appendingPathComponent(name), encoding: .utf8)
    }

    func testATodoTxtFileComesBackWithTheSameLines() throws {
        try todo("add", "(A) Call mom +family @phone due:2026-12-01")
        try todo("add", "Buy milk @store")
        // Its key:value words in another order than navstack writes them.
        try todo("add", "(C) Pay rent +home rec:1m due:2026-12-01 t:2026-11-28")
        try todo("add", "Café com açúcar — ünïcode foo:bar")
        try todo("add", "Fix 100% of the bugs, see https://example.com/x?a=1")
        try todo("add", "Buy milk @store")
        try todo("add", "(B) Read the manual")
        try todo("do", "2")
        try todo("pri", "5", "D")
        try todo("do", "7")
        try todo("archive")
        let original = try file("mine", "todo.txt") + file("mine", "done.txt")
        XCTAssertEqual(original.split(separator: "\n").count, 7)

        let imported = try navstack(["import", "--from", "todotxt", "-"], input: original)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.hasPrefix("added 7, updated 0, unchanged 0"), imported.stdout)
        let back = try navstack(["export", "--to", "todotxt"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(back.stdout, original, "every line as it was, in order")

        // todo.sh takes navstack's file as its own: archived, it makes the same two files.
        try back.stdout.write(
            to: folder.appendingPathComponent("back").appendingPathComponent("todo.txt"), atomically: true, encoding: .utf8)
        try todo("archive", list: "back")
        XCTAssertEqual(try file("back", "todo.txt"), try file("mine", "todo.txt"))
        XCTAssertEqual(try file("back", "done.txt"), try file("mine", "done.txt"))

        // And navstack reads its own export back to the same tasks.
        let again = try navstack(["import", "--from", "todotxt", "-"], input: back.stdout)
        XCTAssertTrue(again.stdout.hasPrefix("added 0, updated 0, unchanged 7"), again.stdout)
    }

    func testNavstacksOwnFieldsTravelThroughTodoTxtAndAChangedTaskIsUpdatedNotDuplicated() throws {
        let script = """
            login ana
            add Plan the trip due:2026-12-03T09:30 scheduled:2026-12-01 pri:M project:travel.eu +Trip
            annotate booked 50% of it
            edit
            notes flights first
            tag +later
            save
            """
        let made = try NavstackProcess.run(
            ["--store", store, "--format", "json"], input: Data((script + "\n").utf8),
            environment: ["TZ": "Europe/Madrid", "NAVSTACK_NOW": "2026-11-27T09:00:00Z"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let before = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        let exported = try NavstackProcess.run(
            ["export", "--store", store, "--user", "ana", "--to", "todotxt"], environment: ["TZ": "Europe/Madrid"])
        XCTAssertEqual(
            exported.stdout.replacingOccurrences(of: #" uuid:[0-9a-f-]{36}"#, with: "", options: .regularExpression),
            "(B) 2026-11-27 Plan the trip +later +Trip due:2026-12-03T09:30 scheduled:2026-12-01 project:travel.eu notes:flights%20first ann:20261127T090000Z:booked%2050%%20of%20it\n"
        )
        XCTAssertTrue(exported.stdout.contains(" uuid:"), "made in navstack: the line alone does not give its uuid")

        // The same file into another store gives the same task.
        let other = folder.appendingPathComponent("other.sqlite").path
        let imported = try NavstackProcess.run(
            ["import", "--store", other, "--user", "ana", "--from", "todotxt", "-"], input: Data(exported.stdout.utf8),
            environment: ["TZ": "Europe/Madrid"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let after = try NavstackProcess.run(["export", "--store", other, "--user", "ana"])
        // todo.txt keeps days, not times, of when a task was made; and a tag its title does
        // not show is a +word after it, which todo.txt reads as part of the title.
        func task(_ text: String) throws -> [String: NSObject] {
            let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: NSObject]])
            XCTAssertEqual(list.count, 1)
            return list[0].filter { !["title", "created", "modified"].contains($0.key) }
        }
        XCTAssertEqual(try task(after.stdout), try task(before.stdout))
        XCTAssertTrue(after.stdout.contains(#""title":"Plan the trip +later +Trip""#), after.stdout)
        XCTAssertTrue(after.stdout.contains(#""created":"2026-11-26T23:00:00Z""#), "midnight of 27 November in Madrid")

        // The line changed in the file names its uuid: the import updates that task.
        let changed = exported.stdout.replacingOccurrences(of: "Plan the trip", with: "Plan the whole trip")
        let update = try NavstackProcess.run(
            ["import", "--store", store, "--user", "ana", "--from", "todotxt", "-"], input: Data(changed.utf8),
            environment: ["TZ": "Europe/Madrid"])
        XCTAssertTrue(update.stdout.hasPrefix("added 0, updated 1, unchanged 0"), update.stdout)
        let tasks = try NavstackProcess.run(["export", "--store", store, "--user", "ana"]).stdout
        XCTAssertTrue(tasks.contains("Plan the whole trip") && !tasks.contains("Plan the trip\""), tasks)
    }

    func testBadLinesFailTheImportNamingTheLine() throws {
        let cases: [(String, String)] = [
            ("ok\nx 2026-11-29 due:2026-02-30 Bad", "line 2"),
            ("fine\n\nalso fine\ndue:2026-12-01T25:00 late", "line 4"),
            ("a\u{7}bell", "line 1"),
            ("ann:yesterday:text Title", "line 1"),
        ]
        for (input, expected) in cases {
            let result = try navstack(["import", "--from", "todotxt", "-"], input: input)
            XCTAssertEqual(result.status, 1, input)
            XCTAssertTrue(result.stderr.contains(expected) && result.stderr.hasSuffix("nothing was imported\n"), result.stderr)
        }
        XCTAssertEqual(try navstack(["export"]).status, 1, "nothing was written, not even the profile")
    }
}
