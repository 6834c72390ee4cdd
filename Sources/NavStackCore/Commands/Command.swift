import NavStackBytes

/// One parsed input line: what the user asked for, before the router checks that it
/// is possible here.
public enum Command: Equatable, Hashable, Sendable {
    case help(CommandWord?)
    case `where`
    case go(DeepLink)
    case back(Int, discarding: Bool)
    /// `back to ID`, `back to list`: pop until that task's detail screen is on top.
    case backTo(BackTarget, discarding: Bool)
    case root
    case tab(Tab)
    case undo, redo
    case quit
    case login(String)
    case logout
    case open(row: Int)
    case add(title: String?)
    case new
    case toggle(row: Int?)
    /// `done N` (a row) or `done` on a detail: mark the task done.
    case complete(row: Int?)
    /// `modify [N] WORDS…`: change the task in one step with `add`'s words (``ModifyLine``).
    case modify(row: Int?, words: String)
    case delete(row: Int?)
    /// Make row N a subtask of a task, or a task at the top of the list.
    case move(row: Int, to: MoveTarget)
    /// A status and the terms beyond it (`filter tag:home`: open tasks tagged home).
    case filter(ListFilter, ListTerms)
    case find(String?)
    /// `sort KEY` (`-KEY` reversed), `nil` for `sort none`: the list's own order.
    case sort(ListSort?)
    case next, prev
    case page(Int)
    /// The agenda's screen of a day: the DATE as typed (resolved against the clock and
    /// the language when applied).
    case day(String)
    case edit
    case title(String)
    case notes(String)
    case done(Bool)
    /// `due`, `scheduled`, `wait`, `until`: the DATE as typed (resolved against the clock
    /// and the language when applied), `nil` for `none`.
    case date(TaskField, String?)
    case recur(String?)
    case priority(Priority?)
    case project(String?)
    case tag(TagChange)
    /// Adds an annotation to the task shown, at once.
    case annotate(String)
    /// `save`, or `save!`: keeping mine where another writer changed the same fields.
    case save(keepingMine: Bool)
    /// Take the stored values of the fields both changed into the draft.
    case theirs
    case cancel
    case settings, about
    /// Answers to a question.
    case yes, no

    /// Whether the command changes nothing but the fields of the draft shown: its screen
    /// is made from the one read of what it acts on.
    var changesOnlyADraftsFields: Bool {
        switch self {
        case .complete, .modify: false
        default: word.changesOnlyADraftsFields
        }
    }

    /// The word the command was typed with.
    public var word: CommandWord {
        switch self {
        case .help: .help
        case .where: .where
        case .go: .go
        case .back(_, let discarding), .backTo(_, let discarding): discarding ? .backDiscarding : .back
        case .root: .root
        case .tab: .tab
        case .undo: .undo
        case .redo: .redo
        case .quit: .quit
        case .login: .login
        case .logout: .logout
        case .open: .open
        case .add: .add
        case .new: .new
        case .toggle: .toggle
        case .complete: .done
        case .modify: .modify
        case .delete: .delete
        case .move: .move
        case .filter: .filter
        case .find: .find
        case .sort: .sort
        case .next: .next
        case .prev: .prev
        case .page: .page
        case .day: .day
        case .edit: .edit
        case .title: .title
        case .notes: .notes
        case .done: .done
        case .date(let field, _):
            switch field {
            case .scheduled: .scheduled
            case .wait: .wait
            case .until: .until
            default: .due
            }
        case .recur: .recur
        case .priority: .priority
        case .project: .project
        case .tag: .tag
        case .annotate: .annotate
        case .save(let keepingMine): keepingMine ? .saveKeepingMine : .save
        case .theirs: .theirs
        case .cancel: .cancel
        case .settings: .settings
        case .about: .about
        case .yes: .yes
        case .no: .no
        }
    }
}

/// Where `back to` pops to.
public enum BackTarget: Equatable, Hashable, Sendable {
    case list
    case task(Int)
}

/// Where `move` puts a task.
public enum MoveTarget: Equatable, Hashable, Sendable {
    case top
    case task(Int)
}

/// Limits on what a line may carry; past them the line is refused with a clear error.
/// What a task's values may hold is ``FieldRules``'s.
public enum Limits {
    /// The longest line navstack reads, in bytes.
    public static let lineBytes = 4096
    /// The longest profile name, in characters.
    public static let nameCharacters = 64
}

