import NavStackCore
import NavStackSync
import NavStackTime

extension SQLiteStore {
    // MARK: - Rows and counters

    /// ` AND parent = ? AND done = ? AND …` for a query, and the arguments that start
    /// with the profile.
    static func whereClause(_ query: ListQuery, _ user: String) -> (String, [any SQLArgument]) {
        var sql = ""
        var arguments: [any SQLArgument] = [user]
        switch query.scope {
        case .top: sql += " AND parent = 0"
        case .children(let id):
            sql += " AND parent = ?"
            arguments.append(id)
        case .everywhere: break
        // As the index `task_on_agenda` is made, so it serves.
        case .agenda: sql += " AND (due IS NOT NULL OR scheduled IS NOT NULL)"
        case .day(let from, let before):
            // Each date's own index answers its half.
            sql += """
                 AND id IN (SELECT id FROM task WHERE profile_id = \(profileOfFirstArgument) AND due >= ? AND due < ?
                    UNION ALL SELECT id FROM task WHERE profile_id = \(profileOfFirstArgument) AND scheduled >= ? AND scheduled < ?)
                 AND (done OR wait IS NULL OR wait < ?)
                """
            arguments += [from.secondsSinceEpoch, before.secondsSinceEpoch, from.secondsSinceEpoch, before.secondsSinceEpoch]
            arguments.append(before.secondsSinceEpoch)
        }
        let now = query.now.secondsSinceEpoch
        switch query.filter {
        case .all:
            sql += " AND (done OR wait IS NULL OR wait <= ?)"
            arguments.append(now)
        case .open:
            sql += " AND done = 0 AND (wait IS NULL OR wait <= ?)"
            arguments.append(now)
        case .done:
            sql += " AND done = 1"
        case .waiting:
            sql += " AND done = 0 AND wait > ?"
            arguments.append(now)
        case .every:
            break
        }
        // A tag or project the words' table answers is looked up there (`profileTerm` then
        // keeps the profile's index out of the plan); any other is matched on each task.
        let hasTag = "tags != '' AND navstack_has_tag(tags, ?)"
        var words: [(kind: WordKind, term: String, wanted: Bool, match: String)] = query.terms.tags.map { (.tag, $0, true, hasTag) }
        if let project = query.terms.project {
            words.append((.project, project, true, "project IS NOT NULL AND navstack_in_project(project, ?)"))
        }
        words += query.terms.withoutTags.map { (.tag, $0, false, hasTag) }
        for (kind, term, wanted, match) in words {
            if let word = listWord(kind, term) {
                sql += " AND id \(wanted ? "" : "NOT ")IN (SELECT task_id FROM task_word"
                sql += " WHERE profile = \(profileOfFirstArgument) AND word = ?)"
                arguments.append(word)
            } else {
                sql += wanted ? " AND " + match : " AND NOT (\(match))"
                arguments.append(term)
            }
        }
        if let priority = query.terms.priority {
            sql += " AND priority = ?"
            arguments.append(priority.rawValue)
        }
        switch query.terms.due {
        case .none?: sql += " AND due IS NULL"
        case .any? where !query.boundsDue: sql += " AND due IS NOT NULL"
        default: break
        }
        if query.boundsDue {
            // The tasks due in the span, from the index of `due` (see `profileTerm`).
            let bounds = dueBounds(query)
            sql += " AND id IN (SELECT id FROM task WHERE profile_id = \(profileOfFirstArgument)\(bounds.sql))"
            arguments += bounds.arguments
        }
        if let search = query.search {
            // The annotations' texts too (not their instants nor JSON's own words).
            arguments.append(search)
            let text = "?\(arguments.count)"
            sql += """
                 AND (navstack_matches(title, notes, \(text)) OR annotations != '' AND navstack_matches(
                    '', (SELECT group_concat(value ->> 'text', char(10)) FROM json_each(annotations)), \(text)))
                """
        }
        return (sql, arguments)
    }

    /// The word of a list that one tag or one project alone narrows, with no search:
    /// `#home`, `@home.garden` (``listWord(_:_:)``). Such a list is read from `task_word`,
    /// whose key holds a word's tasks in list order.
    static func listWord(_ query: ListQuery) -> String? {
        let terms = query.terms
        guard query.scope == .everywhere, query.search == nil, terms.priority == nil, !terms.asksDue, terms.withoutTags.isEmpty
        else { return nil }
        switch (terms.tags.count, terms.project) {
        case (1, nil): return listWord(.tag, terms.tags[0])
        case (0, let project?): return listWord(.project, project)
        default: return nil
        }
    }

