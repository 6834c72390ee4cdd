import NavStackTime

/// Which tasks a list is made of.
public enum ListScope: Equatable, Hashable, Sendable {
    /// The tasks at the top of the tree: the list.
    case top
    /// A task's own subtasks: its detail screen.
    case children(of: Int)
    /// Tasks at every level: the list searching.
    case everywhere
    /// The agenda: open tasks at every level with a `due` or a `scheduled` date, soonest
    /// first (by the earlier of the two).
    case agenda
    /// One day of the agenda, from its first instant to the next day's: tasks due or
    /// scheduled within it, in the agenda's order.
    case day(from: Instant, before: Instant)

    /// Whether the scope orders its tasks by their dates (the agenda's), rather than by
    /// their place in the tree.
    public var isDated: Bool {
        switch self {
        case .agenda, .day: true
        case .top, .children, .everywhere: false
        }
    }
}

/// What a list shows: its tasks, a filter and an optional search text.
///
/// Times are resolved when the query is made: "now" (what is waiting, what is overdue)
/// and the bounds of today and this week in the local zone, so a store compares instants.
public struct ListQuery: Equatable, Hashable, Sendable {
    public var filter: ListFilter
    public var terms: ListTerms
    public var search: String?
    /// The order `sort` gives the list; `nil`: the list's own.
    public var sort: ListSort?
    public var scope: ListScope
    /// The instant a task's `wait` must be after for it to be waiting.
    public var now: Instant
    /// The due dates the due terms admit together: from (inclusive) and before
    /// (exclusive), `nil` for no bound; ``DueTerm/any`` and ``DueTerm/none`` only ask
    /// whether there is one.
    public var dueFrom: Instant?
    public var dueBefore: Instant?

    /// A search, a term or `waiting` looks at every level; else the list is the top of
    /// the tree.
    public init(
        filter: ListFilter = .all, terms: ListTerms = ListTerms(), search: String? = nil, sort: ListSort? = nil,
        clock: TaskClock = TaskClock()
    ) {
        self.filter = filter
        self.terms = terms
        self.search = search
        self.sort = sort
        // A search, a term or the waiting tasks look at every level: a tag's tasks are
        // wherever they are in the tree.
        scope = search == nil && terms.isEmpty && filter != .waiting ? .top : .everywhere
        // Urgency counts the time: a list sorted by it reads the clock whatever it shows.
        let timeless = filter == .every && !terms.asksDue && sort?.key != .urgency
        let now = clock.fixedNow ?? (timeless ? Instant(secondsSinceEpoch: 0) : clock.now())
        self.now = now
        let zone = clock.zone
        switch terms.due {
        case .overdue?: dueBefore = now
        case .today?:
            dueFrom = zone.start(of: .day, containing: now)
            dueBefore = zone.end(of: .day, containing: now).adding(seconds: 1)
        case .week?: dueBefore = zone.end(of: .week, containing: now).adding(seconds: 1)
        case .any?, .none?, nil: break
        }
        // Taskwarrior's: `due:DATE` the day the DATE falls on, `due.before:` and
        // `due.after:` strictly before and after the DATE's instant.
        if let day = terms.dueOn.flatMap({ ListTerms.instant($0, at: now, in: zone) }) {
            narrowDue(from: zone.start(of: .day, containing: day), before: zone.end(of: .day, containing: day).adding(seconds: 1))
        }
        if let before = terms.dueBefore.flatMap({ ListTerms.instant($0, at: now, in: zone) }) {
            narrowDue(from: nil, before: before)
        }
        if let after = terms.dueAfter.flatMap({ ListTerms.instant($0, at: now, in: zone) }) {
            narrowDue(from: after.adding(seconds: 1), before: nil)
        }
    }

    /// Keeps only the due dates also within `from` (inclusive) and `before` (exclusive).
    private mutating func narrowDue(from: Instant?, before: Instant?) {
        if let from { dueFrom = max(dueFrom ?? from, from) }
        if let before { dueBefore = min(dueBefore ?? before, before) }
    }

    /// Whether the due dates are bounded: a span of them, not only whether there is one.
    public var boundsDue: Bool { dueFrom != nil || dueBefore != nil }

    /// Whether it is the same list, whatever time each was made at.
    public func isSameList(as other: ListQuery) -> Bool {
        filter == other.filter && terms == other.terms && search == other.search && sort == other.sort && scope == other.scope
    }

    /// Whether what the list shows depends on the time: a filter that hides waiting tasks
    /// (when some may be), or a due term.
    public var hidesWaiting: Bool { filter == .all || filter == .open }

    /// A task's subtasks.
    /// Every one, waiting ones too: the detail's counts count them all.
    public static func subtasks(of id: Int) -> ListQuery {
        var query = ListQuery(filter: .every)
        query.scope = .children(of: id)
        return query
    }