extension Command {
    /// Splits a line into its command word and the rest.
    ///
    /// Returns `nil` for a blank line or a comment (first non-blank character `#`).
    public static func split(_ line: String) throws(NavError) -> (word: CommandWord, argument: String)? {
        // Nearly every line is ASCII: then its bytes tell where the word and the argument
        // are.
        switch line.withContiguousUTF8IfAvailable(ASCIIParts.init) {
        case .blank?:
            return nil
        case .parts(let word, let argument)?:
            if let known = word { return (known, argument) }
        case .other?, nil:
            break
        }
        return try splitByCharacters(line)
    }

    /// ``split(_:)`` by characters, the plain way for any line: the ASCII paths (in
    /// `split` and ``split(printableASCII:)``) give what it gives.
    static func splitByCharacters(_ line: String) throws(NavError) -> (word: CommandWord, argument: String)? {
        let text = line.trimmed
        guard let first = text.utf8.first, first != UInt8(ascii: "#") else { return nil }
        let end = Self.firstWhitespace(in: text)
        let typed = String(text[..<end])
        guard let word = CommandWord(word: typed) else {
            throw .unknownCommand(typed.escapedForDisplay, suggestion: CommandWord.suggestion(for: typed))
        }
        return (word, end == text.endIndex ? "" : text[end...].trimmed)
    }

    /// A line of printable ASCII split from its bytes, with nothing decoded first.
    enum PlainLine {
        /// Blank, or a comment.
        case blank
        case command(CommandWord, argument: String)
    }

    /// ``split(_:)`` of a line of printable ASCII, from its bytes: `nil` when the line
    /// needs `split` itself (an unknown word, whose error `split` makes).
    static func split(printableASCII bytes: ByteView) -> PlainLine? {
        switch ASCIIParts(bytes) {
        case .blank: .blank
        case .parts(let word?, let argument): .command(word, argument: argument)
        case .parts(nil, _), .other: nil
        }
    }

    /// An ASCII line's parts: blank (or a comment), or its word (`nil` when unknown) and
    /// its argument, both trimmed. `other` is a line with other characters, whose
    /// whitespace only characters can tell.
    private enum ASCIIParts {
        case blank
        case parts(word: CommandWord?, argument: String)
        case other

        init(_ bytes: ByteView) {
            var start = 0
            var end = bytes.count
            while start < end, bytes[start].isASCIIWhitespace { start += 1 }
            while end > start, bytes[end - 1].isASCIIWhitespace { end -= 1 }
            guard start < end, bytes[start] != UInt8(ascii: "#") else {
                self = .blank
                return
            }
            guard !bytes[start..<end].contains(where: { $0 >= 0x80 }) else {
                self = .other
                return
            }
            var wordEnd = start
            while wordEnd < end, !bytes[wordEnd].isASCIIWhitespace { wordEnd += 1 }
            var argumentStart = wordEnd
            while argumentStart < end, bytes[argumentStart].isASCIIWhitespace { argumentStart += 1 }
            self = .parts(
                word: CommandWord.lookUp(ascii: bytes.view(start..<wordEnd)),
                argument: bytes.string(argumentStart..<end))
        }
    }