    /// `SELECT select` of a word's tasks (``listWord(_:)``) that the query's filter keeps,
    /// from `task_word` in list order, each task read by its id; the arguments.
    static func wordQuery(_ query: ListQuery, _ user: String, word: String, select: String) -> (String, [any SQLArgument]) {
        let (clause, arguments) = filterClause(query, user)
        return (
            "SELECT \(select) FROM task_word CROSS JOIN task ON task.id = task_word.task_id WHERE task_word.profile = \(profileID)"
                + "\(clause) AND task_word.word = ?", arguments + [word]
        )
    }

    /// The query's filter alone (its terms left out), as ``whereClause(_:_:)`` writes it.
    static func filterClause(_ query: ListQuery, _ user: String) -> (String, [any SQLArgument]) {
        var filtered = query
        filtered.terms = ListTerms()
        (filtered.dueFrom, filtered.dueBefore) = (nil, nil)
        return whereClause(filtered, user)
    }

    /// The span of a list that a due term with dates alone narrows (`due:week`, no search,
    /// tag, project or priority), as SQL after `profile_id = …` and its arguments.
    static func dueSpan(_ query: ListQuery) -> (sql: String, arguments: [any SQLArgument])? {
        let terms = query.terms
        guard query.scope == .everywhere, query.search == nil, terms.tags.isEmpty, terms.withoutTags.isEmpty, terms.project == nil,
            terms.priority == nil, terms.due != DueTerm.none, query.boundsDue
        else { return nil }
        return dueBounds(query)
    }

    /// A day's tasks that the filter keeps (a day with no search nor terms), as two
    /// statements that `SELECT select`, each from the index of one date alone: those due
    /// that day, and those scheduled that day and not due on it. The arguments are those
    /// of both, in order.
    static func dayHalves(_ query: ListQuery, _ user: String, select: String)
        -> (due: String, scheduled: String, arguments: [any SQLArgument])?
    {
        guard case .day(let from, let before) = query.scope, query.search == nil, query.terms == ListTerms() else { return nil }
        var everywhere = query
        everywhere.scope = .everywhere
        let (clause, filter) = whereClause(everywhere, user)
        let (start, end) = (from.secondsSinceEpoch, before.secondsSinceEpoch)
        // A task waiting past the day is not on it.
        let shown = " AND (done OR wait IS NULL OR wait < ?)\(clause)"
        let due = "SELECT \(select) FROM task INDEXED BY task_by_due WHERE profile_id = \(profileID) AND due >= ? AND due < ?\(shown)"
        let scheduled =
            "SELECT \(select) FROM task INDEXED BY task_by_scheduled WHERE profile_id = \(profileID)"
            + " AND scheduled >= ? AND scheduled < ? AND (due IS NULL OR due < ? OR due >= ?)\(shown)"
        let arguments: [any SQLArgument] = [user, start, end, end] + filter.dropFirst()
        return (due, scheduled, arguments + [user, start, end, start, end, end] + filter.dropFirst())
    }

    /// ` AND due IS NOT NULL AND due >= ? AND due < ?`, with the bounds the query's due
    /// term has, and their arguments.
    static func dueBounds(_ query: ListQuery) -> (sql: String, arguments: [any SQLArgument]) {
        var sql = " AND due IS NOT NULL"
        var arguments: [any SQLArgument] = []
        if let from = query.dueFrom {
            sql += " AND due >= ?"
            arguments.append(from.secondsSinceEpoch)
        }
        if let before = query.dueBefore {
            sql += " AND due < ?"
            arguments.append(before.secondsSinceEpoch)
        }
        return (sql, arguments)
    }

    /// `profile_id = …`, the first term of a list's statement. A day's tasks, those a due
    /// term bounds and those of a tag or a project are looked up by id from the indexes of
    /// their dates or the words' table: there the
    /// profile's index is kept out of the plan (`+`), which would otherwise walk every
    /// task of the profile.
    static func profileTerm(_ query: ListQuery) -> String {
        if case .day = query.scope { return "+profile_id = \(profileID)" }
        if query.boundsDue { return "+profile_id = \(profileID)" }
        if query.terms.tags.contains(where: { listWord(.tag, $0) != nil }) || listWord(.project, query.terms.project) != nil {
            return "+profile_id = \(profileID)"
        }
        return "profile_id = \(profileID)"
    }

    /// The agenda's order: the earlier of a task's `due` and `scheduled` dates, as the
    /// index `task_on_agenda` has it.
    static let agendaOrder = "coalesce(min(due, scheduled), due, scheduled)"

