import Foundation
import XCTest

/// Every exit path delivers its message, and output that cannot be delivered stops
/// navstack with a failure: stdout and stderr as one pipe (`2>&1 | cat`), a full
/// device, a closed stdout, a reader that went away, stdin that cannot be read.
final class OutputDeliveryTests: XCTestCase {
    /// Runs a shell script with `$NAVSTACK` set to the binary, in a scratch folder that
    /// holds the XDG folders; stdout and stderr of the script are kept apart.
    private func shell(_ script: String) throws -> NavstackProcess.Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-delivery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = scratch
        var environment = ProcessInfo.processInfo.environment
        environment["NAVSTACK"] = NavstackProcess.binary.path
        environment["NAVSTACK_STORE"] = nil
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["XDG_DATA_HOME"] = scratch.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        process.environment = environment
        let outFile = scratch.appendingPathComponent("script-stdout")
        let errFile = scratch.appendingPathComponent("script-stderr")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return .init(
            stdout: try String(contentsOf: outFile, encoding: .utf8),
            stderr: try String(contentsOf: errFile, encoding: .utf8),
            status: process.terminationStatus)
    }

    func testUsageErrorsReachAPipeThatIsAlsoStdout() throws {
        let cases = [
            ("--bogus", "unknown option '--bogus'", 64),
            ("--width 5", "invalid for '--width'", 64),
            ("import /nonexistent", "import: cannot read /nonexistent", 1),
        ]
        for (arguments, message, status) in cases {
            let result = try shell(#""$NAVSTACK" "# + arguments + #" 2>&1 | cat"#)
            XCTAssertTrue(result.stdout.contains(message), "\(arguments): \(result.stdout)")
            let direct = try shell(#"exec 2>&1; "$NAVSTACK" "# + arguments + #"; echo "status=$?""#)
            XCTAssertTrue(direct.stdout.contains(message), "\(arguments): \(direct.stdout)")
            XCTAssertTrue(direct.stdout.hasSuffix("status=\(status)\n"), "\(arguments): \(direct.stdout)")
        }
    }

    func testAFullDeviceFailsWithAMessage() throws {
        let add = try shell(#""$NAVSTACK" --memory -c 'login ana' -c 'add x' > /dev/full"#)
        XCTAssertEqual(add.status, 1)
        XCTAssertEqual(add.stderr, "navstack: cannot write to stdout: No space left on device\n")

        let export = try shell(
            #"""
            "$NAVSTACK" --store s.sqlite --sample -c 'login ana' > /dev/null &&
            "$NAVSTACK" export --store s.sqlite > /dev/full
            """#)
        XCTAssertEqual(export.status, 1)
        XCTAssertEqual(export.stderr, "navstack: cannot write to stdout: No space left on device\n")
    }

    func testAClosedStdoutFailsWithAMessage() throws {
        let result = try shell(#""$NAVSTACK" --memory -c 'login ana' >&-"#)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: cannot write to stdout: Bad file descriptor\n")
    }

    /// With SIGPIPE ignored, a script whose reader has gone stops instead of running to
    /// its end; what it printed before was committed.
    func testAScriptStopsWhenItsReaderIsGone() throws {
        let script = #"""
            trap '' PIPE
            awk 'BEGIN { print "login ana"; for (i = 0; i < 20000; i++) { print "add task " i; print "back" } }' > script.nav
            "$NAVSTACK" --store s.sqlite < script.nav 2> err.txt | head -c 1 > /dev/null
            "$NAVSTACK" export --store s.sqlite --user ana | grep -c '"id"'
            cat err.txt >&2
            """#
        let result = try shell(script)
        let added = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        XCTAssertGreaterThan(added, 0, "the commands delivered before the reader left were committed")
        XCTAssertLessThan(added, 20000, "the script stopped")
        XCTAssertEqual(result.stderr, "navstack: cannot write to stdout: Broken pipe\n")
    }

    func testStdinThatCannotBeReadIsAFailure() throws {
        let result = try shell(#""$NAVSTACK" --memory < /tmp"#)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: cannot read the input: Is a directory\n")
    }
}