    /// Where the first whitespace character is, else the end: on the bytes while they are
    /// ASCII, by characters after that.
    private static func firstWhitespace(in text: String) -> String.Index {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0x09...0x0D, 0x20: return index
            case 0x80...: return text[index...].firstIndex(where: \.isWhitespace) ?? text.endIndex
            default: index = bytes.index(after: index)
            }
        }
        return text.endIndex
    }

    /// Parses a line into a command; `nil` for a blank line or a comment.
    public static func parse(_ line: String) throws(NavError) -> Command? {
        guard let (word, argument) = try split(line) else { return nil }
        return try Command(word: word, argument: argument)
    }

    /// Builds the command for a word and the rest of its line.
    public init(word: CommandWord, argument: String) throws(NavError) {
        let arg = argument.isEmpty ? nil : argument
        func none() throws(NavError) {
            if let arg { throw .unexpectedArgument(word, arg.escapedForDisplay) }
        }
        func required() throws(NavError) -> String {
            guard let arg else { throw .missingArgument(word) }
            return arg
        }
        switch word {
        case .help:
            guard let arg else { self = .help(nil); return }
            let topic = String(arg.prefix(while: { !$0.isWhitespace }))
            guard let known = CommandWord(word: topic) else {
                throw .unknownCommand(topic.escapedForDisplay, suggestion: CommandWord.suggestion(for: topic))
            }
            self = .help(known)
        case .where: try none(); self = .where
        case .go: self = .go(try DeepLink(parsing: try required()))
        case .back, .backDiscarding:
            let discarding = word == .backDiscarding
            if let arg, let target = try Self.after("to", in: arg, for: word) {
                switch target.lowercased() {
                case "list": self = .backTo(.list, discarding: discarding)
                default: self = .backTo(.task(try Self.number(target, for: word)), discarding: discarding)
                }
                return
            }
            self = .back(try arg.map { a throws(NavError) in try Self.number(a, for: word) } ?? 1, discarding: discarding)
        case .root: try none(); self = .root
        case .tab:
            let name = try required()
            guard let tab = Tab(rawValue: name.lowercased()) else { throw .badChoice(word, name.escapedForDisplay) }
            self = .tab(tab)
        case .undo: try none(); self = .undo
        case .redo: try none(); self = .redo
        case .quit, .exit: try none(); self = .quit
        case .login: self = .login(try Self.name(try required()))
        case .logout: try none(); self = .logout
        case .open: self = .open(row: try Self.number(try required(), for: word))
        case .add: self = .add(title: try arg.map { a throws(NavError) in try Self.text(a, as: .title) })
        case .new: try none(); self = .new
        case .toggle: self = .toggle(row: try arg.map { a throws(NavError) in try Self.number(a, for: word) })
        case .delete: self = .delete(row: try arg.map { a throws(NavError) in try Self.number(a, for: word) })
        case .move:
            let text = try required()
            let end = Self.firstWhitespace(in: text)
            guard end != text.endIndex, let target = try Self.after("to", in: text[end...].trimmed, for: word) else {
                throw .missingArgument(word)
            }
            let row = try Self.number(String(text[..<end]), for: word)
            self = .move(row: row, to: target.lowercased() == "top" ? .top : .task(try Self.number(target, for: word)))
        case .filter:
            let (filter, terms) = try Self.filter(try required())
            self = .filter(filter, terms)
        case .find: self = .find(arg)
        case .sort:
            let text = try required()
            guard text.lowercased() != "none" else { self = .sort(nil); return }
            guard let sort = ListSort(word: text) else { throw .badChoice(word, text.escapedForDisplay) }
            self = .sort(sort)
        case .next: try none(); self = .next
        case .prev: try none(); self = .prev
        case .page: self = .page(try Self.number(try required(), for: word))
        case .day: self = .day(try required())
        case .edit: try none(); self = .edit
        case .title: self = .title(try Self.text(try required(), as: .title))
        case .notes: self = .notes(try Self.text(Self.lineBreaks(in: arg ?? ""), as: .notes))
        case .done:
            guard let arg else { self = .complete(row: nil); return }
            switch arg.lowercased() {
            case "on", "yes", "true": self = .done(true)
            case "off", "no", "false": self = .done(false)
            default:
                guard arg.isASCIIDigits else {
                    throw .badChoice(word, arg.escapedForDisplay)
                }
                self = .complete(row: try Self.number(arg, for: word))
            }
        case .modify:
            let text = try required()
            let end = Self.firstWhitespace(in: text)
            let first = String(text[..<end])
            if first.isASCIIDigits {
                self = .modify(row: try Self.number(first, for: word), words: end == text.endIndex ? "" : text[end...].trimmed)
            } else {
                self = .modify(row: nil, words: text)
            }
        case .due, .scheduled, .wait, .until:
            let text = try required()
            let field: TaskField = word == .due ? .due : word == .scheduled ? .scheduled : word == .wait ? .wait : .until
            self = .date(field, text.lowercased() == "none" ? nil : text)
        case .recur:
            let text = try required()
            guard text.lowercased() != "none" else { self = .recur(nil); return }
            guard let rule = RecurRule.normalized(text) else { throw .badRule(text.escapedForDisplay) }
            self = .recur(rule)
        case .priority:
            let text = try required()
            guard text.lowercased() != "none" else { self = .priority(nil); return }
            guard let priority = Priority(letter: text) else { throw .badPriority(text.escapedForDisplay) }
            self = .priority(priority)
        case .project:
            let text = try required()
            guard text.lowercased() != "none" else { self = .project(nil); return }
            guard FieldRules.isProject(text) else { throw .badProject(text.escapedForDisplay) }
            self = .project(text)
        case .tag: self = .tag(try TagChange(parsing: try required()))
        case .annotate: self = .annotate(try Self.text(try required(), as: .annotation))
        case .save, .saveKeepingMine: try none(); self = .save(keepingMine: word == .saveKeepingMine)
        case .theirs: try none(); self = .theirs
        case .cancel: try none(); self = .cancel
        case .settings: try none(); self = .settings
        case .about: try none(); self = .about
        case .yes: try none(); self = .yes
        case .no: try none(); self = .no
        }
    }

    /// `filter TERM…`: a status (`open` when none is given) and the terms
    /// ``ListTerms/read(_:)`` reads.
    static func filter(_ text: String) throws(NavError) -> (ListFilter, ListTerms) {
        let (status, terms) = try ListTerms.read(text.split(whereSeparator: \.isWhitespace))
        return (status ?? .open, terms)
    }

    /// What follows a leading keyword (`to` in `back to 4`), trimmed; `nil` when the text
    /// does not start with it. The keyword alone misses what it names.
    private static func after(_ keyword: String, in text: String, for word: CommandWord) throws(NavError) -> String? {
        let end = firstWhitespace(in: text)
        guard text[..<end].lowercased() == keyword else { return nil }
        let rest = text[end...].trimmed
        guard !rest.isEmpty else { throw .missingArgument(word) }
        guard !rest.contains(where: \.isWhitespace) else { throw .unexpectedArgument(word, rest.escapedForDisplay) }
        return rest
    }

    /// A count or row number: one whole number from 1.
    static func number(_ text: String, for word: CommandWord) throws(NavError) -> Int {
        // The usual case, plain digits without a leading zero, read from the bytes.
        if let value = text.withContiguousUTF8IfAvailable(Self.plainNumber), let value { return value }
        guard !text.contains(where: \.isWhitespace) else {
            throw .unexpectedArgument(word, text.escapedForDisplay)
        }
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .notANumber(word, text.escapedForDisplay)
        }
        let significant = digits.drop(while: { $0 == "0" })
        if negative || significant.isEmpty { throw .numberBelowOne(word, text) }
        guard significant.count <= 18, let value = Int(significant) else {
            throw .numberTooLarge(word, text)
        }
        return value
    }

    /// The value of 1 to 18 ASCII digits that do not start with 0; `nil` for anything
    /// else.
    private static func plainNumber(_ bytes: ByteView) -> Int? {
        guard (1...18).contains(bytes.count), bytes[0] != UInt8(ascii: "0") else { return nil }
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// A title, notes or an annotation as ``FieldRules`` holds them (a blank one is the
    /// command's to refuse: `add` alone opens a draft).
    static func text(_ text: String, as field: TextField) throws(NavError) -> String {
        switch FieldRules.problem(text, as: field) {
        case nil, .blank?: return text
        case .tooLong(let field, let count, let limit)?: throw .textTooLong(field, count: count, limit: limit)
        case let problem?: throw .badValue(problem)
        }
    }

    /// Notes typed on one line: `\n` is a line break and `\\` a backslash; any other
    /// backslash stays as typed (`C:\Users`).
    static func lineBreaks(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var escaped = false
        for byte in text.utf8 {
            if escaped {
                escaped = false
                switch byte {
                case UInt8(ascii: "n"): bytes.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "\\"): bytes.append(byte)
                default: bytes += [UInt8(ascii: "\\"), byte]
                }
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                bytes.append(byte)
            }
        }
        if escaped { bytes.append(UInt8(ascii: "\\")) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A profile name given outside a line (`navstack import --user NAME`), held to the
    /// rules of `login NAME` with the same errors: not blank, short, plain text.
    public static func loginName(_ text: String) throws(NavError) -> String {
        guard case .login(let name)? = try parse("login " + text) else { throw .missingArgument(.login) }
        _ = try Interpreter.decode(Array(name.utf8))
        return name
    }

    /// A profile name: not blank, short, no control characters.
    static func name(_ text: String) throws(NavError) -> String {
        guard text.utf8.count > Limits.nameCharacters else { return text }
        let count = text.count
        guard count <= Limits.nameCharacters else {
            throw .textTooLong(.name, count: count, limit: Limits.nameCharacters)
        }
        return text
    }
}