    /// The agenda at the clock's "now": open tasks with a date, but those waiting.
    public static func agenda(_ clock: TaskClock) -> ListQuery {
        var query = ListQuery(filter: .open, clock: clock)
        query.scope = .agenda
        return query
    }

    /// The tasks due or scheduled on `date` in the clock's zone, done ones too; a task
    /// still waiting when the day ends is not on it yet.
    public static func day(_ date: CivilDate, _ clock: TaskClock) -> ListQuery {
        var query = ListQuery(filter: .every, clock: clock)
        query.scope = .day(
            from: clock.zone.instant(CivilDateTime(midnightOf: date)),
            before: clock.zone.instant(CivilDateTime(midnightOf: date.adding(days: 1))))
        return query
    }

    /// Whether the list shows the task.
    public func includes(_ task: TaskItem) -> Bool {
        switch scope {
        case .top: guard task.parent == nil else { return false }
        case .children(let parent): guard task.parent == parent else { return false }
        case .everywhere: break
        case .agenda: guard task.due != nil || task.scheduled != nil else { return false }
        case .day(let from, let before):
            func within(_ date: Instant?) -> Bool { date.map { $0 >= from && $0 < before } ?? false }
            guard within(task.due) || within(task.scheduled) else { return false }
            if !task.done, let wait = task.wait, wait >= before { return false }
        }
        guard filter.admits(task, at: now), admitsTerms(task) else { return false }
        guard let search else { return true }
        return Self.matches(title: task.title, notes: task.notes, search: search)
            || task.annotations.contains { Self.matches(title: "", notes: $0.text, search: search) }
    }

    /// Whether a task passes the terms beyond the status.
    public func admitsTerms(_ task: TaskItem) -> Bool {
        for tag in terms.tags where !TaskWords.tags(task.tags, contain: tag) { return false }
        for tag in terms.withoutTags where TaskWords.tags(task.tags, contain: tag) { return false }
        if let project = terms.project, !(task.project.map { TaskWords.project($0, isWithin: project) } ?? false) { return false }
        if let priority = terms.priority, task.priority != priority { return false }
        if terms.due == DueTerm.none { return task.due == nil && !boundsDue }
        guard terms.asksDue else { return true }
        guard let due = task.due else { return false }
        return (dueFrom.map { due >= $0 } ?? true) && (dueBefore.map { due < $0 } ?? true)
    }

    /// Whether a task's title or notes contain the search text, ignoring case.
    public static func matches(title: String, notes: String, search: String) -> Bool {
        let needle = search.lowercased()
        return title.lowercased().contains(needle) || notes.lowercased().contains(needle)
    }
}

/// How many of a profile's tasks are open and done.
public struct TaskCounts: Equatable, Hashable, Sendable {
    public var open: Int
    public var done: Int

    public init(open: Int, done: Int) {
        self.open = open
        self.done = done
    }
}

/// What ``TaskStore/names(_:_:prefix:limit:)`` lists.
public enum NameKind: Equatable, Hashable, Sendable {
    case tag, project
}

/// A change to a profile's tasks, as `undo` and `redo` name it.
public enum ChangeKind: String, CaseIterable, Equatable, Hashable, Sendable {
    case add, delete, toggle, save
    case `import`
    case move
    /// Local values another replica's later change replaced, kept so `undo` brings them back.
    case sync
}

/// What an `undo` or a `redo` changed: the kind of change, the first task it touched (its
/// id and title), and how many tasks it touched in all.
public struct ChangeSummary: Equatable, Hashable, Sendable {
    public var kind: ChangeKind
    public var first: (id: Int, title: String)? {
        get { firstID.map { ($0, firstTitle) } }
        set {
            firstID = newValue?.id
            firstTitle = newValue?.title ?? ""
        }
    }
    public var count: Int
    private var firstID: Int?
    private var firstTitle = ""

    public init(kind: ChangeKind, first: (id: Int, title: String)?, count: Int) {
        self.kind = kind
        self.count = count
        self.first = first
    }
}

/// Where tasks live, with the navigation state that shows them. Every task method names
/// the profile it works on.
///
/// The list is read a page at a time: a store never has to load every task to show one
/// screen. Rows are in list order: newest additions at the top, imports at the bottom.
/// Every change is recorded for `undo` and `redo`, and as field-level operations in the
/// store's operation log, in the same transaction.
///
/// This protocol is the core's one door to the outside: the router and the session are
/// values, and everything they read or write beyond themselves goes through the store
/// they were given (SQLite in the executable, an in-memory SQLite database in tests).
public protocol TaskStore: AnyObject {
    /// Runs `body` as one transaction: all its reads and writes, or none of them, are
    /// kept. A call inside another joins it.
    func transaction(_ body: () throws -> Void) throws
    /// Runs `body`'s reads as one: they all see the store as it was at one moment, while
    /// other processes may write. `body` only reads. A call inside a transaction joins it.
    func snapshot<T>(_ body: () throws -> T) throws -> T

