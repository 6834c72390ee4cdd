import NavStackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `navstack test`'s work: the transcripts found, replayed and reported.
extension TranscriptRunner {
    /// Replays the transcripts of `paths` with the program at `binary`, `jobs` at once
    /// (default: the number of cores), and reports each failure and the totals on
    /// `streams`' output, in `catalog`'s language; with `update`, rewrites each failing
    /// transcript. Answers whether every transcript passed (or was rewritten), and some
    /// were found.
    public static func test(
        _ paths: [String], update: Bool, jobs: Int?, binary: String, catalog: Catalog, streams: StandardStreams
    ) -> Bool {
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
        let results = TranscriptRunner(binary: binary, words: { catalog.words(for: $0) }).run(
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
                    unfixed += write(
                        transcript.text(with: transcript.updated(with: actual)), to: job.path, naming: [job.name], catalog, streams)
                }
            }
            let lastOfItsFile = index == transcripts.count - 1 || transcripts[index + 1].file != job.file
            if lastOfItsFile, !blockUpdates.isEmpty, let text = markdown[job.file] {
                let updated = Transcript.markdown(text, replacing: blockUpdates.map { ($0.block, $0.text) })
                unfixed += write(updated, to: job.path, naming: blockUpdates.map(\.job.name), catalog, streams)
                blockUpdates.removeAll()
            }
        }
        if transcripts.isEmpty && missing.isEmpty {
            streams.write(catalog(.testNoTranscripts, ("paths", paths.joined(separator: ", ").escapedForDisplay)) + "\n", to: .output)
        }
        streams.write("\(passed) passed, \(failed + missing.count) failed\n", to: .output)
        return unfixed == 0 && !(transcripts.isEmpty && missing.isEmpty)
    }

    /// Writes what `--update` made of a file and says so for each transcript it fixed
    /// (`names`); answers how many of them stay unfixed.
    private static func write(
        _ text: String, to path: String, naming names: [String], _ catalog: Catalog, _ streams: StandardStreams
    ) -> Int {
        do {
            try Files.replace(path, with: text)
            for name in names { streams.write("updated \(name.escapedForDisplay)\n", to: .output) }
            return 0
        } catch {
            let reason = catalog(.testCannotWrite, ("reason", catalog.words(for: error).escapedForDisplay))
            for name in names { streams.write("FAIL \(name.escapedForDisplay): \(reason)\n", to: .output) }
            return names.count
        }
    }
}
