import NavStackCore
import NavStackSync
import NavStackTime

/// What a store in memory read since it last wrote, by what was asked.
///
/// The one owner of what is read again without asking SQLite: every write tells it what
/// it touched (``wrote(_:)``), and it alone decides what that drops or mends.
final class ReadCache {
    /// What a write touches.
    enum Write {
        /// Where a session is (the session, a profile's navigation state): nothing read
        /// here changes.
        case navigation
        /// Tasks, their counts, places or history: everything read is dropped.
        case tasks
        /// One task's fields, in place: the write tells what changed
        /// (``changed(_:to:stored:of:)``), which mends what was read.
        case oneTask
        /// The store changed in a way no write of this process told (a rollback, another
        /// process once the shared transaction ends): everything read is dropped.
        case elsewhere
    }

    /// Drops what a write of `write` makes wrong.
    func wrote(_ write: Write) {
        switch write {
        case .navigation, .oneTask: break
        case .tasks, .elsewhere: forgetAll()
        }
    }

    /// Mends what was read for a task whose fields changed in place from `before` to
    /// `after` (same id, same place), `stored` as the write left it. A subtask's change
    /// moves its parent's counts too, so then everything goes.
    func changed(_ before: TaskItem, to after: TaskItem, stored: StoredTask?, of user: String) {
        guard before.parent == nil else { return forgetAll() }
        replace(before, with: after, of: user)
        storedTasks[Task(user: user, id: after.id)] = stored
    }

    private func forgetAll() {
        madeCounts?.removeAll()
        madePages?.removeAll()
        madeTasks?.removeAll()
        madeChains?.removeAll()
        madeCounters?.removeAll()
        madeStoredTasks?.removeAll()
        nothingUndone.removeAll()
    }

    struct Query: Hashable {
        var user: String
        var query: ListQuery
        var offset: Int
        var limit: Int
    }

    struct Task: Hashable {
        var user: String
        var id: Int
    }

    /// Answers to one kind of question. The one asked for or given last is kept apart: a
    /// screen asks for the same task, page and count again and again, and a change of a
    /// task gives its answer again; it goes into the table only when another key comes.
    final class Answers<Key: Hashable, Value> {
        private var values: [Key: Value] = [:]
        private var last: (key: Key, value: Value)?
        /// Whether `values` holds `last` too.
        private var lastIsInValues = true

        subscript(key: Key) -> Value? {
            get {
                if let last, last.key == key { return last.value }
                guard let value = values[key] else { return nil }
                keepLast(key, value, inValues: true)
                return value
            }
            set {
                if let last, last.key == key {
                    guard let newValue else {
                        self.last = nil
                        lastIsInValues = true
                        values[key] = nil
                        return
                    }
                    self.last = (key, newValue)
                    lastIsInValues = false
                    return
                }
                guard let newValue else {
                    values[key] = nil
                    return
                }
                keepLast(key, newValue, inValues: false)
            }
        }

        /// Makes `key` the last, putting the one before into the table first.
        private func keepLast(_ key: Key, _ value: Value, inValues: Bool) {
            putLastInValues()
            last = (key, value)
            lastIsInValues = inValues
        }

        /// Puts the last answer into the table, when it is not there yet.
        private func putLastInValues() {
            if let last, !lastIsInValues {
                // A bounded table: a long walk over many tasks (completing a series, day
                // after day) starts it again rather than growing it.
                if values.count >= Self.limit { values.removeAll(keepingCapacity: true) }
                values[last.key] = last.value
            }
            lastIsInValues = true
        }

        /// The most answers kept besides the last.
        static var limit: Int { 256 }

        /// Changes every answer in place, or forgets it (`change` returns false).
        func update(_ change: (Key, inout Value) -> Bool) {
            putLastInValues()
            last = nil
            guard !values.isEmpty else { return }
            var forgotten: [Key] = []
            var index = values.startIndex
            while index != values.endIndex {
                let key = values.keys[index]
                if !change(key, &values.values[index]) { forgotten.append(key) }
                values.formIndex(after: &index)
            }
            for key in forgotten { values[key] = nil }
        }

