import NavStackTime

/// How urgent a task is: `H`, `M` or `L` (Taskwarrior's letters), or none.
public enum Priority: String, CaseIterable, Comparable, Hashable, Sendable {
    case high = "H"
    case medium = "M"
    case low = "L"

    /// High first.
    public static func < (lhs: Priority, rhs: Priority) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .high: 0
        case .medium: 1
        case .low: 2
        }
    }

    /// `H`, `M` or `L`, in either case.
    public init?(letter: String) {
        self.init(rawValue: letter.uppercased())
    }
}

/// A note added to a task at an instant (`annotate TEXT`, Taskwarrior's annotations).
public struct Annotation: Hashable, Sendable {
    public var entry: Instant
    public var text: String

    public init(entry: Instant, text: String) {
        self.entry = entry
        self.text = text
    }
}

extension Annotation {
    /// Annotations in the one order every replica holds them: by instant, and those of one
    /// instant as their JSON sorts, the order sync's sets settle in
    /// (``SyncRegister/settle(_:)``), so a task's annotations read alike everywhere.
    public static func canonical(_ list: [Annotation]) -> [Annotation] {
        guard list.count > 1, !zip(list, list.dropFirst()).allSatisfy({ $0.entry < $1.entry }) else { return list }
        return list.map { annotation in
            let json = FieldValue.annotations([annotation]).json
            return (key: String(json.dropFirst().dropLast()), annotation: annotation)
        }.sorted { $0.key < $1.key }.map(\.annotation)
    }
}

/// A field kept from an import that navstack has no field of its own for (a Taskwarrior
/// UDA, a todo.txt `key:value`), its text exactly as it came.
public struct CustomField: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The sets a task's words make: tags one of each without case, projects within projects.
/// What a tag or project may be is ``FieldRules``'s.
public enum TaskWords {
    /// Tags as a task keeps them: one of each regardless of case (the first typed wins),
    /// sorted without case, then by bytes.
    public static func tagSet(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        var kept: [String] = []
        for tag in tags where seen.insert(tag.lowercased()).inserted { kept.append(tag) }
        return kept.sorted(by: tagOrder)
    }

    /// The order of a tag set: without case, then by bytes.
    public static func tagOrder(_ a: String, _ b: String) -> Bool {
        let (la, lb) = (a.lowercased(), b.lowercased())
        return la != lb ? la.utf8.lexicographicallyPrecedes(lb.utf8) : a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Whether `tags` hold `tag`, without case.
    public static func tags(_ tags: some Sequence<some StringProtocol>, contain tag: String) -> Bool {
        let wanted = tag.lowercased()
        return tags.contains { $0.lowercased() == wanted }
    }

    /// Whether a project is `filter` or one of its sub-projects (`home` matches
    /// `home.garden`), without case.
    public static func project(_ project: String, isWithin filter: String) -> Bool {
        let (p, f) = (project.lowercased(), filter.lowercased())
        return p == f || p.hasPrefix(f + ".")
    }
}

/// The stamps a store keeps on every task: when it was made, last changed, and done.
public struct TaskStamps: Hashable, Sendable {
    // Seconds, `Int64.min` for none: a task carries them everywhere, at 24 bytes.
    private var createdSeconds = Int64.min
    private var modifiedSeconds = Int64.min
    private var completedSeconds = Int64.min

    public init(created: Instant? = nil, modified: Instant? = nil, completed: Instant? = nil) {
        self.created = created
        self.modified = modified
        self.completed = completed
    }

    public var created: Instant? {
        get { Self.instant(createdSeconds) }
        set { createdSeconds = newValue?.secondsSinceEpoch ?? .min }
    }
    public var modified: Instant? {
        get { Self.instant(modifiedSeconds) }
        set { modifiedSeconds = newValue?.secondsSinceEpoch ?? .min }
    }
    /// When `done` last became true; `nil` while it is open.
    public var completed: Instant? {
        get { Self.instant(completedSeconds) }
        set { completedSeconds = newValue?.secondsSinceEpoch ?? .min }
    }

