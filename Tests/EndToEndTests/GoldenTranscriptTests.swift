import Foundation
import XCTest

/// Replays each `Tests/Golden/*.transcript` through the binary and compares byte for
/// byte. `RECORD_GOLDEN=1` rewrites the files with what the binary prints now.
final class GoldenTranscriptTests: XCTestCase {
    static let defaultOptions = ["--memory", "--lang", "en", "--width", "80"]

    private var folder: URL { NavstackProcess.packageRoot.appendingPathComponent("Tests/Golden") }

    /// The project's own golden suite, through `navstack test` (`--update` re-records
    /// it when `RECORD_GOLDEN=1`).
    func testEveryTranscript() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".transcript") }
        XCTAssertGreaterThanOrEqual(files.count, 12, "the golden suite lost files")
        let record = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"
        let result = try NavstackProcess.run(["test"] + (record ? ["--update"] : []) + [folder.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix("\(files.count) passed, 0 failed\n") || record, result.stdout)
    }

    func testTheSameScriptGivesTheSameBytesTwice() throws {
        let script = try String(contentsOf: folder.appendingPathComponent("list-detail-edit.transcript"), encoding: .utf8)
            .components(separatedBy: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
        let first = try NavstackProcess.run(Self.defaultOptions + ["--echo"], lines: script, merged: true)
        let second = try NavstackProcess.run(Self.defaultOptions + ["--echo"], lines: script, merged: true)
        XCTAssertFalse(first.stdout.isEmpty)
        XCTAssertEqual(first.stdout, second.stdout)
    }
}
