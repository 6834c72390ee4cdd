/// What the list shows: a filter and an optional search text.
public struct ListQuery: Equatable, Hashable, Sendable {
    public var filter: ListFilter
    public var search: String?

    public init(filter: ListFilter = .all, search: String? = nil) {
        self.filter = filter
        self.search = search
    }

    /// Whether the list shows the task.
    public func includes(_ task: TaskItem) -> Bool {
        switch filter {
        case .all: break
        case .open: guard !task.done else { return false }
        case .done: guard task.done else { return false }
        }
        guard let search else { return true }
        return Self.matches(title: task.title, notes: task.notes, search: search)
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

/// A change to a profile's tasks, as `undo` and `redo` name it.
public enum ChangeKind: String, CaseIterable, Equatable, Hashable, Sendable {
    case add, delete, toggle, save
    case `import`
}

/// Where tasks live, with the navigation state that shows them. Every task method names
/// the profile it works on.
///
/// The list is read a page at a time: a store never has to load every task to show one
/// screen. Rows are in list order: newest additions at the top, imports at the bottom.
/// Every change is recorded for `undo` and `redo`.
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
    /// How many of the profile's tasks are open and done.
    func counts(_ user: String) throws -> TaskCounts

    /// Adds a task at the top of the list and returns it with its new id.
    func insertAtTop(_ user: String, _ fields: DraftFields, as kind: ChangeKind) throws -> TaskItem
    /// Writes a task's title, notes and done; `false` when it no longer exists.
    func update(_ user: String, _ task: TaskItem, as kind: ChangeKind) throws -> Bool
    /// Deletes a task; `false` when it no longer exists.
    func delete(_ user: String, id: Int) throws -> Bool
    /// Reverts the profile's newest change not undone yet; `nil` when there is none.
    func undo(_ user: String) throws -> ChangeKind?
    /// Applies again the oldest undone change; `nil` when there is none.
    func redo(_ user: String) throws -> ChangeKind?

    /// The root phase the last run left: signed out (with the pending link), or signed in
    /// with the profile's navigation state.
    func loadPhase() throws -> Phase
    /// Keeps the root phase for the next run. Signing out forgets the profile's
    /// navigation state.
    func savePhase(_ phase: Phase) throws
}
