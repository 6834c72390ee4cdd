import Foundation
import XCTest

/// `navstack test`: golden transcripts of a user's own flows.
final class TestCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-tt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nested/deeper"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Records a transcript the way a user would: `navstack --echo … > flow.transcript`.
    private func record(_ name: String, _ commands: [String], options: [String] = ["--memory", "--lang", "en", "--width", "80"],
                        header: Bool = false) throws -> URL {
        let result = try NavstackProcess.run(options + ["--echo"], lines: commands, merged: true)
        let url = folder.appendingPathComponent(name)
        let head = header ? "#! navstack " + options.joined(separator: " ") + "\n" : ""
        try (head + result.stdout).write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func test(_ arguments: [String]) throws -> NavstackProcess.Result {
        try NavstackProcess.run(["test"] + arguments)
    }

    func testAFreshRecordingPasses() throws {
        let file = try record("flow.transcript", ["login ana", "open 2", "opne", "edit"])
        let result = try test([file.path])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertEqual(result.stdout, "1 passed, 0 failed\n")
    }

    func testAChangedLineFailsWithAUnifiedDiffNamingIt() throws {
        let file = try record("flow.transcript", ["login ana", "open 2"], options: ["--memory", "--width", "60"], header: true)
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        let index = try XCTUnwrap(lines.firstIndex(of: "Notes:  NavigationStack and routes"))
        lines[index] = "Notes:  something else"
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let result = try test([file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.hasPrefix("FAIL \(file.path)\n--- \(file.path) (expected)\n+++ \(file.path) (actual)\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\n-Notes:  something else\n+Notes:  NavigationStack and routes\n"))
        XCTAssertTrue(result.stdout.contains("@@ -\(index + 1 - 3),"), "the hunk starts three lines above line \(index + 1)")
        XCTAssertTrue(result.stdout.hasSuffix("0 passed, 1 failed\n"))
    }

    func testUpdateMakesTheFileEqualToAFreshRecording() throws {
        let file = try record("flow.transcript", ["login ana", "tab account"], options: ["--memory", "--width", "50"], header: true)
        let fresh = try String(contentsOf: file, encoding: .utf8)
        try fresh.replacingOccurrences(of: "Account", with: "Acount").write(to: file, atomically: true, encoding: .utf8)
        let result = try test(["--update", file.path])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains("updated \(file.path)\n"))
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), fresh)
        XCTAssertEqual(try test([file.path]).stdout, "1 passed, 0 failed\n")
    }

    func testTheWildcardMatchesAndSurvivesAnUpdate() throws {
        let file = try record("flow.transcript", ["login ana", "tab account", "about"])
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "navstack 0.2.0", with: "navstack [..]")
        text = text.replacingOccurrences(of: "User:   ana", with: "User:   [..]")
        try text.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try test([file.path]).stdout, "1 passed, 0 failed\n")
        try text.replacingOccurrences(of: "Tasks:  3 open", with: "Tasks:  9 open").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try test(["--update", file.path]).status, 0)
        let updated = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(updated.contains("navstack [..]\n"))
        XCTAssertTrue(updated.contains("User:   [..]\n"))
        XCTAssertTrue(updated.contains("Tasks:  2 open, 1 done\n"))
    }

    func testFoldersAreSearchedAndCounted() throws {
        _ = try record("a.transcript", ["login ana"])
        _ = try record("nested/b.transcript", ["login bob", "open 1"])
        _ = try record("nested/deeper/c.transcript", ["help"])
        let bad = try record("nested/deeper/d.transcript", ["login cy"])
        try "> login cy\nnothing like this\n".write(to: bad, atomically: true, encoding: .utf8)
        try "not a transcript".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let result = try test([folder.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("FAIL \(folder.path)/nested/deeper/d.transcript\n"))
        XCTAssertTrue(result.stdout.hasSuffix("3 passed, 1 failed\n"), result.stdout)
    }

    func testAnUnreadableTranscriptIsAFailureWithAReason() throws {
        let garbage = folder.appendingPathComponent("garbage.transcript")
        try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: garbage)
        let header = folder.appendingPathComponent("header.transcript")
        try "#! bash -c 'rm -rf /'\n> where\n".write(to: header, atomically: true, encoding: .utf8)
        let result = try test([garbage.path, header.path, folder.appendingPathComponent("missing.transcript").path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("FAIL \(garbage.path): it is not UTF-8 text\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL \(header.path): the first line must be '#! navstack OPTIONS'"), result.stdout)
        XCTAssertTrue(result.stdout.contains("missing.transcript: no such file or folder\n"))
        XCTAssertTrue(result.stdout.hasSuffix("0 passed, 3 failed\n"))
    }

    func testBadUsage() throws {
        XCTAssertEqual(try test([]).status, 64)
        XCTAssertEqual(try test(["--jobs", "0", folder.path]).status, 64)
        XCTAssertEqual(try test(["--no-such-flag", folder.path]).status, 64)
    }

    func testEachTranscriptGetsItsOwnStore() throws {
        let options = ["--sample", "--width", "40"]
        _ = try record("one.transcript", ["login ana", "add Only here"], options: options, header: true)
        _ = try record("two.transcript", ["login ana"], options: options, header: true)
        let result = try test([folder.path])
        XCTAssertEqual(result.stdout, "2 passed, 0 failed\n", "neither run sees the other's task, nor the user's store")
    }
}
