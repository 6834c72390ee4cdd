/// A golden transcript: what `navstack --echo` prints for a script, stderr merged in
/// order. Lines that start with `> ` are the commands; an optional first line
/// `#! navstack [NAVSTACK_NOW=…] [TZ=…] OPTIONS` gives the clock and the options.
///
/// Or, when its first line after the header starts with `$ `, command lines
/// (``CommandLine``): each `$ navstack …` runs in a process of its own, all on one store,
/// and the lines under it are what it printed. A line ending in `&` runs on beside the
/// lines after it (a `watch`), and everything it printed shows under it.
///
/// Screens show dates, so every transcript runs on a fixed clock: ``defaultClock``
/// unless its header names its own.
public struct Transcript: Equatable, Sendable {
    /// The options used when the file has no header.
    public static let defaultOptions = ["--memory", "--lang", "en", "--width", "80"]
    public static let headerPrefix = "#! navstack"
    /// Options a header may not give: a transcript always runs with a store of its own.
    public static let storeOptions = ["--store"]
    /// The largest transcript read, in bytes.
    public static let sizeLimit = 16 << 20
    /// The clock every transcript runs on unless its header says otherwise.
    public static let defaultClock = ["NAVSTACK_NOW": "2026-11-27T09:00:00Z", "TZ": "UTC"]
    /// The variables a header may set.
    public static let clockVariables: Set<String> = ["NAVSTACK_NOW", "TZ"]

    /// The header line, if the file has one.
    public var header: String?
    /// The options to run with: the header's, else the defaults.
    public var options: [String]
    /// The clock's variables: ``defaultClock`` with the header's own.
    public var environment = Transcript.defaultClock
    /// The expected output lines (everything after the header).
    public var expected: [String]
    /// Whether the file's lines end in CR LF, kept when it is rewritten.
    public var crlf = false

    /// For a transcript of command lines (its first line after the header starts with
    /// `$ `): the lines, each run in a process of its own against the transcript's one
    /// store, its output below it. `nil` for a transcript of one process's commands.
    public var commandLines: [CommandLine]?

    /// A line `$ navstack ARGUMENTS` of a transcript of command lines; with `&` at its
    /// end, a process that runs on beside the lines after it (`navstack watch … &`); with
    /// `< FILE` at its end, one whose standard input is that file, beside the transcript.
    public struct CommandLine: Equatable, Sendable {
        /// The line as written, which the output repeats.
        public var text: String
        /// The words after `navstack`, split as a shell splits plain and quoted words.
        public var arguments: [String]
        /// Whether it runs on beside the lines after it, until the transcript ends.
        public var inBackground: Bool
        /// The file its standard input comes from, named from the transcript's folder;
        /// `nil`: none (`/dev/null`).
        public var input: String?

        public init(text: String, arguments: [String], inBackground: Bool, input: String? = nil) {
            self.text = text
            self.arguments = arguments
            self.inBackground = inBackground
            self.input = input
        }
    }

    /// What starts a command line.
    public static let commandLinePrefix = "$ "

    /// The commands to replay: the `> ` lines, without their prefix.
    public var commands: [String] {
        expected.filter { $0.hasPrefix("> ") || $0 == ">" }.map { String($0.dropFirst(2)) }
    }

