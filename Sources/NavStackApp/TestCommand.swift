import NavStackCore
import NavStackIO

/// `navstack test`: replays golden transcripts, each in a fresh process, and compares.
public struct TestCommand: Subcommand {
    public static let spec = CommandSpec(
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

            A transcript whose first line (after the header) starts with '$ ' holds command \
            lines instead: each '$ navstack ARGUMENTS' runs in a process of its own, all of them \
            on the transcript's one store and in English, and the lines under it are what it \
            printed, then '(exit status N)' when that was not 0. A line ending in '&' runs on \
            beside the lines after it (navstack watch): after each of them it is given up to 3 s \
            to print what that line changed, and everything it printed shows under it. The \
            header of such a transcript gives only NAVSTACK_NOW= and TZ=; a line may not choose \
            a store or run navstack test.

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

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        update = parsed.flag("update")
        jobs = try parsed.integer("jobs", in: 1...1024)
        paths = parsed.arguments
    }

    public func run() throws {
        let passed = TranscriptRunner.test(
            paths, update: update, jobs: jobs, binary: Files.ownPath(), catalog: App.messageCatalog,
            streams: StandardStreams.shared)
        if !passed { throw ExitStatus.failure }
    }
}
