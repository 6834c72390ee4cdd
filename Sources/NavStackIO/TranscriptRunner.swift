import Dispatch
import NavStackCore
import Synchronization

/// One transcript to replay: a `.transcript` file, or a block of a Markdown file.
public struct TranscriptJob: Sendable {
    public enum Source: Sendable {
        /// A transcript file, read when it is replayed.
        case file
        /// A block of a Markdown file already read.
        case block(Transcript.Block)
        /// A Markdown file that could not be read.
        case unreadable(TranscriptError)
    }

    /// The file it comes from, and that file's place among the files of the run.
    public let path: String
    public let file: Int
    public let source: Source

    public init(path: String, file: Int, source: Source) {
        self.path = path
        self.file = file
        self.source = source
    }

    /// How a run names it: the file's path, and for a block the line of its opening
    /// fence (`docs/commands.md:42`).
    public var name: String {
        if case .block(let block) = source { "\(path):\(block.fenceLine)" } else { path }
    }

    /// The file's line where the transcript starts, for the line numbers of its diff.
    public var firstLine: Int {
        if case .block(let block) = source { block.firstLine } else { 1 }
    }

    /// Whether a path names a Markdown file, whose blocks are the transcripts.
    public static func isMarkdown(_ path: String) -> Bool { path.hasSuffix(".md") }
}

/// Replays transcripts in fresh navstack processes, several at once.
public struct TranscriptRunner: Sendable {
    public enum Result: Sendable {
        case passed
        case differs(Transcript, actual: [String])
        case broken(TranscriptError)
        case cannotRun(String)
    }

    public let binary: String
    /// The words of an error that kept a transcript from running.
    public let words: @Sendable (any Error) -> String

    public init(binary: String, words: @escaping @Sendable (any Error) -> String) {
        self.binary = binary
        self.words = words
    }

    /// The results, in the order of `jobs`.
    public func run(_ jobs: [TranscriptJob], jobs count: Int) -> [Result] {
        let work = Mutex((next: 0, results: [Result](repeating: .cannotRun("not run"), count: jobs.count)))
        // Each worker takes the next transcript until none is left.
        DispatchQueue.concurrentPerform(iterations: min(max(1, count), max(1, jobs.count))) { _ in
            while true {
                let index = work.withLock { work in
                    defer { work.next += 1 }
                    return work.next
                }
                guard index < jobs.count else { return }
                let result = replay(jobs[index])
                work.withLock { $0.results[index] = result }
            }
        }
        return work.withLock { $0.results }
    }

    /// A file's text: a regular file of at most `Transcript.sizeLimit` bytes of UTF-8.
    public static func text(of path: String) throws(TranscriptError) -> String {
        let found: Files.RegularFile
        do throws(FileError) {
            found = try Files.readRegular(path, limit: Transcript.sizeLimit)
        } catch {
            throw .unreadable(error.reason)
        }
        let data: [UInt8]
        switch found {
        case .bytes(let bytes): data = bytes
        case .notRegular: throw .notRegularFile
        case .tooLarge(let bytes): throw .tooLarge(bytes: bytes)
        case .danglingLink: throw .danglingLink
        }
        guard let text = String(validating: data, as: UTF8.self) else { throw .notUTF8 }
        return text
    }

    /// Replays one transcript with its own temporary store and state folders.
    public func replay(_ job: TranscriptJob) -> Result {
        let transcript: Transcript
        do throws(TranscriptError) {
            switch job.source {
            case .file:
                transcript = try Transcript(text: Self.text(of: job.path))
            case .block(let block):
                guard block.isClosed else { throw .unclosedBlock(fence: block.fence) }
                transcript = try Transcript(text: block.text)
            case .unreadable(let reason):
                throw reason
            }
        } catch {
            return .broken(error)
        }
        do {
            let output = try execute(transcript)
            let actual = Transcript.lines(ofOutput: output)
            let same = transcript.compare(actual).allSatisfy { if case .same = $0 { true } else { false } }
            return same ? .passed : .differs(transcript, actual: actual)
        } catch {
            return .cannotRun(words(error))
        }
    }

    /// Runs navstack with the transcript's options and `--echo`, its commands on stdin,
    /// stdout and stderr into one file; returns what it printed.
    private func execute(_ transcript: Transcript) throws(FileError) -> String {
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
        environment.merge(transcript.environment) { $1 }
        try Files.run(
            binary, transcript.options + ["--echo"], in: scratch, environment: environment,
            input: input, output: output)
        return String(decoding: try Files.read(output), as: UTF8.self)
    }
}