    /// Whether the query's filter hides none of the profile's tasks now: `every`, or `all`
    /// while no open task waits.
    static func hidesNone(_ db: Connection, _ user: String, _ query: ListQuery) throws -> Bool {
        try query.filter == .every || (query.filter == .all && !anyWaiting(db, user, at: query.now))
    }

    /// Whether the profile has an open task whose `wait` is after `now`.
    static func anyWaiting(_ db: Connection, _ user: String, at now: Instant) throws -> Bool {
        try db.statement(waitingProbe).first(
            {
                $0.text(user)
                $0.int(now.secondsSinceEpoch)
            }, reading: { _ in true }) ?? false
    }

    /// One look at the index of `wait`.
    static let waitingProbe = SQL("SELECT 1 FROM task WHERE profile_id = \(profileID) AND wait > ? AND done = 0 LIMIT 1")

    /// A profile's counts of all its tasks (or of the columns named).
    static func counters(_ db: Connection, _ user: String, _ columns: String = "total, done") throws -> (total: Int, done: Int) {
        try db.first("SELECT \(columns) FROM profile WHERE name = ?", [user]) { ($0.int(0), $0.int(1)) } ?? (0, 0)
    }

    /// A task and the tasks above it, from the top of the tree down to it; empty when it
    /// does not exist. In a broken tree the chain stops short: its first task has a parent
    /// (one that is missing), or it runs past the depth limit (a loop).
    static func chain(_ db: Connection, _ user: String, id: Int) throws -> [TaskItem] {
        // Most tasks shown are at the top: their chain is themselves.
        guard
            let task = try db.first(
                "SELECT \(columns) FROM task WHERE id = ? AND profile_id = \(profileID)",
                [id, user], Self.task)
        else { return [] }
        guard task.parent != nil else { return [task] }
        let columns = columns.split(separator: ", ").map { "t." + $0 }.joined(separator: ", ")
        return try db.statement(
            """
            WITH RECURSIVE up(id, level) AS (
                SELECT ?, 0
                UNION ALL
                SELECT t.parent, up.level + 1 FROM up JOIN task AS t ON t.id = up.id
                WHERE t.parent != 0 AND up.level <= \(TreeLimits.depth))
            SELECT \(columns) FROM up JOIN task AS t ON t.id = up.id
            WHERE t.profile_id = \(profileID) ORDER BY up.level DESC
            """
        ).all([id, user], Self.task)
    }

    /// The tasks below a task, at every level, the deepest first, each with how many
    /// levels below it is (1 for its own subtasks).
    static func below(_ db: Connection, _ user: String, id: Int) throws -> [(task: StoredTask, level: Int)] {
        try db.statement(
            """
            WITH RECURSIVE down(id, level) AS (
                SELECT ?, 0
                UNION ALL
                SELECT t.id, down.level + 1 FROM down JOIN task AS t
                ON t.profile_id = (SELECT id FROM profile WHERE name = ?2) AND t.parent = down.id
                WHERE down.level <= \(TreeLimits.depth))
            SELECT \(storedColumns(of: "t")), down.level FROM down JOIN task AS t ON t.id = down.id
            WHERE down.level > 0 ORDER BY down.level DESC, t.position
            """
        ).all([id, user]) { (storedTask($0), $0.int(10 + attributeCount)) }
    }

    /// A task with its place in the list.
    static func stored(_ db: Connection, _ user: String, id: Int) throws -> StoredTask? {
        try db.first("SELECT \(storedColumns) FROM task WHERE id = ? AND profile_id = \(profileID)", [id, user], storedTask)
    }

    /// The task with this id, when the profile has it.
    static func stored(_ db: Connection, profile: Int64, id: Int) throws -> StoredTask? {
        try db.statement(storedByID).first(
            {
                $0.int(id)
                $0.int(profile)
            }, reading: storedTask)
    }

    static let storedByID = SQL("SELECT \(storedColumns) FROM task WHERE id = ? AND profile_id = ?")

    /// A row of ``storedColumns`` as a task with its place.
    static func storedTask(_ row: Row) -> StoredTask {
        var fields = DraftFields(title: row.text(4), notes: row.text(5), done: row.bool(6))
        let stamps = readAttributes(row, at: 10, into: &fields)
        var task = StoredTask(id: row.int(0), position: row.int(1), uuid: row.text(2), fields)
        task.stamps = stamps
        task.rev = row.int(3)
        task.parent = row.int(7)
        task.subtasks = SubtaskCounts(done: row.int(9), total: row.int(8))
        return task
    }

