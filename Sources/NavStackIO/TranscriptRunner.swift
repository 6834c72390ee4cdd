import Dispatch
import Glibc
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
            let output = try execute(transcript, from: job.path)
            let actual = Transcript.lines(ofOutput: output)
            let same = transcript.compare(actual).allSatisfy { if case .same = $0 { true } else { false } }
            return same ? .passed : .differs(transcript, actual: actual)
        } catch {
            return .cannotRun(words(error))
        }
    }

    /// Runs navstack with the transcript's options and `--echo`, its commands on stdin,
    /// stdout and stderr into one file; returns what it printed.
    private func execute(_ transcript: Transcript, from path: String) throws(FileError) -> String {
        let scratch = try Files.temporaryFolder(prefix: "navstack-test-")
        defer { Files.remove(scratch) }
        let environment = Self.environment(of: transcript, in: scratch)
        if let lines = transcript.commandLines {
            return try execute(lines, in: scratch, beside: Self.folder(of: path), environment: environment)
        }
        let input = scratch + "/input"
        let output = scratch + "/output"
        try Files.write(transcript.commands.map { $0 + "\n" }.joined().utf8, to: input)
        try Files.run(
            binary, transcript.options + ["--echo"], in: scratch, environment: environment,
            input: input, output: output)
        return String(decoding: try Files.read(output), as: UTF8.self)
    }

    /// The environment a transcript's processes run in. Nothing they read to find a store
    /// or their state leads out of the scratch folder (and a header cannot name one: see
    /// `Transcript.storeOptions`); the clock is the transcript's.
    private static func environment(of transcript: Transcript, in scratch: String) -> [String: String] {
        var environment = Files.environment()
        environment["NAVSTACK_STORE"] = nil
        environment["HOME"] = scratch
        environment["XDG_DATA_HOME"] = scratch + "/data"
        environment["XDG_STATE_HOME"] = scratch + "/state"
        environment.merge(transcript.environment) { $1 }
        if transcript.commandLines != nil {
            // Command lines give no --lang: English, whatever the machine's language; and
            // no server is reached.
            environment["LC_ALL"] = "C.UTF-8"
            environment["NAVSTACK_SYNC"] = "0"
        }
        return environment
    }

    /// How long a process in the background has to print its first screen, and to print
    /// again after a command line changed what it shows.
    static let firstOutputWait = 10.0
    static let reactionWait = 3.0
    /// The quiet after its last byte that ends what it printed at once.
    static let quiet = Duration.milliseconds(300)

    /// Runs command lines one after another, each a process with stdin from /dev/null
    /// (or the file its line names after `<`, from the transcript's `folder`) and its
    /// output below its line; a line ending in `&` runs on beside the others
    /// until the last line has run, its input then closed, and everything it printed
    /// shows below it. A status other than 0 follows a line's output as
    /// `(exit status N)`.
    ///
    /// A process in the background reacts to each line after it before the next runs:
    /// the runner waits until it printed (and then printed nothing for a moment), or for
    /// ``reactionWait`` when the line changed nothing it shows. So two changes are never
    /// seen as one, and the transcript reads the same each run.
    private func execute(
        _ lines: [Transcript.CommandLine], in scratch: String, beside folder: String, environment: [String: String]
    ) throws(FileError) -> String {
        var outputs = [String](repeating: "", count: lines.count)
        var statuses = [Int32](repeating: 0, count: lines.count)
        var running: [(line: Int, process: Files.Background, printed: Int)] = []
        defer {
            for job in running { _ = Files.finish(job.process, within: 0) }
        }
        func path(_ line: Int) -> String { scratch + "/output-\(line)" }
        for (index, line) in lines.enumerated() {
            if line.inBackground {
                let process = try Files.start(binary, line.arguments, in: scratch, environment: environment, output: path(index))
                running.append((index, process, Self.settle(path(index), from: 0, within: Self.firstOutputWait)))
                continue
            }
            statuses[index] = try Files.run(
                binary, line.arguments, in: scratch, environment: environment,
                input: line.input.map { $0.hasPrefix("/") ? $0 : folder + "/" + $0 } ?? "/dev/null", output: path(index))
            outputs[index] = String(decoding: try Files.read(path(index)), as: UTF8.self)
            for job in running.indices {
                running[job].printed = Self.settle(path(running[job].line), from: running[job].printed, within: Self.reactionWait)
            }
        }
        let jobs = running
        running = []
        for job in jobs {
            statuses[job.line] = Files.finish(job.process, within: Self.firstOutputWait)
            outputs[job.line] = String(decoding: try Files.read(path(job.line)), as: UTF8.self)
        }
        var text = ""
        for (index, line) in lines.enumerated() {
            text += line.text + "\n" + outputs[index]
            if !outputs[index].isEmpty, !outputs[index].hasSuffix("\n") { text += "\n" }
            if let status = Self.statusLine(statuses[index]) { text += status + "\n" }
        }
        return text
    }

    /// The folder of a file's path (`.` for a bare name). A relative one is opened before
    /// the process moves to its scratch folder (spawn's file actions run in order).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The longest a wait for a process in the background lasts, even while it keeps
    /// printing.
    static let longestWait = Duration.seconds(30)

    /// Waits until a file grew past `size` and then stayed as it was for ``quiet``, or
    /// until `seconds` passed with no growth (or ``longestWait`` in all); returns its size
    /// then.
    static func settle(_ path: String, from size: Int, within seconds: Double) -> Int {
        let clock = ContinuousClock()
        let start = clock.now
        var last = size
        var grewAt: ContinuousClock.Instant?
        while true {
            usleep(20_000)
            let now = clock.now
            if let current = Files.size(of: path), current != last {
                last = current
                grewAt = now
            }
            if let grewAt {
                if grewAt.duration(to: now) >= quiet { return last }
            } else if start.duration(to: now) >= .seconds(seconds) {
                return last
            }
            if start.duration(to: now) >= longestWait { return last }
        }
    }

    /// `(exit status N)` or `(signal N)` for a status `waitpid` gave; nil for 0.
    static func statusLine(_ status: Int32) -> String? {
        let signal = status & 0x7F
        if signal != 0 { return "(signal \(signal))" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "(exit status \(code))"
    }
}
