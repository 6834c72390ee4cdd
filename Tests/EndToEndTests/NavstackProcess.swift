import Foundation
import XCTest

/// Runs the built navstack binary.
enum NavstackProcess {
    struct Result {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// The binary under test: `$NAVSTACK_BIN`, else `navstack` beside the test bundle.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["NAVSTACK_BIN"] {
            return URL(fileURLWithPath: path)
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? CommandLine.arguments[0])
        return bundle.deletingLastPathComponent().appendingPathComponent("navstack")
    }

    /// The package's folder, for golden files.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs navstack with `input` on stdin; `merged` sends stderr into stdout's pipe,
    /// as `2>&1` does.
    static func run(
        _ arguments: [String], input: Data = Data(), merged: Bool = false,
        environment: [String: String] = [:]
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NAVSTACK_STORE"] = nil
        env["LC_ALL"] = nil
        env["NO_COLOR"] = nil
        env["LANG"] = "C.UTF-8"
        env["XDG_DATA_HOME"] = scratch.appendingPathComponent("data").path
        env["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        // Screens show dates: every run has the same clock unless the test names its own.
        env["NAVSTACK_NOW"] = "2026-11-27T09:00:00Z"
        env["TZ"] = "UTC"
        env.merge(environment) { $1 }
        process.environment = env

        let inputFile = scratch.appendingPathComponent("stdin")
        try input.write(to: inputFile)
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        let outFile = scratch.appendingPathComponent("stdout")
        let errFile = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let out = try FileHandle(forWritingTo: outFile)
        process.standardOutput = out
        process.standardError = merged ? out : try FileHandle(forWritingTo: errFile)
        try process.run()
        process.waitUntilExit()
        return Result(
            stdout: try String(contentsOf: outFile, encoding: .utf8),
            stderr: try String(contentsOf: errFile, encoding: .utf8),
            status: process.terminationStatus)
    }

    static func run(_ arguments: [String], lines: [String], merged: Bool = false) throws -> Result {
        try run(arguments, input: Data(lines.map { $0 + "\n" }.joined().utf8), merged: merged)
    }
}

extension String {
    /// The text with every `"uuid":"…"` value replaced by `…`: uuids of a store file are
    /// random.
    var withoutUUIDs: String {
        replacingOccurrences(of: #""uuid":"[0-9a-f-]{36}""#, with: #""uuid":"…""#, options: .regularExpression)
    }

    /// An export's records without the fields none of them sets (dates, tags … none, the
    /// stamps of the tests' clock): what its first fields look like.
    var withoutUnsetFields: String {
        replacingOccurrences(
            of: #","due":null,"scheduled":null,"wait":null,"until":null,"priority":null,"project":null,"recur":null,"tags":\[\],"#
                + #""created":"[^"]*","modified":"[^"]*","completed":(null|"[^"]*"),"annotations":\[\],"depends":\[\],"fields":\{\}"#,
            with: "", options: .regularExpression)
    }
}

/// Runs another program the tests compare navstack with (Taskwarrior, todo.sh), with no
/// input and its errors dropped.
enum OtherProgram {
    static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }
}
