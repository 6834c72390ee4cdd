import Foundation
import XCTest

/// Replays each `Tests/Golden/*.transcript` through the binary and compares byte for
/// byte. `RECORD_GOLDEN=1` rewrites the files with what the binary prints now.
final class GoldenTranscriptTests: XCTestCase {
    static let defaultOptions = ["--memory", "--lang", "en", "--width", "80"]

    private var folder: URL { NavstackProcess.packageRoot.appendingPathComponent("Tests/Golden") }

    func testEveryTranscript() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".transcript") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 12, "the golden suite lost files")
        let record = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"
        for name in files {
            let url = folder.appendingPathComponent(name)
            let expected = try String(contentsOf: url, encoding: .utf8)
            var lines = expected.components(separatedBy: "\n")
            var header: String?
            var options = Self.defaultOptions
            if let first = lines.first, first.hasPrefix("#! navstack") {
                header = first
                options = first.dropFirst("#! navstack".count).split(separator: " ").map(String.init)
                lines.removeFirst()
            }
            let commands = lines.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
            let result = try NavstackProcess.run(options + ["--echo"], lines: commands, merged: true)
            let actual = (header.map { $0 + "\n" } ?? "") + result.stdout
            if actual == expected { continue }
            if record {
                try actual.write(to: url, atomically: true, encoding: .utf8)
                print("recorded \(name)")
                continue
            }
            XCTFail("\(name) differs from its golden transcript:\n" + (try diff(expected: url, actual: actual)))
        }
    }

    func testTheSameScriptGivesTheSameBytesTwice() throws {
        let script = try String(contentsOf: folder.appendingPathComponent("list-detail-edit.transcript"), encoding: .utf8)
            .components(separatedBy: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
        let first = try NavstackProcess.run(Self.defaultOptions + ["--echo"], lines: script, merged: true)
        let second = try NavstackProcess.run(Self.defaultOptions + ["--echo"], lines: script, merged: true)
        XCTAssertFalse(first.stdout.isEmpty)
        XCTAssertEqual(first.stdout, second.stdout)
    }

    /// `diff -u` of the golden file against what the binary printed.
    private func diff(expected: URL, actual: String) throws -> String {
        let actualFile = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(UUID().uuidString)")
        try actual.write(to: actualFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: actualFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
        process.arguments = ["-u", "--label", expected.lastPathComponent + " (expected)", "--label",
                             expected.lastPathComponent + " (actual)", expected.path, actualFile.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