    /// A position above every task the profile has had: a place at the top of the list.
    static func newTop(_ db: Connection, _ user: String) throws -> Int {
        try db.first("SELECT top - 1 FROM profile WHERE name = ?", [user]) { $0.int(0) } ?? 0
    }

    /// Adds a task at the bottom of the list, unrecorded (sample tasks).
    static func append(_ db: Connection, _ user: String, _ fields: DraftFields, uuid: String) throws -> StoredTask {
        let position = try db.first("SELECT bottom + 1 FROM profile WHERE name = ?", [user]) { $0.int(0) } ?? 0
        return try insert(db, user, StoredTask(id: nil, position: position, uuid: uuid, fields))
    }

    /// Inserts a task (with its id when it had one), keeping the counters and the
    /// positions given so far; `keepingStamps`: with its stamps as they are (sync's).
    static func insert(_ db: Connection, _ user: String, _ task: StoredTask, keepingStamps: Bool = false) throws -> StoredTask {
        let task = keepingStamps ? task : stamped(task, replacing: nil, at: db.now)
        try insertRow(db, user, task)
        // At the top of the list, the profile's counts of its tasks and of the top's at once.
        try db.statement(task.parent == 0 ? countInsertedAtTop : countInserted).run {
            $0.int(task.fields.done ? 1 : 0)
            $0.int(task.position)
            $0.text(user)
        }
        if task.parent != 0 { try countSubtask(db, user, parent: task.parent, total: 1, done: task.fields.done ? 1 : 0) }
        var inserted = task
        inserted.id = task.id ?? Int(db.lastInsertedRowID)
        if task.id != nil {
            // A task brought back finds the subtasks brought back before it.
            try db.run(
                """
                UPDATE task SET subtasks = (SELECT count(*) FROM task AS s WHERE s.profile_id = task.profile_id AND s.parent = task.id),
                    subtasks_done = (SELECT count(*) FROM task AS s WHERE s.profile_id = task.profile_id AND s.parent = task.id AND s.done)
                WHERE id = ?
                """, [task.id])
            inserted.subtasks =
                try db.first("SELECT subtasks_done, subtasks FROM task WHERE id = ?", [task.id]) {
                    SubtaskCounts(done: $0.int(0), total: $0.int(1))
                } ?? SubtaskCounts()
        }
        return inserted
    }

    /// The task's row alone, without the counts of its profile and parent.
    static func insertRow(_ db: Connection, _ user: String, _ task: StoredTask) throws {
        try db.statement(insertTask).run {
            $0.int(task.id)
            $0.text(user)
            $0.int(task.position)
            $0.text(task.fields.title)
            $0.text(task.fields.notes)
            $0.bool(task.fields.done)
            $0.text(task.uuid)
            $0.int(task.rev)
            $0.int(task.parent)
            $0.attributes(task.fields, task.stamps)
        }
    }

    /// The statements of a task inserted: its row, and its profile's counts.
    static let insertTask = SQL(
        """
        INSERT INTO task (id, profile_id, position, title, notes, done, uuid, rev, parent, \(attributeColumns))
        VALUES (?, \(profileID), ?, ?, ?, ?, ?, ?, ?, \(attributePlaceholders))
        """)
    static let countInserted = SQL(
        "UPDATE profile SET total = total + 1, done = done + ?1, top = min(top, ?2), bottom = max(bottom, ?2) WHERE name = ?3")
    static let countInsertedAtTop = SQL(
        """
        UPDATE profile SET total = total + 1, done = done + ?1, top = min(top, ?2), bottom = max(bottom, ?2),
            roots = roots + 1, roots_done = roots_done + ?1 WHERE name = ?3
        """)

    /// Counts tasks joining (positive) or leaving (negative) a parent's subtasks, or the
    /// top of the list (parent 0).
    static func countSubtask(_ db: Connection, _ user: String, parent: Int, total: Int, done: Int) throws {
        guard total != 0 || done != 0 else { return }
        if parent == 0 {
            try db.statement(countRoots).run {
                $0.int(total)
                $0.int(done)
                $0.text(user)
            }
        } else {
            try db.statement(countSubtasks).run {
                $0.int(total)
                $0.int(done)
                $0.int(parent)
            }
        }
    }

    static let countRoots = SQL("UPDATE profile SET roots = roots + ?, roots_done = roots_done + ? WHERE name = ?")
    static let countSubtasks = SQL(
        "UPDATE task SET subtasks = subtasks + ?, subtasks_done = subtasks_done + ? WHERE id = ?")
}
