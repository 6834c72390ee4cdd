#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NavStackCore

/// `navstack test`: replays golden transcripts, each in a fresh process, and compares.
struct TestCommand: Subcommand {
    static let spec = CommandSpec(
        name: "navstack test",
        abstract: "Replay golden transcripts and compare their output byte for byte.",
        discussion: """
            A transcript is what 'navstack --echo' prints for a script, stderr merged in: \
            lines starting with '> ' are the commands, the lines under each its output. An \
            optional first line '#! navstack OPTIONS' gives the options (default: \
            \(Transcript.defaultOptions.joined(separator: " "))). In an expected line, [..] \
            matches any text within that line. Each transcript runs in a fresh process with \
            its own store and state folders; transcripts run in parallel.

            Exit status: 0 when every transcript passed (or, with --update, was rewritten), \
            1 when one failed, 64 on bad usage.
            """,
        options: [
            .init("update", help: "Rewrite each failing transcript with the actual output, keeping its header and the [..] lines that still match."),
            .init("jobs", value: "jobs", help: "How many transcripts run at once (default: the number of cores)."),
        ],
        arguments: [.init("path", repeating: true, help: "Transcript files, or folders searched for *.transcript.")])

    let update: Bool
    let jobs: Int?
    let paths: [String]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        update = parsed.flag("update")
        jobs = try parsed.integer("jobs", in: 1...1024)
        paths = parsed.arguments
    }

    func run() throws {
        let streams = StandardStreams()
        var files: [String] = []
        var missing: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                missing.append(path)
            } else if isFolder.boolValue {
                files += Self.transcripts(in: path)
            } else {
                files.append(path)
            }
        }
        let results = TranscriptRunner(binary: Self.ownPath()).run(files, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var passed = 0
        var failed = 0
        var unfixed = missing.count
        for path in missing {
            streams.write("FAIL \(path): no such file or folder\n", to: .output)
        }
        for (path, result) in zip(files, results) {
            switch result {
            case .passed:
                passed += 1
            case .broken(let reason):
                failed += 1
                unfixed += 1
                streams.write("FAIL \(path): \(reason)\n", to: .output)
            case .differs(let transcript, let actual):
                failed += 1
                streams.write("FAIL \(path)\n", to: .output)
                streams.write(transcript.unifiedDiff(actual, path: path), to: .output)
                guard update else {
                    unfixed += 1
                    continue
                }
                do {
                    try transcript.text(with: transcript.updated(with: actual)).write(toFile: path, atomically: true, encoding: .utf8)
                    streams.write("updated \(path)\n", to: .output)
                } catch {
                    unfixed += 1
                    streams.write("FAIL \(path): cannot write it: \(error.localizedDescription)\n", to: .output)
                }
            }
        }
        if files.isEmpty && missing.isEmpty {
            streams.write("no *.transcript files in \(paths.joined(separator: ", "))\n", to: .output)
        }
        streams.write("\(passed) passed, \(failed + missing.count) failed\n", to: .output)
        streams.flush()
        if unfixed > 0 || (files.isEmpty && missing.isEmpty) { throw ExitStatus.failure }
    }

    /// Every `*.transcript` below a folder, sorted.
    static func transcripts(in folder: String) -> [String] {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let found = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".transcript") }.sorted().map { base + "/" + $0 }
    }

    /// This navstack binary, to replay with.
    static func ownPath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// Replays transcripts in fresh navstack processes, several at once.
struct TranscriptRunner: Sendable {
    enum Result: Sendable {
        case passed
        case differs(Transcript, actual: [String])
        case broken(String)
    }

    let binary: String

    /// The results, in the order of `files`.
    func run(_ files: [String], jobs: Int) -> [Result] {
        let results = ResultBox(count: files.count)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = max(1, jobs)
        for (index, file) in files.enumerated() {
            queue.addOperation { results.set(index, replay(file)) }
        }
        queue.waitUntilAllOperationsAreFinished()
        return results.values
    }

    /// Replays one transcript with its own temporary store and state folders.
    func replay(_ path: String) -> Result {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .broken(TranscriptError.unreadable(String(cString: strerror(errno))).description)
        }
        guard let text = String(data: data, encoding: .utf8) else { return .broken(TranscriptError.notUTF8.description) }
        let transcript: Transcript
        do {
            transcript = try Transcript(text: text)
        } catch {
            return .broken(error.description)
        }
        do {
            let output = try execute(transcript)
            let actual = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(output.hasSuffix("\n") ? 1 : 0)
            let same = transcript.compare(Array(actual)).allSatisfy { if case .same = $0 { true } else { false } }
            return same ? .passed : .differs(transcript, actual: Array(actual))
        } catch {
            return .broken("cannot run navstack: \(error.localizedDescription)")
        }
    }

    /// Runs navstack with the transcript's options and `--echo`, its commands on stdin,
    /// stdout and stderr into one file; returns what it printed.
    private func execute(_ transcript: Transcript) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("input")
        let output = scratch.appendingPathComponent("output")
        try Data(transcript.commands.map { $0 + "\n" }.joined().utf8).write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = transcript.options + ["--echo"]
        process.currentDirectoryURL = scratch
        var environment = ProcessInfo.processInfo.environment
        environment["NAVSTACK_STORE"] = nil
        environment["XDG_DATA_HOME"] = scratch.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        process.environment = environment
        process.standardInput = try FileHandle(forReadingFrom: input)
        let merged = try FileHandle(forWritingTo: output)
        process.standardOutput = merged
        process.standardError = merged
        try process.run()
        process.waitUntilExit()
        try merged.close()
        return String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }
}

/// Results written by parallel replays.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [TranscriptRunner.Result]

    init(count: Int) {
        results = Array(repeating: .broken("not run"), count: count)
    }

    func set(_ index: Int, _ result: TranscriptRunner.Result) {
        lock.lock()
        defer { lock.unlock() }
        results[index] = result
    }

    var values: [TranscriptRunner.Result] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