    /// Reads a transcript; fails with a reason when the header cannot be read.
    public init(text: String) throws(TranscriptError) {
        var lines = Self.lines(of: text)
        crlf = lines.first?.hasSuffix("\r") ?? false
        lines = lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        if lines.last == "" { lines.removeLast() }
        var headerGivesOptions = false
        if let first = lines.first, first.hasPrefix("#!") {
            guard first.hasPrefix(Self.headerPrefix + " ") || first == Self.headerPrefix else {
                throw .badHeader(first)
            }
            header = first
            options = try Self.words(String(first.dropFirst(Self.headerPrefix.count)))
            var named = false
            while let word = options.first, let equals = word.firstIndex(of: "="), !word.hasPrefix("-") {
                let name = String(word[..<equals])
                guard Self.clockVariables.contains(name) else { throw .badHeader(first) }
                environment[name] = String(word[word.index(after: equals)...])
                options.removeFirst()
                named = true
            }
            headerGivesOptions = !options.isEmpty
            // A header that names only the clock runs with the usual options.
            if named && options.isEmpty { options = Self.defaultOptions }
            lines.removeFirst()
        } else {
            header = nil
            options = Self.defaultOptions
        }
        // A first word that is no option names a subcommand.
        guard !options.contains(where: { $0 == "-c" || $0.hasPrefix("--echo") }),
            options.first.map({ $0.hasPrefix("-") }) ?? true
        else {
            throw .badHeader(header ?? "")
        }
        if let refused = Self.storeOption(in: options) { throw .storeOption(refused) }
        expected = lines
        if let first = lines.first, first.hasPrefix(Self.commandLinePrefix) {
            // Each line gives its own options; the header gives only the clock.
            guard !headerGivesOptions else { throw .commandLineHeader }
            guard Self.isCommandLine(first) else { throw .notNavstack(first) }
            // Only `$ navstack` starts a command line: what a line printed may start with
            // `$ ` too (a title, `$ 50 to Ana`).
            commandLines = try lines.filter(Self.isCommandLine).map(Self.commandLine)
        }
    }

    /// The option of ``storeOptions`` that `words` give (`--store PATH` or `--store=PATH`),
    /// if any.
    static func storeOption(in words: [String]) -> String? {
        for word in words {
            for refused in storeOptions where word == refused || word.hasPrefix(refused + "=") { return refused }
        }
        return nil
    }

    /// Whether a line of a transcript of command lines is one: `$ navstack`, then nothing
    /// or a space.
    static func isCommandLine(_ line: String) -> Bool {
        line == commandLinePrefix + "navstack" || line.hasPrefix(commandLinePrefix + "navstack ")
    }

    /// Reads a line `$ navstack ARGUMENTS [&]`.
    static func commandLine(_ line: String) throws(TranscriptError) -> CommandLine {
        var words = try Self.words(String(line.dropFirst(commandLinePrefix.count)))
        words.removeFirst()
        let inBackground = words.last == "&"
        if inBackground { words.removeLast() }
        var input: String?
        if words.count >= 2, words[words.count - 2] == "<" {
            input = words.removeLast()
            words.removeLast()
        }
        // As in a header, a store of the transcript's own: never the user's.
        if let refused = storeOption(in: words) { throw .storeOptionInLine(refused, line: line) }
        // Nor a replay of transcripts, which could replay this one.
        guard words.first(where: { !["--memory", "--sample"].contains($0) }) != "test" else { throw .nestedTest(line) }
        return CommandLine(text: line, arguments: words, inBackground: inBackground, input: input)
    }

    /// The lines of a text, split at each LF only (a CR before it stays on its line);
    /// an LF at the end gives a last empty line.
    public static func lines(of text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The file's text for new expected lines, keeping the header and the line endings.
    public func text(with lines: [String]) -> String {
        let end = crlf ? "\r\n" : "\n"
        return ((header.map { [$0] } ?? []) + lines).map { $0 + end }.joined()
    }

    /// Splits options as a shell would for plain words and quoted ones.
    static func words(_ text: String) throws(TranscriptError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw .unclosedQuote }
        if inWord { words.append(word) }
        return words
    }

