import NavStackCore
import NavStackSync
import NavStackTime

extension SQLiteStore {
    static let columns = "id, uuid, title, notes, done, parent, subtasks, subtasks_done, \(attributeColumns)"

    /// The id of the profile named by the statement's argument, in SQL; SQLite looks it
    /// up once a statement.
    static let profileID = "(SELECT id FROM profile WHERE name = ?)"
    /// The same, named by the statement's first argument again (a subquery after others).
    static let profileOfFirstArgument = "(SELECT id FROM profile WHERE name = ?1)"

    /// The columns a ``StoredTask`` reads, in the order ``storedTask(_:)`` expects.
    static let storedColumns = "id, position, uuid, rev, title, notes, done, parent, subtasks, subtasks_done, \(attributeColumns)"

    /// ``storedColumns`` of the table named `table` in a join.
    static func storedColumns(of table: String) -> String {
        storedColumns.split(separator: ", ").map { table + "." + $0 }.joined(separator: ", ")
    }

    static func task(_ row: Row) -> TaskItem {
        let parent = row.int(5)
        var task = TaskItem(
            id: row.int(0), uuid: row.text(1), title: row.text(2), notes: row.text(3), done: row.bool(4),
            parent: parent == 0 ? nil : parent, subtasks: SubtaskCounts(done: row.int(7), total: row.int(6)))
        var fields = DraftFields()
        task.stamps = readAttributes(row, at: 8, into: &fields)
        task.setAttributes(from: fields)
        return task
    }

    public func openProfile(_ user: String, sample: Bool) throws {
        try writing { db in
            guard try db.first("SELECT 1 FROM profile WHERE name = ?", [user], { _ in true }) == nil else { return }
            try db.run("INSERT INTO profile (name) VALUES (?)", [user])
            if sample {
                // In the log (their creation is a change other stores must see), not in
                // the undo history.
                var log = ChangeLog(outsideHistory: ChangeKind.add.rawValue, of: db.lastInsertedRowID)
                for task in TaskItem.samples {
                    let added = try Self.append(
                        db, user, DraftFields(title: task.title, notes: task.notes, done: task.done),
                        uuid: uuids.make())
                    try Self.log(db, user, ChangePair(before: nil, after: added), &log)
                }
            }
        }
    }