        /// Changes the answer to `key` in place, when there is one.
        func update(_ key: Key, _ change: (inout Value) -> Void) {
            if var kept = last, kept.key == key {
                // Forgotten while it changes, so the value is not shared.
                last = nil
                change(&kept.value)
                last = kept
                lastIsInValues = false
                return
            }
            guard let index = values.index(forKey: key) else { return }
            change(&values.values[index])
        }

        func removeAll() {
            values.removeAll()
            last = nil
            lastIsInValues = true
        }

        /// Whether an answer's key is one `test` picks.
        func containsKey(where test: (Key) -> Bool) -> Bool {
            if let last, test(last.key) { return true }
            return values.keys.contains(where: test)
        }
    }

    // Each table is made when first asked: making one makes its generic types' metadata
    // (about 65,000 instructions each), which a command that asks no such question, or
    // a start-up, need not pay.
    var counts: Answers<Query, Int> { made(&madeCounts) }
    var pages: Answers<Query, [TaskItem]> { made(&madePages) }
    /// A task, or `nil` for one that does not exist.
    var tasks: Answers<Task, TaskItem?> { made(&madeTasks) }
    /// A task's chain, empty for one that does not exist.
    var chains: Answers<Task, [TaskItem]> { made(&madeChains) }
    var counters: Answers<String, TaskCounts> { made(&madeCounters) }
    /// Tasks with their place and revision, as the last change of each left them.
    var storedTasks: Answers<Task, StoredTask> { made(&madeStoredTasks) }
    private var madeCounts: Answers<Query, Int>?
    private var madePages: Answers<Query, [TaskItem]>?
    private var madeTasks: Answers<Task, TaskItem?>?
    private var madeChains: Answers<Task, [TaskItem]>?
    private var madeCounters: Answers<String, TaskCounts>?
    private var madeStoredTasks: Answers<Task, StoredTask>?

    private func made<Key, Value>(_ answers: inout Answers<Key, Value>?) -> Answers<Key, Value> {
        if let answers { return answers }
        let new = Answers<Key, Value>()
        answers = new
        return new
    }
    /// Profiles known to have nothing undone (nothing `redo` could bring back).
    var nothingUndone: Set<Int64> = []

    /// Mends what was read for a task changed in place (same id, same position): counts
    /// move by what the task left or joined; a page it stays on shows it changed; a page
    /// it left or joined is forgotten, as rows after it move.
    private func replace(_ old: TaskItem, with new: TaskItem, of user: String) {
        precondition(old.parent == nil && new.parent == nil, "a task changed in place at the top of the list")
        tasks[Task(user: user, id: new.id)] = .some(new)
        // Only what holds the task, or counts it, changes: at the top of the list, the
        // task is first in its own chain and in the chains of the tasks below it.
        if new.subtasks.total == 0 {
            chains.update(Task(user: user, id: new.id)) { chain in
                if chain.first?.id == new.id { chain[0] = new }
            }
        } else {
            chains.update { key, chain in
                if key.user == user, chain.first?.id == new.id { chain[0] = new }
                return true
            }
        }
        let moved = (new.done ? 1 : 0) - (old.done ? 1 : 0)
        if moved != 0 {
            counters.update { key, counts in
                if key == user { counts = TaskCounts(open: counts.open - moved, done: counts.done + moved) }
                return true
            }
        }
        // With `done` as it was, only a search can now count the task otherwise.
        // A search, a term, a date of the agenda's or a `wait` (the default list hides
        // what waits) can count it otherwise too.
        if moved != 0 || old.wait != new.wait
            || counts.containsKey(where: { $0.query.search != nil || !$0.query.terms.isEmpty || $0.query.scope.isDated })
        {
            counts.update { key, count in
                if key.user == user { count += (key.query.includes(new) ? 1 : 0) - (key.query.includes(old) ? 1 : 0) }
                return true
            }
        }
        pages.update { key, rows in
            guard key.user == user else { return true }
            // The agenda's rows are in the order of their dates: the task may move.
            if key.query.scope.isDated { return Self.mend(&rows, of: key, from: old, to: new) }
            guard key.query.includes(old) == key.query.includes(new) else { return false }
            if let index = rows.firstIndex(where: { $0.id == new.id }) { rows[index] = new }
            return true
        }
    }

