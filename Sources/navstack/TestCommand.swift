#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
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
            its own store and state folders; transcripts run in parallel. A header may not \
            choose a store (--store): a transcript never touches yours. Only regular files \
            up to 16 MiB are read; a named pipe, device or broken link fails with the reason.

            Exit status: 0 when every transcript passed (or, with --update, was rewritten), \
            1 when one failed, 64 on bad usage.
            """,
        options: [
            .init("update", help: "Rewrite each failing transcript with the actual output, keeping its header and the [..] lines that still match."),
            .init("jobs", value: "jobs", help: "How many transcripts run at once (default: the number of cores)."),
        ],
        arguments: [.init("path", repeating: true, complete: .file, help: "Transcript files, or folders searched for *.transcript.")])

    let update: Bool
    let jobs: Int?
    let paths: [String]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        update = parsed.flag("update")
        jobs = try parsed.integer("jobs", in: 1...1024)
        paths = parsed.arguments
    }

    func run() throws {
        let streams = StandardStreams.shared
        let catalog = Navstack.messageCatalog
        var files: [String] = []
        var missing: [String] = []
        for path in paths {
            switch Files.kind(of: path) {
            case .missing: missing.append(path)
            case .folder: files += Self.transcripts(in: path)
            case .file: files.append(path)
            }
        }
        let results = TranscriptRunner(binary: Files.ownPath()).run(files, jobs: jobs ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var passed = 0
        var failed = 0
        var unfixed = missing.count
        for path in missing {
            streams.write("FAIL \(path.escapedForDisplay): \(catalog(.testNoSuchFile))\n", to: .output)
        }
        for (path, result) in zip(files, results) {
            switch result {
            case .passed:
                passed += 1
            case .broken(let reason):
                failed += 1
                unfixed += 1
                streams.write("FAIL \(path.escapedForDisplay): \(reason.message(in: catalog))\n", to: .output)
            case .cannotRun(let reason):
                failed += 1
                unfixed += 1
                streams.write("FAIL \(path.escapedForDisplay): \(catalog(.testCannotRun, ("reason", reason.escapedForDisplay)))\n", to: .output)
            case .differs(let transcript, let actual):
                failed += 1
                streams.write("FAIL \(path.escapedForDisplay)\n", to: .output)
                streams.write(transcript.unifiedDiff(actual, path: path), to: .output)
                guard update else {
                    unfixed += 1
                    continue
                }
                do {
                    try Files.replace(path, with: transcript.text(with: transcript.updated(with: actual)))
                    streams.write("updated \(path.escapedForDisplay)\n", to: .output)
                } catch {
                    unfixed += 1
                    streams.write("FAIL \(path.escapedForDisplay): \(catalog(.testCannotWrite, ("reason", error.description.escapedForDisplay)))\n", to: .output)
                }
            }
        }
        if files.isEmpty && missing.isEmpty {
            streams.write(catalog(.testNoTranscripts, ("paths", paths.joined(separator: ", ").escapedForDisplay)) + "\n", to: .output)
        }
        streams.write("\(passed) passed, \(failed + missing.count) failed\n", to: .output)
        if unfixed > 0 || (files.isEmpty && missing.isEmpty) { throw ExitStatus.failure }
    }

    /// Every `*.transcript` below a folder, sorted: files, links and anything else so
    /// named (which then fails with its reason rather than being skipped).
    static func transcripts(in folder: String) -> [String] {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return Files.files(under: base).filter { $0.hasSuffix(".transcript") }.sorted().map { base + "/" + $0 }
    }
}

/// Replays transcripts in fresh navstack processes, several at once.
struct TranscriptRunner: Sendable {
    enum Result: Sendable {
        case passed
        case differs(Transcript, actual: [String])
        case broken(TranscriptError)
        case cannotRun(String)
    }

    let binary: String

    /// The results, in the order of `files`.
    func run(_ files: [String], jobs: Int) -> [Result] {
        let work = Mutex((next: 0, results: [Result](repeating: .cannotRun("not run"), count: files.count)))
        // Each worker takes the next transcript until none is left.
        DispatchQueue.concurrentPerform(iterations: min(max(1, jobs), max(1, files.count))) { _ in
            while true {
                let index = work.withLock { work in
                    defer { work.next += 1 }
                    return work.next
                }
                guard index < files.count else { return }
                let result = replay(files[index])
                work.withLock { $0.results[index] = result }
            }
        }
        return work.withLock { $0.results }
    }

    /// Replays one transcript with its own temporary store and state folders.
    func replay(_ path: String) -> Result {
        let data: [UInt8]
        do {
            data = try Files.readRegular(path, limit: Transcript.sizeLimit)
        } catch {
            switch error {
            case .notRegular: return .broken(.notRegularFile)
            case .tooLarge(let bytes): return .broken(.tooLarge(bytes: bytes))
            case .danglingLink: return .broken(.danglingLink)
            case .failed(let failure): return .broken(.unreadable(failure.reason))
            }
        }
        guard let text = String(validating: data, as: UTF8.self) else { return .broken(.notUTF8) }
        let transcript: Transcript
        do {
            transcript = try Transcript(text: text)
        } catch {
            return .broken(error)
        }
        do {
            let output = try execute(transcript)
            let actual = Transcript.lines(ofOutput: output)
            let same = transcript.compare(actual).allSatisfy { if case .same = $0 { true } else { false } }
            return same ? .passed : .differs(transcript, actual: actual)
        } catch {
            return .cannotRun(error.description)
        }
    }

    /// Runs navstack with the transcript's options and `--echo`, its commands on stdin,
    /// stdout and stderr into one file; returns what it printed.
    private func execute(_ transcript: Transcript) throws(Files.Failure) -> String {
        let scratch = try Files.temporaryFolder(prefix: "navstack-test-")
        defer { Files.remove(scratch) }
        let input = scratch + "/input"
        let output = scratch + "/output"
        try Files.write(transcript.commands.map { $0 + "\n" }.joined().utf8, to: input)
        // Nothing the child reads to find a store or its state leads out of the scratch
        // folder (and the header cannot name one: see `Transcript.storeOptions`).
        var environment = Files.environment()
        environment["NAVSTACK_STORE"] = nil
        environment["HOME"] = scratch
        environment["XDG_DATA_HOME"] = scratch + "/data"
        environment["XDG_STATE_HOME"] = scratch + "/state"
        try Files.run(binary, transcript.options + ["--echo"], in: scratch, environment: environment,
                      input: input, output: output)
        return String(decoding: try Files.read(output), as: UTF8.self)
    }
}
