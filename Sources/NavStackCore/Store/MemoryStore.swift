/// A store that lives as long as the process: profiles in a dictionary, each with its
/// tasks in list order. Ids are unique in the store and never reused.
public final class MemoryStore: TaskStore {
    private var profiles: [String: [TaskItem]] = [:]
    private var lastID = 0

    public init() {}

    public func openProfile(_ user: String, sample: Bool) {
        guard profiles[user] == nil else { return }
        profiles[user] = sample ? TaskItem.samples.map { sample in
            lastID += 1
            return TaskItem(id: lastID, title: sample.title, notes: sample.notes, done: sample.done)
        } : []
    }

    public func count(_ user: String, _ query: ListQuery) -> Int {
        let tasks = profiles[user] ?? []
        if query == ListQuery() { return tasks.count }
        return tasks.reduce(0) { $0 + (query.admits($1) ? 1 : 0) }
    }

    public func page(_ user: String, _ query: ListQuery, offset: Int, limit: Int) -> [TaskItem] {
        var skipped = 0
        var rows: [TaskItem] = []
        for task in profiles[user] ?? [] where query.admits(task) {
            if skipped < offset {
                skipped += 1
                continue
            }
            rows.append(task)
            if rows.count == limit { break }
        }
        return rows
    }

    public func task(_ user: String, id: Int) -> TaskItem? {
        profiles[user]?.first { $0.id == id }
    }

    public func insertAtTop(_ user: String, _ fields: DraftFields) -> TaskItem {
        lastID += 1
        let task = TaskItem(id: lastID, title: fields.title, notes: fields.notes, done: fields.done)
        profiles[user, default: []].insert(task, at: 0)
        return task
    }

    public func update(_ user: String, _ task: TaskItem) -> Bool {
        guard let index = profiles[user]?.firstIndex(where: { $0.id == task.id }) else { return false }
        profiles[user]![index] = task
        return true
    }

    public func delete(_ user: String, id: Int) -> Bool {
        guard let index = profiles[user]?.firstIndex(where: { $0.id == id }) else { return false }
        profiles[user]!.remove(at: index)
        return true
    }

    public func counts(_ user: String) -> TaskCounts {
        let tasks = profiles[user] ?? []
        let done = tasks.reduce(0) { $0 + ($1.done ? 1 : 0) }
        return TaskCounts(open: tasks.count - done, done: done)
    }
}