    /// Mends what was read for a task added at the top of the list (the next instance of
    /// a series, which has no subtasks): it is there to be read as it was stored, counts
    /// and pages of the agenda take it in, and other pages that show it are forgotten.
    func added(_ task: StoredTask, of user: String) {
        let item = task.item
        guard item.parent == nil, item.subtasks.total == 0 else { return forgetAll() }
        let key = Task(user: user, id: item.id)
        tasks[key] = .some(item)
        chains[key] = nil
        storedTasks[key] = task
        counters.update { name, counts in
            if name == user { counts = TaskCounts(open: counts.open + (item.done ? 0 : 1), done: counts.done + (item.done ? 1 : 0)) }
            return true
        }
        counts.update { query, count in
            if query.user == user, query.query.includes(item) { count += 1 }
            return true
        }
        pages.update { query, rows in
            guard query.user == user, query.query.includes(item) else { return true }
            // A list's rows are in the order of places, which its rows do not hold.
            return query.query.scope.isDated && Self.mend(&rows, of: query, from: nil, to: item)
        }
    }

    /// Mends a page of the agenda or of a day, in the order of its dates (``agendaKey``),
    /// for a task that was `old` (nil: not there) and is `new` (nil: gone). Returns false
    /// when what the page now holds cannot be known without reading it: a row that
    /// left a full page lets in one from past it, and a row that came or went before a
    /// later page moves its rows along by one.
    static func mend(_ rows: inout [TaskItem], of key: Query, from old: TaskItem?, to new: TaskItem?) -> Bool {
        let full = rows.count == key.limit
        var left = false
        if let old {
            if let index = rows.firstIndex(where: { $0.id == old.id }) {
                rows.remove(at: index)
                left = true
            } else if key.offset > 0, key.query.includes(old), rows.first.map({ agendaKey(old) < agendaKey($0) }) ?? true {
                return false
            }
        }
        guard let new, key.query.includes(new) else { return !(left && full) }
        let place = agendaKey(new)
        if rows.last.map({ agendaKey($0) < place }) ?? true {
            // Past every row kept: on this page only when nothing past them was left out,
            // and, on a later page that held none, never known.
            if left && full || rows.isEmpty && key.offset > 0 { return false }
            if !full { rows.append(new) }
            return true
        }
        if key.offset > 0, let first = rows.first, place < agendaKey(first) { return false }
        rows.insert(new, at: rows.firstIndex { place < agendaKey($0) } ?? rows.endIndex)
        if rows.count > key.limit { rows.removeLast() }
        return true
    }

    /// A task's place on the agenda, as `agendaOrder` and then the uuid order it: the
    /// earlier of its due and scheduled dates, then its uuid's bytes.
    static func agendaKey(_ task: TaskItem) -> AgendaKey {
        let date =
            switch (task.due, task.scheduled) {
            case (let due?, let scheduled?): min(due, scheduled)
            case (let one?, nil), (nil, let one?): one
            case (nil, nil): nil as Instant?
            }
        return AgendaKey(seconds: date?.secondsSinceEpoch ?? .min, uuid: task.uuid)
    }

    struct AgendaKey: Comparable {
        var seconds: Int64
        var uuid: String

        /// Uuids in the order of their bytes, as SQLite orders text.
        static func < (a: AgendaKey, b: AgendaKey) -> Bool {
            a.seconds != b.seconds ? a.seconds < b.seconds : a.uuid.utf8.lexicographicallyPrecedes(b.uuid.utf8)
        }
    }
}
