/// A command of the `navstack` command line: its options and arguments, the help that
/// describes them, and the parser that reads them.
///
/// Parsing is plain string work over a table, so launching costs next to nothing.
public struct CommandSpec: Sendable {
    /// What a shell may offer for a value: nothing, file names, or a fixed set of words.
    public enum ValueCompletion: Equatable, Sendable {
        case none
        case file
        case choices([String])
    }

    /// An option: `--long`, maybe `-s`; a flag, or one that takes a value.
    public struct Option: Sendable {
        public var long: String
        public var short: Character?
        /// The value's name in help (`--store <path>`); `nil` for a flag.
        public var valueName: String?
        public var help: String
        /// Whether it may be given more than once (each value is kept).
        public var repeatable: Bool
        /// What shell completion offers for its value.
        public var completion: ValueCompletion

        public init(
            _ long: String, short: Character? = nil, value valueName: String? = nil, repeatable: Bool = false,
            complete completion: ValueCompletion = .none, help: String
        ) {
            self.long = long
            self.short = short
            self.valueName = valueName
            self.help = help
            self.repeatable = repeatable
            self.completion = completion
        }

        /// `--store`, or `-c` for an option with only a short name.
        public var name: String {
            long.isEmpty ? short.map { "-\($0)" } ?? "" : "--\(long)"
        }

        /// Every name it answers to: `-c`; `--store`.
        public var names: [String] {
            (short.map { ["-\($0)"] } ?? []) + (long.isEmpty ? [] : ["--\(long)"])
        }

        /// The name its values are kept under: the long name, else the short one.
        var key: String {
            long.isEmpty ? short.map(String.init) ?? "" : long
        }

        /// How usage and help name it: `--store <path>`, `-c <command>`, `--echo`.
        public var synopsis: String {
            let name = short.map { "-\($0)" } ?? "--\(long)"
            return valueName.map { "\(name) <\($0)>" } ?? name
        }
    }

    /// A positional argument.
    public struct Argument: Sendable {
        public var name: String
        public var help: String
        /// Whether it takes every remaining argument (at least one).
        public var repeating: Bool
        /// Whether it may be left out (the last argument only).
        public var optional: Bool
        /// What shell completion offers for it.
        public var completion: ValueCompletion

        public init(
            _ name: String, repeating: Bool = false, optional: Bool = false, complete completion: ValueCompletion = .none,
            help: String
        ) {
            self.name = name
            self.help = help
            self.repeating = repeating
            self.optional = optional
            self.completion = completion
        }

        /// `<file>`, `<path> ...`, `[<url>]`.
        var synopsis: String {
            let word = "<\(name)>" + (repeating ? " ..." : "")
            return optional ? "[\(word)]" : word
        }
    }

    /// The command's full name, as usage shows it: `navstack`, `navstack import`.
    public var name: String
    public var abstract: String
    public var discussion: String
    public var options: [Option]
    public var arguments: [Argument]
    /// Names and abstracts of subcommands, for help.
    public var subcommands: [(name: String, abstract: String)]
    /// Whether a word with one dash that names no option is an argument (`modify 42
    /// -home`: a tag taken away), as Taskwarrior's words are; a word with two dashes is
    /// still an option, known or not.
    public var takesDashWords = false

    public init(
        name: String, abstract: String, discussion: String = "", options: [Option], arguments: [Argument] = [],
        subcommands: [(name: String, abstract: String)] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
        self.subcommands = subcommands
    }

    /// What a command line asked for.
    public enum Request: Equatable, Sendable {
        case run(ParsedArguments)
        case help
        case version
    }

    /// Reads arguments (without the command's own name): `--long value`, `--long=value`,
    /// `-s value`, flags, positionals, and `--` before positionals that start with `-`.
    /// `-h`/`--help` and `--version` win over everything else. As in argument-parser, a
    /// value option does not take a following option as its value (`--store --memory` is
    /// a missing value): a value that starts with `-` is given attached, `--store=-x`.
    public func parse(_ words: some Collection<String>) throws(UsageError) -> Request {
        for word in words {
            if word == "--" { break }
            if word == "-h" || word == "--help" { return .help }
            if word == "--version" { return .version }
        }
        var parsed = ParsedArguments()
        var words = Array(words)[...]
        var positionals: [String] = []
        while let word = words.popFirst() {
            if word == "--" {
                positionals += words
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                positionals.append(word)
                continue
            }
            let (name, attached) = Self.split(word)
            if takesDashWords, !word.hasPrefix("--"), find(name) == nil {
                positionals.append(word)
                continue
            }
            guard let option = find(name) else { throw .unknownOption(word, suggestion: suggestion(for: name)) }
            if option.valueName == nil {
                if attached != nil { throw .flagWithValue(option.synopsis) }
                parsed.flags.insert(option.key)
                continue
            }
            if attached == nil, let next = words.first, Self.isOption(next) { throw .missingValue(option.synopsis) }
            guard let value = attached ?? words.popFirst() else { throw .missingValue(option.synopsis) }
            if option.repeatable {
                parsed.values[option.key, default: []].append(value)
            } else {
                parsed.values[option.key] = [value]
            }
        }
        parsed.arguments = try matchArguments(positionals)
        return .run(parsed)
    }

