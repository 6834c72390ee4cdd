import NavStackTime

/// What a list's filter asks of a task's due date.
public enum DueTerm: String, CaseIterable, Equatable, Hashable, Sendable {
    /// Due before now.
    case overdue
    /// Due today (in the local zone).
    case today
    /// Due by the end of this week (overdue ones too).
    case week
    /// With a due date.
    case any
    /// Without one.
    case none
}

/// The terms of a list's filter beyond its status: tags it must have (`+NAME`,
/// `tag:NAME`) and tags it must not (`-NAME`), `project:NAME`, `priority:H|M|L`,
/// `due:overdue|today|week|any|none|DATE`, `due.before:DATE`, `due.after:DATE`.
///
/// Tags are kept one of each without case, sorted, so the same terms typed in any order
/// are the same list with the same link. A DATE is kept as typed (`today`, `+3d`): the day
/// it names moves with the clock, so a list restored tomorrow means tomorrow's.
public struct ListTerms: Equatable, Hashable, Sendable {
    /// Tags a task must all have.
    public private(set) var tags: [String] = []
    /// Tags a task must have none of.
    public private(set) var withoutTags: [String] = []
    /// Matches the project and its sub-projects.
    public var project: String?
    public var priority: Priority?
    public var due: DueTerm?
    /// `due:DATE`: due within the day (local) the DATE falls on, as typed.
    public var dueOn: String?
    /// `due.before:DATE`: due strictly before that instant, as typed.
    public var dueBefore: String?
    /// `due.after:DATE`: due strictly after that instant, as typed.
    public var dueAfter: String?

    public init(
        tags: [String] = [], withoutTags: [String] = [], project: String? = nil, priority: Priority? = nil,
        due: DueTerm? = nil, dueOn: String? = nil, dueBefore: String? = nil, dueAfter: String? = nil
    ) {
        self.tags = Self.sorted(tags)
        self.withoutTags = Self.sorted(withoutTags)
        self.project = project
        self.priority = priority
        self.due = due
        self.dueOn = dueOn
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
    }

    public var isEmpty: Bool {
        tags.isEmpty && withoutTags.isEmpty && project == nil && priority == nil && !asksDue
    }

    /// Whether a term asks about the due date.
    public var asksDue: Bool { due != nil || dueOn != nil || dueBefore != nil || dueAfter != nil }

    /// The word `due:` gives: the term's, or the DATE as typed.
    public var dueWord: String? { due?.rawValue ?? dueOn }

    /// Tags in their list order: without case, then as typed.
    private static func sorted(_ tags: [String]) -> [String] {
        tags.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }

    /// Whether a tag is among these terms' tags, with or without, ignoring case.
    private func names(_ tag: String) -> Bool {
        TaskWords.tags(tags, contain: tag) || TaskWords.tags(withoutTags, contain: tag)
    }
}

extension ListTerms {
    /// Reads a filter's words: a status (`open`, `done`, `waiting`, `all`, or
    /// Taskwarrior's `status:pending|completed|waiting`) and the terms. Every door reads
    /// them here: the prompt's `filter`, a list's link and completion.
    ///
    /// A word that is neither a term nor has `:`, `+` or `-` is a status mistyped; a bad
    /// term, or one given twice that cannot be (a status, `project:`, `priority:`, `due:`,
    /// `due.before:`, `due.after:`, the same tag), fails with the error that lists them.
    /// `nil` status: none given.
    public static func read(_ words: some Sequence<some StringProtocol>) throws(NavError) -> (ListFilter?, ListTerms) {
        var status: ListFilter?
        var terms = ListTerms()
        for word in words {
            let bad = NavError.badFilterTerm(String(word).escapedForDisplay)
            if let named = ListFilter(word: word.lowercased()) {
                guard status == nil else { throw bad }
                status = named
                continue
            }
            if let sign = word.first, sign == "+" || sign == "-" {
                let tag = String(word.dropFirst())
                guard FieldRules.isTag(tag), !terms.names(tag) else { throw bad }
                if sign == "+" { terms.tags = sorted(terms.tags + [tag]) } else { terms.withoutTags = sorted(terms.withoutTags + [tag]) }
                continue
            }
            guard let colon = word.firstIndex(of: ":") else { throw .badChoice(.filter, String(word).escapedForDisplay) }
            let value = String(word[word.index(after: colon)...])
            switch word[..<colon].lowercased() {
            case "status":
                guard status == nil, let named = ListFilter(status: value.lowercased()) else { throw bad }
                status = named
            case "tag":
                guard FieldRules.isTag(value), !terms.names(value) else { throw bad }
                terms.tags = sorted(terms.tags + [value])
            case "project", "pro":
                guard terms.project == nil, FieldRules.isProject(value) else { throw bad }
                terms.project = value
            case "priority", "pri":
                guard terms.priority == nil, let priority = Priority(letter: value) else { throw bad }
                terms.priority = priority
            case "due":
                guard terms.due == nil, terms.dueOn == nil else { throw bad }
                if let due = DueTerm(rawValue: value.lowercased()) {
                    terms.due = due
                } else {
                    guard isDate(value) else { throw bad }
                    terms.dueOn = value
                }
            case "due.before":
                guard terms.dueBefore == nil, isDate(value) else { throw bad }
                terms.dueBefore = value
            case "due.after":
                guard terms.dueAfter == nil, isDate(value) else { throw bad }
                terms.dueAfter = value
            default:
                throw bad
            }
        }
        return (status, terms)
    }

    /// The words that give these terms back through ``read(_:)``, in their order:
    /// `+TAG` … `-TAG` … `project:` `priority:` `due:` `due.before:` `due.after:`.
    public var words: [String] {
        var words = tags.map { "+" + $0 } + withoutTags.map { "-" + $0 }
        if let project { words.append("project:" + project) }
        if let priority { words.append("priority:" + priority.rawValue) }
        if let dueWord { words.append("due:" + dueWord) }
        if let dueBefore { words.append("due.before:" + dueBefore) }
        if let dueAfter { words.append("due.after:" + dueAfter) }
        return words
    }

    /// Whether `text` is a DATE in any language navstack speaks: a filter's link opens
    /// the same list whatever the language.
    public static func isDate(_ text: String) -> Bool { expression(text) != nil }

    /// The instant a DATE of a filter names at the clock's "now"; `nil` for text that is
    /// no DATE (``read(_:)`` never keeps one).
    public static func instant(_ text: String, at now: Instant, in zone: Zone) -> Instant? {
        expression(text)?.instant(now: now, zone: zone)
    }

    private static func expression(_ text: String) -> DateExpression? {
        for language in DateLanguage.allCases {
            if let expression = try? DateExpression.parse(text, language: language) { return expression }
        }
        return nil
    }

    /// Every word a filter starts with, for completion: the statuses, then each term's
    /// key (`due:` and its kin without a value).
    public static let starts =
        ListFilter.words + ["status:", "+", "-", "tag:", "project:", "priority:", "due:", "due.before:", "due.after:"]
}

extension ListFilter {
    /// A status as Taskwarrior's `status:` names it (`pending`: open tasks not waiting;
    /// `completed`: done ones), or as `filter` does.
    public init?(status: String) {
        switch status {
        case "pending": self = .open
        case "completed": self = .done
        default: self.init(word: status)
        }
    }

    /// The words `status:` takes.
    public static let statusWords = ["pending", "completed", "waiting", "open", "done", "all"]
}