    public func count(_ user: String, _ query: ListQuery) throws -> Int {
        try cached(cache.counts, ReadCache.Query(user: user, query: query, offset: 0, limit: 0)) { db in
            // The profile's counters answer a list without search or terms, while no task
            // is waiting (when waiting ones are hidden): a look at one index.
            let plain = query.search == nil && query.terms.isEmpty && query.filter != .waiting && !query.scope.isDated
            if try plain && (!query.hidesWaiting || !Self.anyWaiting(db, user, at: query.now)) {
                let counters: (total: Int, done: Int)
                switch query.scope {
                case .top: counters = try Self.counters(db, user, "roots, roots_done")
                case .everywhere, .agenda, .day: counters = try Self.counters(db, user)
                case .children(let id):
                    counters =
                        try db.first(
                            "SELECT subtasks, subtasks_done FROM task WHERE id = ? AND profile_id = \(Self.profileID)",
                            [id, user]
                        ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
                }
                switch query.filter {
                case .all, .every: return counters.total
                case .open: return counters.total - counters.done
                case .done, .waiting: return counters.done
                }
            }
            if let word = Self.listWord(query) {
                // Every task of the word, when none is hidden: its count, kept.
                if try Self.hidesNone(db, user, query) {
                    return try db.first("SELECT tasks FROM word_count WHERE profile = \(Self.profileID) AND word = ?", [user, word]) {
                        $0.int(0)
                    } ?? 0
                }
                let (sql, arguments) = Self.wordQuery(query, user, word: word, select: "COUNT(*)")
                return try db.first(sql, arguments) { $0.int(0) } ?? 0
            }
            if let day = Self.dayHalves(query, user, select: "COUNT(*)") {
                return try db.first("SELECT (\(day.due)) + (\(day.scheduled))", day.arguments) { $0.int(0) } ?? 0
            }
            if let span = Self.dueSpan(query) {
                // The tasks due in the span that the filter keeps: the index of `due` alone,
                // its range alone (no column of each entry read) when the filter hides none.
                let (clause, arguments) = try Self.hidesNone(db, user, query) ? ("", [user]) : Self.filterClause(query, user)
                return try db.first(
                    "SELECT COUNT(*) FROM task INDEXED BY task_by_due WHERE profile_id = \(Self.profileID)\(span.sql)\(clause)",
                    [user] + span.arguments + arguments.dropFirst()
                ) { $0.int(0) } ?? 0
            }
            let (clause, arguments) = Self.whereClause(query, user)
            return try db.first(
                "SELECT COUNT(*) FROM task WHERE \(Self.profileTerm(query))\(clause)",
                arguments
            ) { $0.int(0) } ?? 0
        }
    }

    public func page(_ user: String, _ query: ListQuery, offset: Int, limit: Int) throws -> [TaskItem] {
        try cached(cache.pages, ReadCache.Query(user: user, query: query, offset: offset, limit: limit)) { db in
            if query.sort?.key == .urgency { return try Self.urgencyPage(db, user, query, offset: offset, limit: limit) }
            if query.sort == nil, let span = Self.dueSpan(query) {
                // The dated tasks in list order, looked at up to twice as many as the span
                // holds: a first page is found after a few of them, where sorting the span
                // would order all of them. A page not found so goes on to the sort.
                let matches = try count(user, query)
                let walk = Self.dueWalkQuery(query, user, span: span, looking: 2 * matches)
                let found = try db.statement(walk.sql).all(walk.arguments + [limit, offset], Self.task)
                if found.count == min(limit, max(0, matches - offset)) { return found }
            }
            let (sql, arguments) = Self.pageQuery(query, user)
            return try db.statement(sql).all(arguments + [limit, offset], Self.task)
        }
    }

    /// The statement of a page of a list by a due term alone (its `span`: ``dueSpan(_:)``) that walks
    /// the dated tasks in list order (the index `task_dated_in_order`, which holds what the
    /// span and the filter ask) and looks at `looking` of them at most, with its
    /// arguments but the limit and the offset. The tasks that pass are taken in the order
    /// the subquery gives them (SQLite reads a subquery with a `LIMIT` as it yields its
    /// rows), so the walk stops at the page's last: sorting them there would read every
    /// one the subquery may give first.
    static func dueWalkQuery(
        _ query: ListQuery, _ user: String, span: (sql: String, arguments: [any SQLArgument]), looking: Int
    ) -> (sql: String, arguments: [any SQLArgument]) {
        let (clause, arguments) = filterClause(query, user)
        return (
            "SELECT \(columns) FROM task WHERE id IN (SELECT id FROM (SELECT id, parent, position, uuid, due, done, wait"
                + " FROM task INDEXED BY task_dated_in_order WHERE profile_id = \(profileID) AND due IS NOT NULL ORDER BY parent, position, uuid LIMIT ?)"
                + " WHERE 1\(span.sql)\(clause) LIMIT ? OFFSET ?) ORDER BY parent, position, uuid",
            [user, looking] + span.arguments + arguments.dropFirst()
        )
    }

    /// The statement reading a page of a list, with its arguments but the limit and the
    /// offset. Results from every level come the top's first, then each task's subtasks.
    /// Equal positions (given by two replicas) are ordered by uuid, alike everywhere: the
    /// index `task_in_order` gives that order, so no page is sorted.
    static func pageQuery(_ query: ListQuery, _ user: String) -> (String, [any SQLArgument]) {
        if let sort = query.sort {
            // A sorted list: every task the query shows, by the sort, then in list order.
            let (clause, arguments) = whereClause(query, user)
            let tie = query.scope == .everywhere ? "parent, position, uuid" : "position, uuid"
            return (
                "SELECT \(columns) FROM task WHERE \(profileTerm(query))\(clause) ORDER BY \(sortOrder(sort)), \(tie) LIMIT ? OFFSET ?",
                arguments
            )
        }
        if let word = listWord(query) {
            let (sql, arguments) = wordQuery(query, user, word: word, select: columns)
            return (sql + " ORDER BY under, place, tie LIMIT ? OFFSET ?", arguments)
        }
        if let day = dayHalves(query, user, select: "id, \(agendaOrder) AS soonest, uuid") {
            // The page's ids sorted from the two indexes alone, then only those tasks read.
            return (
                "SELECT \(columns) FROM task WHERE id IN (SELECT id FROM (\(day.due) UNION ALL \(day.scheduled))"
                    + " ORDER BY soonest, uuid LIMIT ? OFFSET ?) ORDER BY \(agendaOrder), uuid",
                day.arguments
            )
        }
        if let span = dueSpan(query) {
            let (clause, arguments) = filterClause(query, user)
            // The page's ids sorted from the index alone (it holds the order and the
            // filter's columns), then only those tasks read.
            return (
                "SELECT \(columns) FROM task WHERE id IN (SELECT id FROM task INDEXED BY task_by_due WHERE profile_id = \(profileID)"
                    + "\(span.sql)\(clause) ORDER BY parent, position, uuid LIMIT ? OFFSET ?) ORDER BY parent, position, uuid",
                [user] + span.arguments + arguments.dropFirst()
            )
        }
        let (clause, arguments) = whereClause(query, user)
        let order =
            switch query.scope {
            case .everywhere: "parent, position, uuid"
            case .agenda, .day: agendaOrder + ", uuid"
            case .top, .children: "position, uuid"
            }
        return ("SELECT \(columns) FROM task WHERE \(profileTerm(query))\(clause) ORDER BY \(order) LIMIT ? OFFSET ?", arguments)
    }

    public func task(_ user: String, id: Int) throws -> TaskItem? {
        try cached(cache.tasks, ReadCache.Task(user: user, id: id)) { db in
            try db.first("SELECT \(Self.columns) FROM task WHERE id = ? AND profile_id = \(Self.profileID)", [id, user], Self.task)
        }
    }

    public func chain(_ user: String, id: Int) throws -> [TaskItem] {
        try cached(cache.chains, ReadCache.Task(user: user, id: id)) { db in try Self.chain(db, user, id: id) }
    }

    public func descendantCount(_ user: String, id: Int) throws -> Int {
        try reading { db in try Self.below(db, user, id: id).count }
    }

    public func move(_ user: String, id: Int, under parent: Int?) throws -> TaskItem? {
        try writing { db in
            guard let before = try Self.stored(db, user, id: id) else { return nil }
            var above = 0
            if let parent {
                let chain = try Self.chain(db, user, id: parent).map(\.id)
                guard !chain.isEmpty else { throw NavError.noSuchTask(String(parent)) }
                guard !chain.contains(id) else { throw NavError.moveIntoItself(task: before.fields.title) }
                above = chain.count
            }
            // Already the first of its place: nothing to do (nor to undo).
            if before.parent == parent ?? 0,
                try db.first(
                    """
                    SELECT min(position) FROM task WHERE profile_id = \(Self.profileID) AND parent = ?
                    """, [user, before.parent], { $0.int(0) }) == before.position
            {
                return before.item
            }
            let levels = before.subtasks.total == 0 ? 1 : 1 + (try Self.below(db, user, id: id).map(\.level).max() ?? 0)
            guard above + levels <= TreeLimits.depth else { throw NavError.tooDeep(depth: above + levels) }
            var after = before
            after.parent = parent ?? 0
            after.position = try Self.newTop(db, user)
            after.rev += 1
            var log = try beginChange(db, user, .move)
            let pair = try Self.change(db, user, ChangePair(before: before, after: after), &log)
            return pair.after!.item
        }
    }

    public func task(_ user: String, uuid: String) throws -> TaskItem? {
        try reading { db in
            try db.first("SELECT \(Self.columns) FROM task WHERE uuid = ? AND profile_id = \(Self.profileID)", [uuid, user], Self.task)
        }
    }

    public func tasks(_ user: String, uuidPrefix prefix: String, limit: Int) throws -> [TaskItem] {
        // A range of the unique index on uuid: from the prefix to the prefix with its
        // last character one higher ('-' and the hexadecimal digits are ASCII).
        let end = String(prefix.dropLast()) + String(UnicodeScalar((prefix.utf8.last ?? 0x2F) + 1))
        return try reading { db in
            try db.prepare(
                """
                SELECT \(Self.columns) FROM task WHERE uuid >= ? AND uuid < ? AND profile_id = \(Self.profileID)
                ORDER BY uuid LIMIT ?
                """
            ).all([prefix, end, user, limit], Self.task)
        }
    }

    public func counts(_ user: String) throws -> TaskCounts {
        try cached(cache.counters, user) { db in
            let counters = try Self.counters(db, user)
            return TaskCounts(open: counters.total - counters.done, done: counters.done)
        }
    }

    public func insertAtTop(_ user: String, _ fields: DraftFields, under parent: Int?, as kind: ChangeKind) throws -> TaskItem {
        try writing { db in
            if let parent {
                let depth = try Self.chain(db, user, id: parent).count
                guard depth > 0 else { throw NavError.taskVanished(parent) }
                guard depth < TreeLimits.depth else { throw NavError.tooDeep(depth: depth + 1) }
            }
            var task = StoredTask(id: nil, position: try Self.newTop(db, user), uuid: uuids.make(), fields)
            task.parent = parent ?? 0
            var log = try beginChange(db, user, kind)
            let row = try Self.change(db, user, ChangePair(before: nil, after: task), &log)
            return row.after!.item
        }
    }

    public func write(_ user: String, id: Int, _ fields: [TaskField], from values: DraftFields, as kind: ChangeKind) throws -> TaskItem? {
        try update(user, id: id, as: kind) { stored in
            for field in fields { stored[field] = values[field] }
        }
    }

    public func toggle(_ user: String, id: Int) throws -> TaskItem? {
        try update(user, id: id, as: .toggle) { $0.done.toggle() }
    }

    /// Changes a task's fields as stored now, in one transaction; a change that sets
    /// nothing new writes nothing.
    func update(_ user: String, id: Int, as kind: ChangeKind, _ change: (inout DraftFields) -> Void) throws -> TaskItem? {
        // A task keeps its place, so what was read stays true but for this task: the
        // cache is told what changed and mends it (a toggle then reads nothing again).
        try writing(touching: .oneTask) { db in
            guard let profile = try existingProfileID(db, user) else { return nil }
            // The task as the cache holds it, from the last change of it, when no other
            // write came between.
            let key = ReadCache.Task(user: user, id: id)
            let held = isCaching ? cache.storedTasks[key] : nil
            guard let before = try held ?? Self.stored(db, profile: profile, id: id) else { return nil }
            var after = before
            change(&after.fields)
            guard after.fields != before.fields else { return before.item }
            after.rev += 1
            var log = try beginChange(db, user, kind)
            let pair = try Self.change(db, user, ChangePair(before: before, after: after), &log)
            let item = pair.after?.item ?? after.item
            // An instance of a series marked done makes the next, in the same change
            // (undo takes both back); the store then holds one task more, which the
            // cache is told of too.
            if !before.fields.done, after.fields.done,
                let next = try Self.addNextInstance(db, user, after: pair.after ?? after, zone: clock.zone, &log)
            {
                if isCaching {
                    cache.changed(before.item, to: item, stored: pair.after, of: user)
                    cache.added(next, of: user)
                } else {
                    cache.wrote(.tasks)
                }
            } else if before.fields.done, !after.fields.done, try Self.takeBackNextInstance(db, user, of: after, &log) {
                cache.wrote(.tasks)
            } else if isCaching {
                cache.changed(before.item, to: item, stored: pair.after, of: user)
            }
            return item
        }
    }

    /// A read, answered from the cache when a store in memory made it before.
    func cached<Key: Hashable, Value>(
        _ answers: ReadCache.Answers<Key, Value>, _ key: Key,
        _ read: (Connection) throws -> Value
    ) throws -> Value {
        if isCaching, let value = answers[key] { return value }
        let value = try reading(read)
        if isCaching { answers[key] = value }
        return value
    }
}
