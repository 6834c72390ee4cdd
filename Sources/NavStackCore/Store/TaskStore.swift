/// What the list shows: a filter and an optional search text.
public struct ListQuery: Equatable, Hashable, Sendable {
    public var filter: ListFilter
    public var search: String?

    public init(filter: ListFilter = .all, search: String? = nil) {
        self.filter = filter
        self.search = search
    }

    /// Whether a task is on the list: it passes the filter and, with a search, its
    /// title or notes contain the text (ignoring case).
    public func admits(_ task: TaskItem) -> Bool {
        guard filter.admits(task) else { return false }
        guard let search else { return true }
        let needle = search.lowercased()
        return task.title.lowercased().contains(needle) || task.notes.lowercased().contains(needle)
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

/// Where tasks live. Every method names the profile it works on.
///
/// The list is read a page at a time: a store never has to load every task to show one
/// screen. Rows are in list order: newest additions at the top, imports at the bottom.
public protocol TaskStore: AnyObject {
    /// Creates the profile if it does not exist; `sample` gives a new profile the
    /// sample tasks.
    func openProfile(_ user: String, sample: Bool) throws
    /// How many tasks the query shows.
    func count(_ user: String, _ query: ListQuery) throws -> Int
    /// The tasks on rows `offset + 1 … offset + limit` of the query, in list order.
    func page(_ user: String, _ query: ListQuery, offset: Int, limit: Int) throws -> [TaskItem]
    /// One task, or `nil` when it does not exist (or belongs to someone else).
    func task(_ user: String, id: Int) throws -> TaskItem?
    /// Adds a task at the top of the list and returns it with its new id.
    func insertAtTop(_ user: String, _ fields: DraftFields) throws -> TaskItem
    /// Writes a task's title, notes and done; `false` when it no longer exists.
    func update(_ user: String, _ task: TaskItem) throws -> Bool
    /// Deletes a task; `false` when it no longer exists.
    func delete(_ user: String, id: Int) throws -> Bool
    /// How many of the profile's tasks are open and done.
    func counts(_ user: String) throws -> TaskCounts
}