    /// Creates the profile if it does not exist; `sample` gives a new profile the
    /// sample tasks.
    func openProfile(_ user: String, sample: Bool) throws
    /// How many tasks the query shows.
    func count(_ user: String, _ query: ListQuery) throws -> Int
    /// The tasks on rows `offset + 1 … offset + limit` of the query, in list order.
    func page(_ user: String, _ query: ListQuery, offset: Int, limit: Int) throws -> [TaskItem]
    /// One task, or `nil` when it does not exist (or belongs to someone else).
    func task(_ user: String, id: Int) throws -> TaskItem?
    /// One task by its uuid (lowercase), or `nil`.
    func task(_ user: String, uuid: String) throws -> TaskItem?
    /// The tasks whose uuid starts with `prefix` (lowercase, in a uuid's shape), at most
    /// `limit`, in uuid order.
    func tasks(_ user: String, uuidPrefix prefix: String, limit: Int) throws -> [TaskItem]
    /// How many of the profile's tasks are open and done.
    func counts(_ user: String) throws -> TaskCounts
    /// Names of the profile's tags (or projects: each project and those above it) that
    /// some task holds and that start with `prefix`, ignoring the case of ASCII letters:
    /// at most `limit`, sorted, their ASCII letters in lower case (as a filter matches
    /// them). Read from an index, a bounded look however many tasks there are.
    func names(_ user: String, _ kind: NameKind, prefix: String, limit: Int) throws -> [String]

    /// Adds a task at the top of the list, or at the top of a task's subtasks, and
    /// returns it with its new id and uuid. Fails with ``NavError/tooDeep`` past
    /// ``TreeLimits/depth`` levels, and with ``NavError/taskVanished(_:)`` when the parent
    /// is gone.
    func insertAtTop(_ user: String, _ fields: DraftFields, under parent: Int?, as kind: ChangeKind) throws -> TaskItem
    /// A task and the tasks above it, from the top of the tree down to it; empty when it
    /// does not exist.
    func chain(_ user: String, id: Int) throws -> [TaskItem]
    /// How many tasks are below a task, at every level.
    func descendantCount(_ user: String, id: Int) throws -> Int
    /// Makes a task a subtask of another (`nil`: a task at the top of the list), at the
    /// top of its new place, with its subtasks. Fails with ``NavError/moveIntoItself(task:)``
    /// for a task moved under itself or a subtask of its own, with
    /// ``NavError/tooDeep`` past the depth limit; `nil` when the task no longer exists.
    func move(_ user: String, id: Int, under parent: Int?) throws -> TaskItem?
    /// Sets some fields of a task to `values`, leaving the others as they are stored;
    /// returns the task as written, `nil` when it no longer exists.
    func write(_ user: String, id: Int, _ fields: [TaskField], from values: DraftFields, as kind: ChangeKind) throws -> TaskItem?
    /// Flips whether a task is done, as it is stored when this runs; `nil` when the task
    /// no longer exists.
    func toggle(_ user: String, id: Int) throws -> TaskItem?
    /// Brings back a task deleted elsewhere, with its id, its uuid (a new one when `nil`)
    /// and its place, holding `fields`.
    func recreate(_ user: String, id: Int, uuid: String?, _ fields: DraftFields, as kind: ChangeKind) throws -> TaskItem
    /// Deletes a task with its subtasks, as one change; `false` when it no longer exists.
    func delete(_ user: String, id: Int) throws -> Bool
    /// Reverts the newest change not undone yet (this process's own first, else the
    /// profile's); `nil` when there is none. Fails with ``NavError/changedSince(_:task:fields:)``,
    /// changing nothing, when a field the change set has changed since.
    func undo(_ user: String) throws -> ChangeSummary?
    /// Applies again the change undone last (this process's own first); `nil` when there
    /// is none. Fails as `undo` does.
    func redo(_ user: String) throws -> ChangeSummary?

    /// The root phase the last run left: signed out (with the pending link), or signed in
    /// with the profile's navigation state.
    func loadPhase() throws -> Phase
    /// Keeps the root phase for the next run. Signing out forgets the profile's
    /// navigation state.
    func savePhase(_ phase: Phase) throws
}

extension TaskStore {
    /// Adds a task at the top of the list.
    public func insertAtTop(_ user: String, _ fields: DraftFields, as kind: ChangeKind) throws -> TaskItem {
        try insertAtTop(user, fields, under: nil, as: kind)
    }
}