    private static func instant(_ seconds: Int64) -> Instant? {
        seconds == .min ? nil : Instant(secondsSinceEpoch: seconds)
    }
}

/// What "now" is and the zone dates are typed and shown in: the real clock, or the one
/// `NAVSTACK_NOW` fixes for a whole process (so every screen comes out the same).
public struct TaskClock: Sendable {
    public var zone: Zone
    public var fixedNow: Instant?

    public init(zone: Zone = .utc, fixedNow: Instant? = nil) {
        self.zone = zone
        self.fixedNow = fixedNow
    }

    /// The instant now.
    public func now() -> Instant {
        fixedNow ?? Instant.current()
    }
}

extension TaskClock {
    /// The instant a DATE typed in `language` names now (``DateExpression``), or the one
    /// error that lists the forms a DATE takes.
    public func instant(typed text: String, language: Language) throws(NavError) -> Instant {
        guard let expression = try? DateExpression.parse(text, language: DateLanguage(rawValue: language.rawValue) ?? .en) else {
            throw .badDate(text.escapedForDisplay)
        }
        return expression.instant(now: now(), zone: zone)
    }
}

/// What a task holds beyond its title, notes and done, kept behind one reference: most
/// tasks have none of it (no reference at all), and a task is copied many times a
/// command (reads, the read cache, screens), where eleven fields inline would be copied
/// with it every time.
public struct TaskExtra: Hashable, Sendable {
    /// The fields themselves.
    public struct Values: Hashable, Sendable {
        public var due: Instant?
        public var scheduled: Instant?
        public var wait: Instant?
        public var until: Instant?
        public var priority: Priority?
        public var project: String?
        public var recur: String?
        public var tags: [String] = []
        public var annotations: [Annotation] = []
        public var depends: [String] = []
        public var custom: [CustomField] = []

        public init(
            due: Instant? = nil, scheduled: Instant? = nil, wait: Instant? = nil, until: Instant? = nil,
            priority: Priority? = nil, project: String? = nil, recur: String? = nil, tags: [String] = [],
            annotations: [Annotation] = [], depends: [String] = [], custom: [CustomField] = []
        ) {
            self.due = due
            self.scheduled = scheduled
            self.wait = wait
            self.until = until
            self.priority = priority
            self.project = project
            self.recur = recur
            self.tags = tags
            self.annotations = annotations
            self.depends = depends
            self.custom = custom
        }
    }

    /// Immutable, so values share it freely.
    private final class Box: Sendable {
        let values: Values

        init(_ values: Values) {
            self.values = values
        }
    }

    /// `nil` when every field is unset.
    private var box: Box?

    public init() {}

    public init(_ values: Values) {
        self.values = values
    }

    /// Annotations are kept in their canonical order (``Annotation/canonical(_:)``).
    public var values: Values {
        get { box?.values ?? Values() }
        set {
            var values = newValue
            values.annotations = Annotation.canonical(values.annotations)
            box = values == Values() ? nil : Box(values)
        }
    }

    /// Whether no field is set.
    public var isEmpty: Bool { box == nil }

    // Each field read from the box, none made when there is none (screens ask for each).
    public var due: Instant? { box?.values.due }
    public var scheduled: Instant? { box?.values.scheduled }
    public var wait: Instant? { box?.values.wait }
    public var until: Instant? { box?.values.until }
    public var priority: Priority? { box?.values.priority }
    public var project: String? { box?.values.project }
    public var recur: String? { box?.values.recur }
    public var tags: [String] { box?.values.tags ?? [] }
    public var annotations: [Annotation] { box?.values.annotations ?? [] }
    public var depends: [String] { box?.values.depends ?? [] }
    public var custom: [CustomField] { box?.values.custom ?? [] }

    public static func == (lhs: TaskExtra, rhs: TaskExtra) -> Bool {
        lhs.box === rhs.box || (lhs.box != nil && rhs.box != nil && lhs.box!.values == rhs.box!.values)
    }

    public func hash(into hasher: inout Hasher) {
        if let box { hasher.combine(box.values) }
    }
}
