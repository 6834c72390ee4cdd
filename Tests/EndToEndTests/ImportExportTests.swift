import Foundation
import XCTest

/// `navstack import` and `export` through the binary: limits, strict input, the profile.
final class ImportExportTests: XCTestCase {
    private var folder: URL!
    private var store: String { folder.appendingPathComponent("navstack.sqlite").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `bytes` to a file in the test's folder and returns its path.
    private func file(_ bytes: [UInt8], named name: String = "tasks.json") throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func importing(_ bytes: [UInt8], _ extra: [String] = ["--user", "ana"]) throws -> NavstackProcess.Result {
        try NavstackProcess.run(["import", "--store", store] + extra + [try file(bytes)])
    }

    private var storeExists: Bool { FileManager.default.fileExists(atPath: store) }

    func testDeepNestingIsRefusedWithoutCrashingOrTouchingTheStore() throws {
        let text = #"{"title":"a","x":"# + String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000) + "}\n"
        let result = try importing(Array(text.utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            "navstack: import: record 0: not JSON (arrays and objects nested deeper than 512 at byte 528); nothing was imported\n")
        XCTAssertFalse(storeExists, "bad input changes nothing")
    }

    func testAnEndlessOrHugeInputIsRefusedAtTheSizeLimit() throws {
        var result = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "/dev/zero"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: /dev/zero is larger than 256 MiB, the most an import reads\n")
        // From a pipe that never ends.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        // cat's own complaint is left out: it writes one when SIGPIPE comes to it ignored
        // (a server test of this process, NIO's, ignores it, and children inherit that).
        shell.arguments = [
            "-c", "cat /dev/zero 2>/dev/null | \"$0\" import --store \"$1\" --user ana -", NavstackProcess.binary.path, store,
        ]
        let errors = Pipe()
        shell.standardError = errors
        try shell.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 1)
        XCTAssertEqual(stderr, "navstack: import: standard input is larger than 256 MiB, the most an import reads\n")
        // A regular file past the limit is refused before it is read.
        let big = folder.appendingPathComponent("big.json")
        _ = FileManager.default.createFile(atPath: big.path, contents: Data("[".utf8))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 256 << 20 + 1)
        try handle.close()
        result = try NavstackProcess.run(["import", "--store", store, "--user", "ana", big.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: \(big.path) is larger than 256 MiB, the most an import reads\n")
        XCTAssertFalse(storeExists)
    }

    func testInvalidUTF8AndLoneSurrogatesAreRefusedAndABOMIsSkipped() throws {
        var result = try importing(Array(#"{"title":"ok"}"#.utf8) + [0x0A] + Array(#"{"title":"a"#.utf8) + [0xFF] + Array("\"}\n".utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: record 1: not JSON (invalid UTF-8 at byte 26); nothing was imported\n")
        result = try importing(Array(#"[{"title":"a\udc00"}]"#.utf8))
        XCTAssertEqual(
            result.stderr,
            #"navstack: import: record 0: not JSON (a \u escape of half a surrogate pair at byte 12); nothing was imported"# + "\n")
        result = try importing(Array(#"[{"title":"a","x":1e}]"#.utf8))
        XCTAssertEqual(result.stderr, "navstack: import: record 0: not JSON (a malformed number at byte 18); nothing was imported\n")
        result = try importing(Array(#"[{"title":"\u001b[2Jgone"}]"#.utf8))
        XCTAssertEqual(
            result.stderr,
            #"navstack: import: record 0 ("\u{1B}[2Jgone"): the title contains the control character \u{1B}; nothing was imported"# + "\n")
        XCTAssertFalse(storeExists)
        result = try importing([0xEF, 0xBB, 0xBF] + Array(#"[{"title":"after a BOM"}]"#.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "imported 1 task\n")
    }

    /// todo.txt: each line a task once; the same file again, or as a dry run, writes nothing.
    /// Taskwarrior's records are imported as they are read, one at a time: a bad record
    /// after good ones rolls them back, is named by its index, and leaves no store behind;
    /// a series' template read after its instances is kept by the open one all the same.
    func testATaskwarriorExportIsImportedAsItIsReadAndABadRecordKeepsNothing() throws {
        func task(_ uuid: String, _ more: String) -> String {
            #"{"uuid":"00000000-0000-4000-8000-\#(uuid)","description":"Pay rent","entry":"20261001T090000Z","#
                + #""modified":"20261101T090000Z",\#(more)}"#
        }
        let bad = [
            task("000000000001", #""status":"pending""#), task("000000000002", #""status":"pending""#),
            #"{"uuid":"00000000-0000-4000-8000-000000000009","status":"pending"}"#,
        ]
        var result = try NavstackProcess.run(
            [
                "import", "--from", "taskwarrior", "--store", store, "--user", "ana",
                try file(Array(("[" + bad.joined(separator: ",\n") + "]").utf8)),
            ])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            "navstack: import: record 2 (uuid 00000000-0000-4000-8000-000000000009): 'description' is not what it must be: \"…\"; "
                + "nothing was imported\n")
        XCTAssertFalse(storeExists, "a store the import made is removed")

        let series = #""due":"20261101T090000Z","recur":"monthly","parent":"00000000-0000-4000-8000-0000000000ff""#
        let records = [
            task("00000000000a", #""status":"completed","end":"20261101T090000Z","imask":"0","# + series),
            task("00000000000b", #""status":"pending","imask":"1","# + series.replacingOccurrences(of: "20261101", with: "20261201")),
            task("0000000000ff", #""status":"recurring","due":"20261101T090000Z","recur":"monthly","mask":"+-""#),
        ]
        let path = try file(Array(("[" + records.joined(separator: ",\n") + "]").utf8))
        let arguments = ["import", "--from", "taskwarrior", "--store", store, "--user", "ana", path]
        result = try NavstackProcess.run(arguments)
        XCTAssertEqual(
            result.stdout,
            "added 2, updated 0, unchanged 0; not imported: 0 deleted, 1 series templates (their open instances carry the rule)\n")
        result = try NavstackProcess.run(["export", "--to", "taskwarrior", "--store", store, "--user", "ana"])
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 5, result.stdout)
        // The template comes back just before the open instance that kept it.
        XCTAssertEqual(lines[2], Substring(records[2] + ","))
        XCTAssertTrue(lines[3].contains("00000000000b"), result.stdout)
        // The same file again changes nothing.
        result = try NavstackProcess.run(arguments)
        XCTAssertEqual(
            result.stdout,
            "added 0, updated 0, unchanged 2; not imported: 0 deleted, 1 series templates (their open instances carry the rule)\n")
    }

    /// A dry run opens the store only to read it: a store that was not there is not made,
    /// nor its `-wal` and `-shm`; one that was there is left as it was.
    func testADryRunMakesNoStoreFile() throws {
        let todo = Array("(A) Call Mom @phone\nx 2026-11-25 Pay rent\n".utf8)
        let taskwarrior = Array(
            #"[{"uuid":"00000000-0000-4000-8000-000000000001","description":"Pay rent","status":"pending","entry":"20261001T090000Z"}]"#
                .utf8)
        for (format, bytes) in [("todotxt", todo), ("taskwarrior", taskwarrior)] {
            let dry = try importing(bytes, ["--user", "ana", "--from", format, "--dry-run"])
            XCTAssertEqual(dry.status, 0, dry.stderr)
            XCTAssertTrue(dry.stdout.hasPrefix("dry run, nothing written: would add "), dry.stdout)
            let made = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("navstack.sqlite") }
            XCTAssertEqual(made, [], format)
        }
        let first = try importing(todo, ["--user", "ana", "--from", "todotxt"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let dry = try importing(taskwarrior, ["--user", "bea", "--from", "taskwarrior", "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before, "a store that was there is kept as it was")
    }

    /// The todo.txt format's examples and todo.txt-cli's test lines come back byte for
    /// byte, and a title with words todo.txt would misread comes back as it was.
    func testTodoTxtLinesAndTitlesComeBackAsTheyWere() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/todo.txt-examples.txt").standardizedFileURL
        let lines = try Data(contentsOf: fixture)
        let imported = try importing(Array(lines), ["--user", "ana", "--from", "todotxt"])
        XCTAssertEqual(imported.stdout, "added 200, updated 0, unchanged 0\n", imported.stderr)
        let back = try NavstackProcess.run(["export", "--store", store, "--user", "ana", "--to", "todotxt"], environment: ["TZ": "UTC"])
        XCTAssertEqual(back.stdout, String(decoding: lines, as: UTF8.self))

        let titles = ["Review PR:123 today", "x marks the spot", "(A) plan", "Email +bob", "2026-01-01 review"]
        let json = "[" + titles.map { #"{"title":"\#($0)"}"# }.joined(separator: ",") + "]"
        let made = try importing(Array(json.utf8), ["--user", "bea"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let out = try NavstackProcess.run(["export", "--store", store, "--user", "bea", "--to", "todotxt"])
        XCTAssertTrue(out.stdout.contains(#" Review \PR:123 today uuid:"#), out.stdout)
        let other = folder.appendingPathComponent("other.sqlite").path
        let again = try NavstackProcess.run(
            ["import", "--store", other, "--user", "bea", "--from", "todotxt", "-"], input: Data(out.stdout.utf8))
        XCTAssertEqual(again.status, 0, again.stderr)
        let tasks = try NavstackProcess.run(["export", "--store", other, "--user", "bea"])
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(tasks.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.map { $0["title"] as? String }, titles)
        XCTAssertEqual(list.map { ($0["tags"] as? [String]) ?? [] }, Array(repeating: [], count: titles.count))
        XCTAssertEqual(list.map { $0["fields"] as? [String: String] ?? [:] }, Array(repeating: [:], count: titles.count))
    }

    func testATodoTxtFileImportsOnce() throws {
        let lines = Array("(A) 2026-11-20 Call Mom @phone due:2026-12-01\nx 2026-11-25 2026-11-20 Pay rent +home\n".utf8)
        let dry = try importing(lines, ["--user", "ana", "--from", "todotxt", "--dry-run"])
        XCTAssertEqual(dry.stdout, "dry run, nothing written: would add 2, update 0, leave 0 unchanged\n", dry.stderr)
        let none = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(none.status, 1, "a dry run writes nothing, not even the profile")
        let first = try importing(lines, ["--user", "ana", "--from", "todotxt"])
        XCTAssertEqual(first.stdout, "added 2, updated 0, unchanged 0\n", first.stderr)
        let again = try importing(lines, ["--user", "ana", "--from", "todotxt"])
        XCTAssertEqual(again.stdout, "added 0, updated 0, unchanged 2\n", again.stderr)
        let exported = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertTrue(
            exported.stdout.contains("\"title\": \"Call Mom @phone\"") || exported.stdout.contains("\"title\":\"Call Mom @phone\""),
            exported.stdout)
        let bad = try importing(Array("ok\nx due:2026-02-30 y\n".utf8), ["--user", "ana", "--from", "todotxt"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(
            bad.stderr,
            "navstack: import: line 2 (\"x due:2026-02-30 y\"): 'due' is not what it must be: YYYY-MM-DD; nothing was imported\n")
    }

    func testAnEmptyFileIsAnError() throws {
        let path = try file(Array(" \n\n".utf8), named: "empty.json")
        var result = try NavstackProcess.run(["import", "--store", store, "--user", "ana", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: no tasks in \(path): it is empty\n")
        result = try NavstackProcess.run(["import", "--store", store, "--user", "ana", "-"])
        XCTAssertEqual(result.stderr, "navstack: import: no tasks in standard input: it is empty\n")
        XCTAssertEqual(result.stdout, "")
        XCTAssertFalse(storeExists)
    }

    func testUserIsHeldToTheRulesOfLogin() throws {
        let cases = [
            ("", "'login' needs a name: login NAME"),
            ("   ", "'login' needs a name: login NAME"),
            (String(repeating: "n", count: 5000), "name too long (5000 characters; the limit is 64)"),
            ("\u{1B}[31mred", #"line contains the control character \u{1B}; type plain text"#),
        ]
        for (name, message) in cases {
            for command in ["import", "export"] {
                let result = try NavstackProcess.run(
                    [command, "--store", store, "--user", name]
                        + (command == "import" ? [try file(Array(#"[{"title":"t"}]"#.utf8))] : []))
                XCTAssertEqual(result.status, 1, name)
                XCTAssertEqual(result.stderr, "navstack: \(command): --user: \(message)\n", name)
                // The same words as the command typed at the prompt.
                let typed = try NavstackProcess.run(["--memory", "-c", "login " + name])
                XCTAssertTrue(name.count > 1000 || typed.stderr.contains(message), typed.stderr)
            }
        }
        XCTAssertFalse(storeExists)
    }

    func testExportOfAMissingProfileIsAnError() throws {
        // A store with no profile yet (export never creates one).
        var result = try NavstackProcess.run(["--store", store, "-c", "quit"])
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try NavstackProcess.run(["export", "--store", store, "--user", "nobody"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "navstack: export: there is no profile named 'nobody'\n")
        result = try NavstackProcess.run(["export", "--store", store])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "navstack: export: no one is signed in: name the profile with --user NAME\n")
        result = try importing(Array(#"[{"title":"t"}]"#.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout.withoutUUIDs.withoutUnsetFields,
            "[\n{\"id\":1,\"uuid\":\"…\",\"title\":\"t\",\"notes\":\"\",\"done\":false,\"parent\":null}\n]\n")
    }

    /// An exported file imported again: its uuids are the store's already, and the import
    /// says so plainly, naming the record, and adds nothing.
    func testReimportingAnExportIsRefusedByItsUUIDs() throws {
        XCTAssertEqual(try importing(Array(#"[{"title":"t"}]"#.utf8)).status, 0)
        let exported = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let uuid = try XCTUnwrap(exported.stdout.firstMatch(of: /"uuid":"([0-9a-f-]{36})"/)).1
        let result = try importing(Array(exported.stdout.utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: record 0: uuid \(uuid) is already in the store; nothing was imported\n")
        XCTAssertEqual(try NavstackProcess.run(["export", "--store", store, "--user", "ana"]).stdout, exported.stdout)
    }

    func testANestedFileIsImportedAsATree() throws {
        let text = """
            {"title":"Trip","subtasks":[{"title":"Pack","done":true},{"title":"Book","subtasks":[{"title":"Train"}]}]}
            {"title":"Garden","notes":"after the trip"}
            {"title":"Tickets","parent":2}
            {"title":"Seeds","parent":4,"done":true}

            """
        var result = try importing(Array(text.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "imported 7 tasks\n")
        result = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout.withoutUUIDs.withoutUnsetFields,
            """
            [
            {"id":1,"uuid":"…","title":"Trip","notes":"","done":false,"parent":null,"subtasks":[
            {"id":2,"uuid":"…","title":"Pack","notes":"","done":true,"parent":1},
            {"id":3,"uuid":"…","title":"Book","notes":"","done":false,"parent":1,"subtasks":[
            {"id":4,"uuid":"…","title":"Train","notes":"","done":false,"parent":3},
            {"id":6,"uuid":"…","title":"Tickets","notes":"","done":false,"parent":3}
            ]}
            ]},
            {"id":5,"uuid":"…","title":"Garden","notes":"after the trip","done":false,"parent":null,"subtasks":[
            {"id":7,"uuid":"…","title":"Seeds","notes":"","done":true,"parent":5}
            ]}
            ]

            """)
        // The list shows the top, each with the progress of its subtasks.
        result = try NavstackProcess.run(["--store", store, "--width", "60", "-c", "login ana"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Trip [1/2]"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Garden [1/1]"), result.stdout)
    }

    func testABadTreeIsRefusedNamingTheRecordAndImportsNothing() throws {
        var result = try importing(
            Array(#"[{"title":"a","parent":1},{"title":"b","subtasks":[{"title":"c","parent":0}]},{"title":"d","parent":1}]"#.utf8))
        XCTAssertEqual(result.status, 0, "a nested record's parent is the record it is in: \(result.stderr)")
        result = try importing(Array(#"[{"title":"a","parent":1},{"title":"b","parent":2},{"title":"c","parent":0}]"#.utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            "navstack: import: record 0: its parents go round in a circle: it would be under itself; nothing was imported\n")
        let unknown = "018cc251-f400-7fff-8000-00000000abcd"
        result = try importing(Array(#"{"title":"x"}\#n{"title":"y","parent":"\#(unknown)"}"#.utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            #"navstack: import: record 1: "parent" \#(unknown) is neither a task of the profile nor a record of the input; nothing was imported"#
                + "\n")
        let deep = String(repeating: #"{"title":"t","subtasks":["#, count: 100) + #"{"title":"t"}"# + String(repeating: "]}", count: 100)
        result = try importing(Array(deep.utf8))
        XCTAssertEqual(
            result.stderr, "navstack: import: record 100: subtasks go 100 levels deep at most; this would make 101; nothing was imported\n")
        result = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(result.stdout.matches(of: /"id":/).count, 4, "only the first import: \(result.stdout)")
    }

    /// An export imported into another store rebuilds the same tree: the same tasks, uuids,
    /// order and parents, numbered by the new store in document order.
    func testAnExportImportsIntoAnotherStoreAsTheSameTree() throws {
        // Later (record 0) goes under A1 (record 2), which comes after it.
        let text = #"[{"title":"Later","parent":2},{"title":"A","subtasks":[{"title":"A1","done":true}]},{"title":"B","parent":1}]"#
        XCTAssertEqual(try importing(Array(text.utf8)).status, 0)
        // A task added at the prompt, at the top of A's subtasks.
        var result = try NavstackProcess.run(["--store", store, "-c", "login ana", "-c", "open 1", "-c", "add Second thoughts"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let exported = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(exported.status, 0, exported.stderr)

        let other = folder.appendingPathComponent("other.sqlite").path
        result = try NavstackProcess.run([
            "import", "--store", other, "--user", "bo", try file(Array(exported.stdout.utf8), named: "export.json"),
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "imported 5 tasks\n")
        let again = try NavstackProcess.run(["export", "--store", other, "--user", "bo"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(
            again.stdout.withoutUUIDs.withoutUnsetFields,
            """
            [
            {"id":1,"uuid":"…","title":"A","notes":"","done":false,"parent":null,"subtasks":[
            {"id":2,"uuid":"…","title":"Second thoughts","notes":"","done":false,"parent":1},
            {"id":3,"uuid":"…","title":"A1","notes":"","done":true,"parent":1,"subtasks":[
            {"id":4,"uuid":"…","title":"Later","notes":"","done":false,"parent":3}
            ]},
            {"id":5,"uuid":"…","title":"B","notes":"","done":false,"parent":1}
            ]}
            ]

            """)
        // The same as the first store's export but for the ids it gave.
        let ids = /"(id|parent)":\d+/
        XCTAssertEqual(again.stdout.replacing(ids, with: ""), exported.stdout.replacing(ids, with: ""))
    }

    func testMemoryIsAUsageErrorForImportAndExport() throws {
        var result = try NavstackProcess.run(["import", "--memory", "--user", "ana", try file(Array(#"[{"title":"t"}]"#.utf8))])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("import --memory: an in-memory store would be thrown away"), result.stderr)
        result = try NavstackProcess.run(["export", "--memory", "--user", "ana"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("export --memory: an in-memory store would be thrown away"), result.stderr)
    }
}
