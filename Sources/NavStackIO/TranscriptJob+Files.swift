import NavStackCore

extension TranscriptJob {
    /// The transcripts of the files named: a transcript file is one, a Markdown file one
    /// a block. Markdown files are read here, once; their texts, by the file's place, are
    /// what `--update` rewrites blocks in.
    public static func transcripts(of files: [String]) -> (jobs: [TranscriptJob], markdown: [Int: String]) {
        var jobs: [TranscriptJob] = []
        var markdown: [Int: String] = [:]
        for (file, path) in files.enumerated() {
            guard TranscriptJob.isMarkdown(path) else {
                jobs.append(TranscriptJob(path: path, file: file, source: .file))
                continue
            }
            do throws(TranscriptError) {
                let text = try TranscriptRunner.text(of: path)
                markdown[file] = text
                jobs += Transcript.blocks(inMarkdown: text).map { TranscriptJob(path: path, file: file, source: .block($0)) }
            } catch {
                jobs.append(TranscriptJob(path: path, file: file, source: .unreadable(error)))
            }
        }
        return (jobs, markdown)
    }

    /// Every `*.transcript` and `*.md` below a folder, sorted: files, links and anything
    /// else so named (which then fails with its reason rather than being skipped).
    public static func transcripts(in folder: String) -> [String] {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return Files.files(under: base).filter { $0.hasSuffix(".transcript") || TranscriptJob.isMarkdown($0) }
            .sorted().map { base + "/" + $0 }
    }
}
