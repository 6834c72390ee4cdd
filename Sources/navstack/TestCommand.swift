import NavStackCore
import NavStackIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

            In a Markdown file (*.md) each fenced block whose info string starts with \
            'transcript' (```transcript) holds a transcript; other blocks are left alone. A \
            block is named by the file and the line of its opening fence (README.md:42), \
            and its diff's line numbers are the file's; --update rewrites only the failing \
            blocks, the rest of the file as it was.

            Exit status: 0 when every transcript passed (or, with --update, was rewritten), \
            1 when one failed, 64 on bad usage.
            """,
        options: [
            .init(
                "update",
                help: "Rewrite each failing transcript with the actual output, keeping its header and the [..] lines that still match."),
            .init("jobs", value: "jobs", help: "How many transcripts run at once (default: the number of cores)."),
        ],
        arguments: [
            .init(
                "path", repeating: true, complete: .file,
                help: "Transcript files, Markdown files, or folders searched for *.transcript and *.md.")
        ])

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
            case .folder: files += TranscriptJob.transcripts(in: path)
            case .file: files.append(path)
            }
        }
        let (transcripts, markdown) = TranscriptJob.transcripts(of: files)
        let results = TranscriptRunner(binary: Files.ownPath(), words: { Navstack.words(for: $0) }).run(
            transcripts, jobs: jobs ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var passed = 0
        var failed = 0
        var unfixed = missing.count
        for path in missing {
            streams.write("FAIL \(path.escapedForDisplay): \(catalog(.testNoSuchFile))\n", to: .output)
        }
        // The new text of each failing block of the Markdown file being reported, written
        // once its last block is reported.
        var blockUpdates: [(job: TranscriptJob, block: Transcript.Block, text: String)] = []
        for (index, (job, result)) in zip(transcripts, results).enumerated() {
            let name = job.name.escapedForDisplay
            switch result {
            case .passed:
                passed += 1
            case .broken(let reason):
                failed += 1
                unfixed += 1
                streams.write("FAIL \(name): \(reason.message(in: catalog))\n", to: .output)
            case .cannotRun(let reason):
                failed += 1
                unfixed += 1
                streams.write("FAIL \(name): \(catalog(.testCannotRun, ("reason", reason.escapedForDisplay)))\n", to: .output)
            case .differs(let transcript, let actual):
                failed += 1
                streams.write("FAIL \(name)\n", to: .output)
                streams.write(transcript.unifiedDiff(actual, path: job.name, firstLine: job.firstLine), to: .output)
                if !update {
                    unfixed += 1
                } else if case .block(let block) = job.source {
                    blockUpdates.append((job, block, transcript.text(with: transcript.updated(with: actual))))
                } else {
                    unfixed += write(transcript.text(with: transcript.updated(with: actual)), to: job.path, naming: [job.name])
                }
            }
            let lastOfItsFile = index == transcripts.count - 1 || transcripts[index + 1].file != job.file
            if lastOfItsFile, !blockUpdates.isEmpty, let text = markdown[job.file] {
                let updated = Transcript.markdown(text, replacing: blockUpdates.map { ($0.block, $0.text) })
                unfixed += write(updated, to: job.path, naming: blockUpdates.map(\.job.name))
                blockUpdates.removeAll()
            }
        }
        if transcripts.isEmpty && missing.isEmpty {
            streams.write(catalog(.testNoTranscripts, ("paths", paths.joined(separator: ", ").escapedForDisplay)) + "\n", to: .output)
        }
        streams.write("\(passed) passed, \(failed + missing.count) failed\n", to: .output)
        if unfixed > 0 || (transcripts.isEmpty && missing.isEmpty) { throw ExitStatus.failure }
    }

    /// Writes what `--update` made of a file and says so for each transcript it fixed
    /// (`names`); answers how many of them stay unfixed.
    private func write(_ text: String, to path: String, naming names: [String]) -> Int {
        let streams = StandardStreams.shared
        do {
            try Files.replace(path, with: text)
            for name in names { streams.write("updated \(name.escapedForDisplay)\n", to: .output) }
            return 0
        } catch {
            let reason = Navstack.messageCatalog(.testCannotWrite, ("reason", Navstack.words(for: error).escapedForDisplay))
            for name in names { streams.write("FAIL \(name.escapedForDisplay): \(reason)\n", to: .output) }
            return names.count
        }
    }
}