    /// Whether a word is an option (or `--`) rather than a value: it starts with `-` and
    /// is not `-` alone.
    static func isOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-"
    }

    /// The long option closest to a mistyped `--name`, if one is close enough to suggest;
    /// short options are never suggested.
    private func suggestion(for name: String) -> String? {
        guard name.hasPrefix("--") else { return nil }
        let typed = Array(name.dropFirst(2))
        guard typed.count <= 32 else { return nil }
        let allowed = typed.count <= 3 ? 1 : 2
        let best = options.filter { !$0.long.isEmpty }
            .map { (option: $0, distance: editDistance(typed, Array($0.long))) }
            .min { $0.distance < $1.distance }
        guard let best, best.distance <= allowed else { return nil }
        return best.option.name
    }

    /// Where the subcommand is in a command line whose options come first
    /// (`--store s.sqlite import tasks.json` → 2): the first word that is neither an option
    /// nor an option's value, if it names one of `subcommands`. Which options take a value
    /// is read from every spec given, so the words before it are skipped as the parser
    /// would read them; whether they suit the subcommand is for its own parse to say.
    public static func subcommandIndex(in words: [String], among subcommands: [CommandSpec], root: CommandSpec) -> Int? {
        let options = ([root] + subcommands).flatMap(\.options)
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" { return nil }
            guard isOption(word) else {
                let last = subcommands.contains { $0.name.split(separator: " ").last.map(String.init) == word }
                return last ? index : nil
            }
            let (name, attached) = split(word)
            if attached == nil, let option = options.first(where: { $0.names.contains(name) }), option.valueName != nil,
                index + 1 < words.count, !isOption(words[index + 1])
            {
                index += 1
            }
            index += 1
        }
        return nil
    }

    /// `--long=value` as ("--long", "value"); anything else as it is.
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    private func find(_ name: String) -> Option? {
        if name.hasPrefix("--") {
            let long = name.dropFirst(2)
            return options.first { !$0.long.isEmpty && $0.long == long }
        }
        guard name.count == 2, let letter = name.last else { return nil }
        return options.first { $0.short == letter }
    }

    private func matchArguments(_ positionals: [String]) throws(UsageError) -> [String] {
        var remaining = positionals[...]
        for argument in arguments {
            if remaining.isEmpty {
                if argument.optional { break }
                throw .missingArgument("<\(argument.name)>")
            }
            if argument.repeating { return positionals }
            remaining.removeFirst()
        }
        if let extra = remaining.first { throw .unexpectedArgument(extra) }
        return positionals
    }

    // MARK: - Help

    /// `navstack import [--memory] [--store <path>] … <file>`.
    public var usage: String {
        var parts = [name]
        for option in options {
            let synopsis = option.synopsis + (option.repeatable ? " ..." : "")
            parts.append("[\(synopsis)]")
        }
        for argument in arguments { parts.append(argument.synopsis) }
        if !subcommands.isEmpty { parts.append("[<subcommand>]") }
        return parts.joined(separator: " ")
    }

    /// The whole help text, wrapped to 80 columns, in English.
    public var help: String { help(headings: .english) }

    /// The help text with its headings and fixed entries in a catalog's language.
    func help(headings t: Catalog) -> String {
        var text = (t(.helpOverview) + " " + abstract).wrapped(toWidth: 80).joined(separator: "\n") + "\n"
        if !discussion.isEmpty {
            text +=
                "\n"
                + discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(" ") ? String($0) : $0.wrapped(toWidth: 80).joined(separator: "\n") }  // indented: as it is
                .joined(separator: "\n") + "\n"
        }
        text += "\n" + t(.helpUsage) + " \(usage)\n"
        if !arguments.isEmpty {
            text += "\n" + t(.helpArguments) + "\n"
            for argument in arguments { text += Self.entry("<\(argument.name)>", argument.help) }
        }
        text += "\n" + t(.helpOptions) + "\n"
        for option in options {
            let names = option.short.map { "-\($0)" + (option.long.isEmpty ? "" : ", --\(option.long)") } ?? "--\(option.long)"
            text += Self.entry(names + (option.valueName.map { " <\($0)>" } ?? ""), option.help)
        }
        text += Self.entry("--version", t(.helpVersionEntry))
        text += Self.entry("-h, --help", t(.helpHelpEntry))
        if !subcommands.isEmpty {
            text += "\n" + t(.helpSubcommands) + "\n"
            for subcommand in subcommands { text += Self.entry(subcommand.name, subcommand.abstract) }
            text += "\n  " + t(.helpSeeSubcommand, ("command", name)) + "\n"
        }
        return text
    }

    /// The lines of a usage error: the reason, the usage, where help is.
    /// The message of a usage error, with usage. What the user typed is shown escaped:
    /// an option or value holding escape sequences cannot drive the terminal.
    public func errorText(_ error: UsageError, in t: Catalog = .english) -> String {
        t(.usageErrorLine, ("message", error.message(in: t).escapedForDisplay)) + "\n"
            + t(.usageUsageLine, ("usage", usage)) + "\n  " + t(.usageSeeHelp, ("command", name)) + "\n"
    }

    /// One help entry: the names in a 24-column margin, the text wrapped beside them.
    private static func entry(_ names: String, _ help: String) -> String {
        let margin = String(repeating: " ", count: 26)
        var lines = help.wrapped(toWidth: 80 - 26)
        var text = "  " + names
        if names.count + 2 <= 25 {
            text += String(repeating: " ", count: 26 - names.count - 2) + lines.removeFirst()
        }
        text += "\n"
        for line in lines { text += margin + line + "\n" }
        return text
    }
}

