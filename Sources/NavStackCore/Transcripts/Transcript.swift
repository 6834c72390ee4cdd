/// A golden transcript: what `navstack --echo` prints for a script, stderr merged in
/// order. Lines that start with `> ` are the commands; an optional first line
/// `#! navstack OPTIONS` gives the options.
public struct Transcript: Equatable, Sendable {
    /// The options used when the file has no header.
    public static let defaultOptions = ["--memory", "--lang", "en", "--width", "80"]
    public static let headerPrefix = "#! navstack"

    /// The header line, if the file has one.
    public var header: String?
    /// The options to run with: the header's, else the defaults.
    public var options: [String]
    /// The expected output lines (everything after the header).
    public var expected: [String]

    /// The commands to replay: the `> ` lines, without their prefix.
    public var commands: [String] {
        expected.filter { $0.hasPrefix("> ") || $0 == ">" }.map { String($0.dropFirst(2)) }
    }

    /// Reads a transcript; fails with a reason when the header cannot be read.
    public init(text: String) throws(TranscriptError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let first = lines.first, first.hasPrefix("#!") {
            guard first.hasPrefix(Self.headerPrefix + " ") || first == Self.headerPrefix else {
                throw .badHeader(first)
            }
            header = first
            options = try Self.words(String(first.dropFirst(Self.headerPrefix.count)))
            lines.removeFirst()
        } else {
            header = nil
            options = Self.defaultOptions
        }
        guard !options.contains(where: { $0 == "-c" || $0.hasPrefix("--echo") }) else {
            throw .badHeader(header ?? "")
        }
        expected = lines
    }

    /// The file's text for new expected lines, keeping the header.
    public func text(with lines: [String]) -> String {
        ((header.map { [$0] } ?? []) + lines).map { $0 + "\n" }.joined()
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
    public static func line(_ actual: String, matches expected: String) -> Bool {
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
    public func compare(_ actual: [String]) -> [LineDiff.Edit] {
        LineDiff.edits(from: expected, to: actual, matches: { expected, actual in Self.line(actual, matches: expected) })
    }

    /// The comparison as a unified diff whose line numbers are the file's (the header
    /// counted); empty when the output matches.
    public func unifiedDiff(_ actual: [String], path: String) -> String {
        let head = header.map { [LineDiff.Edit.same($0, $0)] } ?? []
        return LineDiff.unified(head + compare(actual), oldName: "\(path) (expected)", newName: "\(path) (actual)")
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
public enum TranscriptError: Error, Equatable, Sendable, CustomStringConvertible {
    case badHeader(String)
    case unclosedQuote
    case unreadable(String)
    case notUTF8

    public var description: String {
        switch self {
        case .badHeader(let line):
            "the first line must be '#! navstack OPTIONS' without -c or --echo (got '\(line.escapedForDisplay)')"
        case .unclosedQuote: "the header has an unclosed quote"
        case .unreadable(let reason): "cannot read it: \(reason)"
        case .notUTF8: "it is not UTF-8 text"
        }
    }
}