    /// Whether an actual line matches an expected one: equal, or equal where each `[..]`
    /// of the expected line stands for any text within the line.
    /// A bare `>` (an empty command whose trailing blank an editor trimmed) matches the
    /// `> ` that `--echo` prints for it.
    public static func line(_ actual: String, matches expected: String) -> Bool {
        if expected == ">" { return actual == "> " || actual == ">" }
        guard expected.contains("[..]") else { return actual == expected }
        let pieces = expected.split(separator: "[..]", omittingEmptySubsequences: false).map(Substring.init)
        var rest = Substring(actual)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for (index, piece) in pieces.enumerated().dropFirst() {
            if index == pieces.count - 1 { return rest.hasSuffix(piece) }
            guard let range = rest.firstRange(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// The comparison of actual output with the expected lines.
    ///
    /// Each distinct line gets a number first, so that lines without `[..]` (nearly all)
    /// compare as numbers.
    public func compare(_ actual: [String]) -> [LineDiff.Edit] {
        var numbers: [String: Int] = [:]
        func number(_ line: String) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        // -1: a pattern, matched by `line(_:matches:)`.
        let old = expected.map { $0 == ">" || $0.contains("[..]") ? -1 : number($0) }
        let new = actual.map(number)
        return LineDiff.edits(
            from: expected, to: actual,
            matching: { i, j in
                old[i] >= 0 ? old[i] == new[j] : Self.line(actual[j], matches: expected[i])
            })
    }

    /// The comparison as a unified diff whose line numbers are the file's (the header
    /// counted), the transcript starting on its line `firstLine` (a block of a Markdown
    /// file starts below its fence); empty when the output matches.
    public func unifiedDiff(_ actual: [String], path: String, firstLine: Int = 1) -> String {
        let head = header.map { [LineDiff.Edit.same($0, $0)] } ?? []
        return LineDiff.unified(
            head + compare(actual), oldName: "\(path) (expected)", newName: "\(path) (actual)",
            firstLine: firstLine)
    }

    /// What `--update` writes: the actual lines, except that an expected line still
    /// matching (one with `[..]`) is kept as it was.
    public func updated(with actual: [String]) -> [String] {
        compare(actual).compactMap { edit in
            switch edit {
            case .same(let expected, _): expected
            case .added(let line): line
            case .removed: nil
            }
        }
    }
}

/// Why a transcript cannot be replayed.
public enum TranscriptError: CatalogError, Equatable, Sendable, CustomStringConvertible {
    case badHeader(String)
    case unclosedQuote
    /// The header gives an option that chooses a store.
    case storeOption(String)
    case unreadable(String)
    case notUTF8
    /// A named pipe, device, socket or folder.
    case notRegularFile
    case tooLarge(bytes: Int)
    /// A symbolic link whose target is missing.
    case danglingLink
    /// A transcript of command lines whose header gives options: each line gives its own.
    case commandLineHeader
    /// A command line that gives an option that chooses a store.
    case storeOptionInLine(String, line: String)
    /// A transcript of command lines whose first line runs another program than navstack.
    case notNavstack(String)
    /// A command line that runs `navstack test`.
    case nestedTest(String)
    /// A block of a Markdown file that no closing fence (the opening one's characters)
    /// ends.
    case unclosedBlock(fence: String)

    public func message(in t: Catalog) -> String {
        switch self {
        case .badHeader(let line): t(.transcriptBadHeader, ("line", line.escapedForDisplay))
        case .unclosedQuote: t(.transcriptUnclosedQuote)
        case .storeOption(let option): t(.transcriptStoreOption, ("option", option.escapedForDisplay))
        case .unreadable(let reason): t(.transcriptUnreadable, ("reason", reason.escapedForDisplay))
        case .notUTF8: t(.transcriptNotUTF8)
        case .notRegularFile: t(.transcriptNotRegularFile)
        case .tooLarge(let bytes): t(.transcriptTooLarge, ("bytes", bytes), ("limit", Transcript.sizeLimit))
        case .danglingLink: t(.transcriptDanglingLink)
        case .commandLineHeader: t(.transcriptCommandLineHeader)
        case .storeOptionInLine(let option, let line):
            t(.transcriptStoreOptionInLine, ("option", option.escapedForDisplay), ("line", line.escapedForDisplay))
        case .notNavstack(let line): t(.transcriptNotNavstack, ("line", line.escapedForDisplay))
        case .nestedTest(let line): t(.transcriptNestedTest, ("line", line.escapedForDisplay))
        case .unclosedBlock(let fence): t(.transcriptUnclosedBlock, ("fence", fence))
        }
    }

    public var description: String { message(in: .english) }
}