/// The options and arguments a command line gave.
public struct ParsedArguments: Equatable, Sendable {
    /// The flags given, by long name.
    public var flags: Set<String> = []
    /// Each value option's values, in order (one for an option that is not repeatable:
    /// the last given).
    public var values: [String: [String]] = [:]
    public var arguments: [String] = []

    public init() {}

    public func flag(_ long: String) -> Bool {
        flags.contains(long)
    }

    public func value(_ long: String) -> String? {
        values[long]?.last
    }

    /// A whole number in `range`; `nil` when the option was not given.
    public func integer(_ long: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let number = Int(text) else {
            throw .invalidValue(option: "--\(long)", value: text, problem: .notAWholeNumber)
        }
        guard range.contains(number) else {
            throw .invalidValue(option: "--\(long)", value: text, problem: .outOfRange(range))
        }
        return number
    }

    /// One of a fixed set of words; `nil` when the option was not given.
    public func choice<T: RawRepresentable & CaseIterable>(_ long: String, as type: T.Type) throws(UsageError) -> T?
    where T.RawValue == String {
        guard let text = value(long) else { return nil }
        guard let value = T(rawValue: text) else {
            throw .invalidValue(option: "--\(long)", value: text, problem: .notOneOf(T.allCases.map(\.rawValue)))
        }
        return value
    }
}

/// A command line that cannot be run; the program exits 64.
public enum UsageError: CatalogError, Equatable, Sendable {
    case unknownOption(String, suggestion: String? = nil)
    case missingValue(String)
    /// Two options that cannot be given together, as usage names them.
    case conflictingOptions(String, String)
    case flagWithValue(String)
    case invalidValue(option: String, value: String, problem: ValueProblem)
    case missingArgument(String)
    case unexpectedArgument(String)
    /// `import` or `export` with `--memory`: the store would be thrown away.
    case memoryRefused(command: String)
    /// No store named and no folder to put the default one in.
    case noStoreLocation
    /// `navstack help WORDS` that name no subcommand.
    case noSuchHelpTopic(String, topics: [String])

    /// What is wrong with an option's value.
    public enum ValueProblem: Equatable, Sendable {
        case notAWholeNumber
        case outOfRange(ClosedRange<Int>)
        case notOneOf([String])
        /// A deep link that does not parse, with its reason.
        case badLink(NavError)
        /// `NAVSTACK_NOW` that is not an ISO 8601 instant.
        case notAnInstant
    }

    /// The message in English.
    public var message: String { message(in: .english) }

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .unknownOption(let word, nil): t(.usageUnknownOption, ("option", word))
        case .unknownOption(let word, let suggestion?):
            t(.usageUnknownOptionSuggestion, ("option", word), ("suggestion", suggestion))
        case .conflictingOptions(let first, let second): t(.usageConflictingOptions, ("first", first), ("second", second))
        case .missingValue(let option): t(.usageMissingValue, ("option", option))
        case .flagWithValue(let option): t(.usageFlagWithValue, ("option", option))
        case .invalidValue(let option, let value, let problem):
            t(.usageInvalidValue, ("value", value), ("option", option), ("reason", problem.message(in: t)))
        case .missingArgument(let name): t(.usageMissingArgument, ("argument", name))
        case .unexpectedArgument(let word): t(.usageUnexpectedArgument, ("argument", word))
        case .memoryRefused(let command): t(.usageMemoryRefused, ("command", command))
        case .noStoreLocation: t(.usageNoStoreLocation)
        case .noSuchHelpTopic(let got, let topics):
            t(.usageNoSuchHelpTopic, ("topics", topics.joined(separator: ", ")), ("got", got))
        }
    }

    /// Choices as a message lists them: `a`, `a or b`, `a, b or c` (in the catalog's
    /// language).
    public static func list(_ words: [String], in t: Catalog = .english) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " " + t(.usageOr) + " " + last
    }
}

extension UsageError.ValueProblem {
    /// What is wrong, in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .notAWholeNumber: t(.usageNotAWholeNumber)
        case .outOfRange(let range): t(.usageOutOfRange, ("low", range.lowerBound), ("high", range.upperBound))
        case .notOneOf(let choices): t(.usageNotOneOf, ("choices", UsageError.list(choices, in: t)))
        case .badLink(let error): error.message(in: t)
        case .notAnInstant: t(.usageNotAnInstant)
        }
    }
}
