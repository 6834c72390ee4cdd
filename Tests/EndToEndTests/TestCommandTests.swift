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
    private func record(
        _ name: String, _ commands: [String], options: [String] = ["--memory", "--lang", "en", "--width", "80"],
        header: Bool = false
    ) throws -> URL {
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

    // MARK: - Command lines

    /// A transcript of command lines: each its own process on the transcript's one store,
    /// a `watch` in the background printing each change the lines after it make, and
    /// the change to another profile printing nothing.
    func testAWatchBesideCommandLinesReplaysAsRecorded() throws {
        let file = folder.appendingPathComponent("watch.transcript")
        try """
        #! navstack NAVSTACK_NOW=2026-11-27T09:00:00Z TZ=Europe/Madrid
        $ navstack --width 40 -c 'login ana' -c 'add Water the plants due:today' -c root
        $ navstack watch agenda --width 60 &
        $ navstack -c 'add Call the bank due:tomorrow' -c root
        $ navstack -c 'tab account' -c logout -c 'login bo' -c 'add Not on the agenda of ana due:today' -c 'tab account' -c logout -c 'login ana'
        $ navstack -c 'go agenda' -c 'toggle 1'
        $ navstack -c 'toggle 9'

        """.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try test(["--update", file.path]).status, 0)
        let recorded = try String(contentsOf: file, encoding: .utf8)
        let watch =
            try XCTUnwrap(recorded.components(separatedBy: "$ navstack watch agenda --width 60 &\n").last)
            .components(separatedBy: "\n$ navstack -c").first ?? ""
        XCTAssertEqual(watch.components(separatedBy: "changed elsewhere").count - 1, 2, "two changes of ana's agenda: \(watch)")
        XCTAssertTrue(watch.contains("1 task changed elsewhere\nAgenda"), watch)
        XCTAssertTrue(watch.contains("Call the bank"), watch)
        XCTAssertFalse(watch.contains("Not on the"), "another profile's task is not on the screen watched")
        XCTAssertTrue(recorded.hasSuffix("(exit status 1)\n"), "a failing line shows its status")
        // Replayed again, byte for byte; and a line changed fails.
        XCTAssertEqual(try test([file.path]).stdout, "1 passed, 0 failed\n")
        let edited = try XCTUnwrap(recorded.range(of: "1 task changed elsewhere\n"))
        try recorded.replacingCharacters(in: edited, with: "3 tasks changed elsewhere\n").write(to: file, atomically: true, encoding: .utf8)
        let changed = try test([file.path])
        XCTAssertEqual(changed.status, 1)
        XCTAssertTrue(changed.stdout.contains("\n-3 tasks changed elsewhere\n+1 task changed elsewhere\n"), changed.stdout)
    }

    /// A command line cannot reach the user's store, nor run another program.
    func testCommandLinesStayInTheTranscriptsStore() throws {
        let (store, before) = try usersStore()
        let file = folder.appendingPathComponent("escape.transcript")
        try "$ navstack --store \(store.path) -c 'login ana' -c 'delete 1'\n".write(to: file, atomically: true, encoding: .utf8)
        let other = folder.appendingPathComponent("other.transcript")
        try "$ touch \(folder.path)/touched\n$ navstack -c root\n".write(to: other, atomically: true, encoding: .utf8)
        let result = try test([file.path, other.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("FAIL \(file.path): the command line '$ navstack --store "), result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL \(other.path): a command line of a transcript runs navstack"), result.stdout)
        XCTAssertEqual(try exported(store), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("touched").path))
    }

    // MARK: - The sandbox

    /// A header cannot point a transcript at a store of the user's: the transcript fails
    /// naming the option, and the store is left as it was.
    func testAHeaderThatChoosesAStoreIsRefusedAndTheStoreIsUntouched() throws {
        let (store, before) = try usersStore()
        let spaced = folder.appendingPathComponent("spaced.transcript")
        try "#! navstack --store \(store.path)\n> login ana\n> delete 1\n".write(to: spaced, atomically: true, encoding: .utf8)
        let joined = folder.appendingPathComponent("joined.transcript")
        try "#! navstack --store=\(store.path) --width 60\n> login ana\n> delete 1\n".write(to: joined, atomically: true, encoding: .utf8)
        let result = try test([spaced.path, joined.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("FAIL \(spaced.path): the header chooses a store with '--store'"), result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL \(joined.path): the header chooses a store with '--store'"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("0 passed, 2 failed\n"), result.stdout)
        XCTAssertEqual(try exported(store), before)
    }

    /// A store of the user's, with the sample tasks, and its export.
    private func usersStore() throws -> (URL, String) {
        let store = folder.appendingPathComponent("mine.sqlite")
        XCTAssertEqual(try NavstackProcess.run(["--store", store.path, "--sample", "-c", "login ana"]).status, 0)
        let before = try exported(store)
        XCTAssertTrue(before.contains("Buy fruit"), before)
        return (store, before)
    }

    private func exported(_ store: URL) throws -> String {
        try NavstackProcess.run(["export", "--store", store.path, "--user", "ana"]).stdout
    }

    /// `NAVSTACK_STORE` and `HOME` of the caller never reach the replayed process.
    func testTheCallersStoreVariablesDoNotReachTheReplay() throws {
        let (store, before) = try usersStore()
        let file = folder.appendingPathComponent("env.transcript")
        try "#! navstack --width 60\n> login ana\n> delete 1\n".write(to: file, atomically: true, encoding: .utf8)
        _ = try NavstackProcess.run(["test", file.path], environment: ["NAVSTACK_STORE": store.path, "HOME": folder.path])
        XCTAssertEqual(try exported(store), before)
    }

    // MARK: - Transcripts in Markdown files

    /// A Markdown file around two transcripts recorded now: a plain block and text
    /// between them, the second block indented in a list item.
    private func markdown(_ name: String) throws -> (url: URL, first: String, second: String) {
        let first = try String(
            contentsOf: record(
                "first.transcript", ["login ana", "open 2"], options: ["--memory", "--width", "60"],
                header: true), encoding: .utf8)
        let second = try String(contentsOf: record("second.transcript", ["login bob", "tab account"]), encoding: .utf8)
        let indented = second.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
        let text =
            "# Flows\n\nTry it:\n\n```sh\nnavstack --memory\n```\n\n```transcript\n" + first + "```\n\n"
            + "- and then:\n\n  ```transcript\n" + indented + "\n  ```\n\nThe end, with no newline after it."
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("first.transcript"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("second.transcript"))
        return (url, first, second)
    }

    func testEachTranscriptBlockOfAMarkdownFilePasses() throws {
        let (file, _, _) = try markdown("flows.md")
        let result = try test([file.path])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertEqual(result.stdout, "2 passed, 0 failed\n")
    }

    func testAnEditedBlockFailsWithADiffInTheFilesLineNumbers() throws {
        let (file, _, _) = try markdown("flows.md")
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        let index = try XCTUnwrap(lines.firstIndex(of: "Notes:  NavigationStack and routes"))
        lines[index] = "Notes:  something else"
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let fence = try XCTUnwrap(lines.firstIndex(of: "```transcript")) + 1
        let result = try test([file.path])
        XCTAssertEqual(result.status, 1)
        let name = "\(file.path):\(fence)"
        XCTAssertTrue(result.stdout.hasPrefix("FAIL \(name)\n--- \(name) (expected)\n+++ \(name) (actual)\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\n-Notes:  something else\n+Notes:  NavigationStack and routes\n"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("@@ -\(index + 1 - 3),7 +\(index + 1 - 3),7 @@\n"),
            "the hunk starts three lines above line \(index + 1) of the file: \(result.stdout)")
        XCTAssertTrue(result.stdout.hasSuffix("1 passed, 1 failed\n"), result.stdout)
    }

    func testUpdateRewritesOnlyTheFailingBlocks() throws {
        let (file, first, second) = try markdown("flows.md")
        let fresh = try String(contentsOf: file, encoding: .utf8)
        let edited = fresh.replacingOccurrences(of: "Study SwiftUI\n", with: "Study UIKit\n")
            .replacingOccurrences(of: "  Account\n", with: "  Acount\n")
        XCTAssertNotEqual(edited, fresh)
        XCTAssertTrue(first.contains("Study SwiftUI\n") && second.contains("Account\n"), "both blocks were edited")
        try edited.write(to: file, atomically: true, encoding: .utf8)
        let result = try test(["--update", file.path])
        XCTAssertEqual(result.status, 0, result.stdout)
        let secondFence = try XCTUnwrap(fresh.components(separatedBy: "\n").firstIndex(of: "  ```transcript")) + 1
        XCTAssertTrue(result.stdout.contains("updated \(file.path):9\nupdated \(file.path):\(secondFence)\n"), result.stdout)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), fresh, "the rest of the file, byte for byte")
        XCTAssertEqual(try test([file.path]).stdout, "2 passed, 0 failed\n")
    }

    func testAMarkdownFileWithoutTranscriptBlocks() throws {
        let plain = folder.appendingPathComponent("plain.md")
        try "# Notes\n\n```sh\nnavstack --memory\n```\n\n```\n> login ana\nnot checked\n```\n"
            .write(to: plain, atomically: true, encoding: .utf8)
        let alone = try test([plain.path])
        XCTAssertEqual(alone.status, 1)
        XCTAssertEqual(
            alone.stdout,
            "no transcripts in \(plain.path) (*.transcript files, or blocks marked transcript in *.md files)\n"
                + "0 passed, 0 failed\n")
        let file = try record("flow.transcript", ["login ana"])
        let both = try test([plain.path, file.path])
        XCTAssertEqual(both.status, 0, both.stdout)
        XCTAssertEqual(both.stdout, "1 passed, 0 failed\n")
    }

    func testFoldersAreSearchedForMarkdownToo() throws {
        _ = try markdown("nested/deeper/flows.md")
        _ = try record("a.transcript", ["login ana"])
        try "```transcript\n> login cy\nnothing like this\n".write(
            to: folder.appendingPathComponent("nested/open.md"),
            atomically: true, encoding: .utf8)
        let result = try test([folder.path])
        XCTAssertEqual(result.status, 1)
        let unclosed = "FAIL \(folder.path)/nested/open.md:1: the transcript block has no closing fence: end it with a line of ```\n"
        XCTAssertTrue(result.stdout.contains(unclosed), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("3 passed, 1 failed\n"), result.stdout)
    }

    // MARK: - Files that are not transcripts

    /// Runs `navstack test`, killing it after `seconds` (a hang fails the test instead of
    /// stopping the suite).
    private func testGuarded(_ arguments: [String], seconds: Double = 60) throws -> NavstackProcess.Result {
        let process = Process()
        process.executableURL = NavstackProcess.binary
        process.arguments = ["test"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        process.environment = environment
        let output = folder.appendingPathComponent("guarded-output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            process.waitUntilExit()
            finished.signal()
        }
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            XCTFail("navstack test \(arguments) did not finish within \(seconds) s")
        }
        let text = try String(contentsOf: output, encoding: .utf8)
        return NavstackProcess.Result(stdout: text, stderr: "", status: process.terminationStatus)
    }

    func testAFifoInAFolderIsReportedNotWaitedFor() throws {
        _ = try record("good.transcript", ["login ana"])
        let fifo = folder.appendingPathComponent("nested/stuck.transcript")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let result = try testGuarded([folder.path])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL \(fifo.path): it is not a regular file\n"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("1 passed, 1 failed\n"), result.stdout)
    }

    func testADeviceNamedOnTheCommandLineIsRefused() throws {
        let result = try testGuarded(["/dev/zero", "/dev/null"])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL /dev/zero: it is not a regular file\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL /dev/null: it is not a regular file\n"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("0 passed, 2 failed\n"), result.stdout)
    }

    func testAnOversizedTranscriptIsRefused() throws {
        let big = folder.appendingPathComponent("big.transcript")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        let result = try testGuarded([big.path])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL \(big.path): it is too large (17825792 bytes; the limit is 16777216)\n"), result.stdout)
    }

    func testADanglingLinkInAFolderIsAFailureNotSkipped() throws {
        _ = try record("good.transcript", ["login ana"])
        let link = folder.appendingPathComponent("gone.transcript")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.appendingPathComponent("nowhere").path)
        let result = try test([folder.path])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL \(link.path): it is a symbolic link to a file that does not exist\n"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("1 passed, 1 failed\n"), result.stdout)
    }

    // MARK: - Reading and writing transcripts

    func testCRLFLineEndingsAreRead() throws {
        let file = try record("crlf.transcript", ["login ana", "open 2"])
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try test([file.path]).stdout, "1 passed, 0 failed\n")
    }

    /// An empty command echoes as `> `; an editor that trims trailing blanks leaves `>`.
    func testAnEmptyCommandMatchesWithOrWithoutItsTrailingBlank() throws {
        let file = try record("empty.transcript", ["login ana", "", "where"])
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("\n> \n"), text)
        XCTAssertEqual(try test([file.path]).stdout, "1 passed, 0 failed\n")
        try text.replacingOccurrences(of: "\n> \n", with: "\n>\n").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try test([file.path]).stdout, "1 passed, 0 failed\n")
    }

    func testUpdateWritesThroughALinkAndKeepsIt() throws {
        let target = try record("real.transcript", ["login ana", "tab account"])
        let fresh = try String(contentsOf: target, encoding: .utf8)
        try fresh.replacingOccurrences(of: "Account", with: "Acount").write(to: target, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("nested/link.transcript")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../real.transcript")
        let result = try test(["--update", link.path])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "../real.transcript")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), fresh)
    }

    /// A long transcript whose every output line changed: the diff is found quickly and
    /// is the exact one (each changed line once, the commands kept as context).
    func testALongMismatchingTranscriptIsDiffed() throws {
        let file = try record("long.transcript", ["login ana"] + Array(repeating: "where", count: 1250))
        let fresh = try String(contentsOf: file, encoding: .utf8)
        XCTAssertGreaterThan(fresh.split(separator: "\n").count, 3700)
        try fresh.replacingOccurrences(of: "navstack://tasks\n", with: "navstack://elsewhere\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try testGuarded([file.path], seconds: 120)
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.filter { $0 == "-navstack://elsewhere" }.count, 1250)
        XCTAssertEqual(lines.filter { $0 == "+navstack://tasks" }.count, 1250)
        // and the list's own header line, changed the same way
        XCTAssertEqual(lines.filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.count, 1251)
        XCTAssertEqual(lines.filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.count, 1251)
        XCTAssertTrue(result.stdout.contains("\n > where\n My Tasks\n-navstack://elsewhere\n+navstack://tasks\n \n"))
        XCTAssertEqual(try testGuarded(["--update", file.path], seconds: 120).status, 0)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), fresh)
    }

    // MARK: - What reaches the terminal

    func testNamesAndLinesAreShownEscaped() throws {
        let name = folder.appendingPathComponent("red\u{1B}[31m.transcript")
        try "> where\nSign in\u{1B}]0;title\u{07}\n".write(to: name, atomically: true, encoding: .utf8)
        let header = folder.appendingPathComponent("bad\u{1B}[2J.transcript")
        try "#! navstack --store \u{1B}[2J\n".write(to: header, atomically: true, encoding: .utf8)
        let result = try test([folder.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(result.stdout.contains("\u{1B}"), result.stdout)
        XCTAssertFalse(result.stdout.contains("\u{07}"), result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL \(folder.path)/red\\u{1B}[31m.transcript\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("-Sign in\\u{1B}]0;title\\u{7}\n"), result.stdout)
    }
}
