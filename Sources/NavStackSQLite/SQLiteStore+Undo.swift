import CSQLite
import NavStackCore

extension SQLiteStore {
    /// ``undoOnlyFields`` as an SQL list.
    static let undoOnlyFields = "(" + NavStackSQLite.undoOnlyFields.sorted().map { "'\($0)'" }.joined(separator: ", ") + ")"

    /// How many ids of an import one statement of its undo or redo moves.
    static let importBatch = 10_000

    /// Starts a change: what could be redone is forgotten (its first operation marked,
    /// an undone import's tasks let go). Returns the log its operations go in.
    func beginChange(_ db: Connection, _ user: String, _ kind: ChangeKind) throws -> ChangeLog {
        let profile = try profileID(db, user)
        if ownChangesAfter[user] == nil {
            ownChangesAfter[user] = try db.first("SELECT coalesce(max(seq), 0) FROM op", [], { $0.int64(0) }) ?? 0
        }
        // Most changes follow no undo: one look at the profile's (empty) list, or none
        // while the cache knows it empty (only `undo` fills it, and that write starts the
        // cache over).
        if isCaching && cache.nothingUndone.contains(profile) { return ChangeLog(kind, of: profile, by: writer) }
        if try db.statement(Self.anyUndone).first({ $0.int(profile) }, reading: { _ in true }) != nil {
            try db.run(
                """
                UPDATE op SET part = \(OperationPart.forgotten.rawValue) FROM undone
                WHERE op.seq = undone.seq AND undone.profile_id = ?
                """, [profile])
            try db.run("DELETE FROM undone WHERE profile_id = ?", [profile])
        }
        if isCaching { cache.nothingUndone.insert(profile) }
        return ChangeLog(kind, of: profile, by: writer)
    }

    private static let anyUndone = SQL("SELECT 1 FROM undone WHERE profile_id = ? LIMIT 1")

    /// Records a change whose operations are not the log's own (local values another
    /// replica replaced): each pair as one `pair` operation, the task before and after
    /// as JSON, which sync leaves alone.
    func record(_ db: Connection, _ user: String, _ kind: ChangeKind, _ pairs: [ChangePair]) throws {
        var log = try beginChange(db, user, kind)
        let insert = try db.statement(Self.appendOperation)
        let now = Int(Self.milliseconds())
        for pair in pairs {
            let (part, writer) = log.next()
            try insert.run([
                log.profile, log.kind, (pair.after ?? pair.before)?.uuid, "pair", pair.before?.json, pair.after?.json, now, part,
                writer,
            ])
        }
    }

    public func undo(_ user: String) throws -> ChangeSummary? {
        try step(user, undone: false, batch: Self.importBatch)
    }

    public func redo(_ user: String) throws -> ChangeSummary? {
        try step(user, undone: true, batch: Self.importBatch)
    }

    /// Undoes the newest change not undone, or redoes the one undone last (this
    /// process's own first, else the profile's); an import's tasks move `batch` ids a
    /// statement. Every task the step changes is checked first: a field the change set
    /// that holds another value now was changed since, and the step is refused whole.
    func step(_ user: String, undone: Bool, batch: Int) throws -> ChangeSummary? {
        try writing { db in
            guard let profile = try existingProfileID(db, user),
                let seq = try undone ? Self.undoneLast(db, profile, by: writer) : newestInEffect(db, profile, user: user)
            else { return nil }
            let operations = try Self.operations(db, of: seq)
            guard let kind = operations.first.flatMap({ ChangeKind(rawValue: $0.kind) }) else { return nil }
            let word: CommandWord = undone ? .redo : .undo
            var log = ChangeLog(outsideHistory: word.rawValue, of: profile)
            if !undone {
                // First: an undone import's tasks wait under it.
                try db.run(
                    """
                    INSERT INTO undone (seq, profile_id, turn, by)
                    VALUES (?1, ?2, 1 + coalesce((SELECT max(turn) FROM undone WHERE profile_id = ?2), 0), ?3)
                    """, [seq, profile, writer])
            }
            var summary = ChangeSummary(kind: kind, first: nil, count: 0)
            switch try Self.record(db, user, of: operations) {
            case .pairs(let pairs):
                summary.count = pairs.count
                // Named by the task at the top of those it touched (a deleted task, not
                // its subtasks).
                let touched = pairs.compactMap { $0.after ?? $0.before }
                let ids = Set(touched.compactMap(\.id))
                if let task = touched.first(where: { !ids.contains($0.parent) }) ?? touched.first, let id = task.id {
                    summary.first = (id, task.fields.title)
                }
                var steps: [ChangePair] = []
                for pair in undone ? pairs : pairs.reversed() {
                    let (from, to) = undone ? (pair.before, pair.after) : (pair.after, pair.before)
                    let current = try Self.stored(db, user, id: (from ?? to)?.id ?? 0)
                    steps.append(try Self.revert(current, from: from, to: to, by: word))
                }
                for step in steps { _ = try Self.change(db, user, step, &log) }
                // The tree stays whole: no task left without its parent, none under itself.
                for step in steps {
                    if let after = step.after {
                        guard try Self.isRooted(db, user, id: after.id ?? 0) else {
                            throw NavError.treeChangedSince(word, task: after.fields.title)
                        }
                    } else if let before = step.before,
                        try db.first(
                            "SELECT 1 FROM task WHERE parent = ? AND profile_id = \(Self.profileID)",
                            [before.id, user], { _ in true }) != nil
                    {
                        throw NavError.treeChangedSince(word, task: before.fields.title)
                    }
                }
            case .imported(let first, let last):
                summary.count = last - first + 1
                if undone {
                    try Self.restoreImport(db, user, seq: seq, first: first, last: last, batch: batch)
                } else {
                    try Self.ensureUntouched(db, user, profile: profile, seq: seq, first: first, last: last)
                    try Self.takeAwayImport(db, user, seq: seq, first: first, last: last, batch: batch)
                }
                try Self.logImport(db, user, first: first, last: last, adding: undone, &log)
            }
            if undone { try db.run("DELETE FROM undone WHERE seq = ?", [seq]) }
            return summary
        }
    }

    /// The first operation of the profile's newest change in effect: this process's own
    /// first (the log read from its end, back to where this process started to change
    /// the profile, when it did).
    func newestInEffect(_ db: Connection, _ profile: Int64, user: String) throws -> Int64? {
        let pick = "SELECT seq FROM op WHERE profile_id = ?1 AND part = 0 AND seq NOT IN (SELECT seq FROM undone)"
        if let after = ownChangesAfter[user],
            let own = try db.first(
                "\(pick) AND seq > ?2 AND writer = ?3 ORDER BY seq DESC LIMIT 1", [profile, after, writer], { $0.int64(0) })
        {
            return own
        }
        return try db.first("\(pick) ORDER BY seq DESC LIMIT 1", [profile]) { $0.int64(0) }
    }

    /// The first operation of the change undone last: by `writer` first. (`turn` orders
    /// them; stores before v3 wrote 1 for each: the oldest first is then the last undone.)
    static func undoneLast(_ db: Connection, _ profile: Int64, by writer: String) throws -> Int64? {
        let pick = "SELECT seq FROM undone WHERE profile_id = ?1"
        return try db.first("\(pick) AND by = ?2 ORDER BY turn DESC, seq ASC LIMIT 1", [profile, writer]) { $0.int64(0) }
            ?? db.first("\(pick) ORDER BY turn DESC, seq ASC LIMIT 1", [profile]) { $0.int64(0) }
    }

    /// The operations of the change whose first is `seq`: it and those that follow it.
    static func operations(_ db: Connection, of seq: Int64) throws -> [LoggedOperation] {
        try db.prepare(
            """
            SELECT kind, task_uuid, field, old, new FROM op
            WHERE seq >= ?1 AND seq < coalesce((SELECT min(seq) FROM op WHERE seq > ?1 AND part <> \(OperationPart.next.rawValue)), 9223372036854775807)
            ORDER BY seq
            """
        ).all([seq]) { row in
            LoggedOperation(
                kind: row.text(0), uuid: row.optionalText(1), field: row.text(2), old: row.optionalText(3), new: row.optionalText(4))
        }
    }

    /// What a change's operations stand for: for each task, the task before and after it
    /// (a task's fields as they are now but for those the change set; created and deleted
    /// tasks whole), or an import's range.
    static func record(_ db: Connection, _ user: String, of operations: [LoggedOperation]) throws -> ChangeRecord {
        func task(_ text: String?) throws -> StoredTask? {
            guard let text else { return nil }
            guard let task = JSONValue(parsing: text).flatMap(StoredTask.init(json:)) else { throw unreadable }
            return task
        }
        var pairs: [ChangePair] = []
        var index = 0
        while index < operations.count {
            let operation = operations[index]
            switch operation.field {
            case "import", "range":
                guard let (first, last) = importRange(operation.new) else { throw unreadable }
                return .imported(first: first, last: last)
            case "task", "pair":
                pairs.append(ChangePair(before: try task(operation.old), after: try task(operation.new)))
                index += 1
            default:
                // The fields one task's change set, one after the other.
                guard let uuid = operation.uuid else { throw unreadable }
                var end = index + 1
                while end < operations.count, operations[end].uuid == uuid,
                    !["task", "pair", "import", "range"].contains(operations[end].field)
                {
                    end += 1
                }
                pairs.append(try fieldsPair(db, user, uuid: uuid, operations[index..<end]))
                index = end
            }
        }
        return .pairs(pairs)
    }

    /// A task before and after a change of some of its fields: as it is now (or as it
    /// was last seen, when it is gone) but for those.
    private static func fieldsPair(
        _ db: Connection, _ user: String, uuid: String, _ operations: ArraySlice<LoggedOperation>
    ) throws -> ChangePair {
        let base = try stored(db, user, uuid: uuid) ?? lastSeen(db, user, uuid: uuid)
        var (before, after) = (base, base)
        for operation in operations {
            switch operation.field {
            case "parent":
                before.parent = try parentID(db, user, operation.old)
                after.parent = try parentID(db, user, operation.new)
            case "position":
                guard let old = operation.old.flatMap({ Int($0) }), let new = operation.new.flatMap({ Int($0) }) else { throw unreadable }
                before.position = old
                after.position = new
            case "under":
                // A move that kept the parent: the task was under it before and after.
                before.parent = try parentID(db, user, operation.new)
                after.parent = before.parent
            default:
                guard let field = TaskField(rawValue: operation.field), let old = value(of: field, operation.old),
                    let new = value(of: field, operation.new)
                else { throw unreadable }
                before.fields[field] = old
                after.fields[field] = new
            }
        }
        return ChangePair(before: before, after: after)
    }

    /// A task that is gone, for undo to name: as it waits under an undone import, else as
    /// this store deleted it, else with the title its register holds (another replica
    /// deleted it).
    private static func lastSeen(_ db: Connection, _ user: String, uuid: String) throws -> StoredTask {
        if let waiting = try db.first(
            """
            SELECT t.id, t.position, t.uuid, t.rev, t.title, t.notes, t.done, t.parent, 0, 0, \(attributeColumns.split(separator: ", ").map { "t." + $0 }.joined(separator: ", "))
            FROM undone_task AS t JOIN undone AS u ON u.seq = t.change_seq WHERE t.uuid = ? AND u.profile_id = \(profileID)
            """, [uuid, user], storedTask)
        {
            return waiting
        }
        if let deleted = try lastDeleted(db, uuid: uuid) { return deleted }
        let title =
            try db.first(
                "SELECT title FROM sync_register WHERE uuid = ? AND profile_id = \(profileID)", [uuid, user], { $0.text(0) }) ?? ""
        return StoredTask(id: nil, position: 0, uuid: uuid, DraftFields(title: title))
    }

    /// The id of a parent an operation names by uuid (JSON; null: the top of the list,
    /// 0); -1 when it is gone.
    private static func parentID(_ db: Connection, _ user: String, _ text: String?) throws -> Int {
        guard let value = text.flatMap({ JSONValue(parsing: $0) }) else { throw unreadable }
        guard let uuid = value.string else { return 0 }
        return try db.first("SELECT id FROM task WHERE uuid = ? AND profile_id = \(profileID)", [uuid, user]) { $0.int(0) } ?? -1
    }

    /// A field's value as an operation holds it (JSON).
    private static func value(of field: TaskField, _ text: String?) -> FieldValue? {
        guard let value = text.flatMap({ JSONValue(parsing: $0) }) else { return nil }
        return FieldValue(field, json: value)
    }

    /// A change the log holds that does not read back.
    private static var unreadable: SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: "a change in the operation log does not read back")
    }

    /// The change that takes a task from `from` (as the undone or redone change left it)
    /// to `to`, made on the task as it is now (`current`): only the fields the change set
    /// move, and only while they still hold what it left. A task that should be gone but
    /// is there, or the other way round, was deleted or re-created since.
    static func revert(_ current: StoredTask?, from: StoredTask?, to: StoredTask?, by word: CommandWord) throws -> ChangePair {
        switch (current, from, to) {
        case (nil, nil, _):
            return ChangePair(
                before: nil,
                after: to.map { task in
                    var task = task
                    task.rev += 1
                    return task
                })
        case (let current?, let from?, _):
            let set = to.map { $0.fields.changedFields(from: from.fields) } ?? TaskField.allCases
            let changed = set.filter { current.fields[$0] != from.fields[$0] }
            guard changed.isEmpty else { throw NavError.changedSince(word, task: current.fields.title, fields: changed) }
            guard let to else { return ChangePair(before: current, after: nil) }
            var after = current
            for field in set { after.fields[field] = to.fields[field] }
            if to.parent != from.parent || to.position != from.position {
                // A move goes back only from where it left the task.
                guard current.parent == from.parent, current.position == from.position else {
                    throw NavError.treeChangedSince(word, task: current.fields.title)
                }
                after.parent = to.parent
                after.position = to.position
            }
            after.rev += 1
            return ChangePair(before: current, after: after)
        case (let current?, nil, _):
            throw NavError.changedSince(word, task: current.fields.title, fields: [])
        case (nil, let from?, _):
            throw NavError.changedSince(word, task: from.fields.title, fields: [])
        }
    }

    /// Whether a task's chain reaches the top of the list within the depth limit: its
    /// parents all exist, and it is not under itself.
    static func isRooted(_ db: Connection, _ user: String, id: Int) throws -> Bool {
        let chain = try chain(db, user, id: id)
        guard let top = chain.first, chain.count <= TreeLimits.depth else { return false }
        return top.parent == nil
    }

    /// Refuses to undo an import while a later change that is not undone touches one
    /// of its tasks.
    private static func ensureUntouched(_ db: Connection, _ user: String, profile: Int64, seq: Int64, first: Int, last: Int) throws {
        let later = try db.prepare(
            """
            SELECT seq FROM op WHERE profile_id = ? AND part = 0 AND seq > ? AND seq NOT IN (SELECT seq FROM undone) ORDER BY seq
            """
        ).all([profile, seq]) { $0.int64(0) }
        for change in later {
            guard case .pairs(let pairs) = try record(db, user, of: operations(db, of: change)) else { continue }
            for pair in pairs {
                guard let task = pair.after ?? pair.before, let id = task.id, (first...last).contains(id) else { continue }
                let fields = pair.before.flatMap { before in pair.after.map { $0.fields.changedFields(from: before.fields) } } ?? []
                throw NavError.changedSince(.undo, task: task.fields.title, fields: fields)
            }
        }
    }

    /// Undoes an import: the profile's tasks with ids in `first...last` (those it added,
    /// as they are now) move to `undone_task` under the change, `batch` ids a statement,
    /// so memory does not grow with the import. Other profiles' tasks and later ids are
    /// left alone.
    private static func takeAwayImport(_ db: Connection, _ user: String, seq: Int64, first: Int, last: Int, batch: Int) throws {
        guard let profile = try db.first("SELECT id FROM profile WHERE name = ?", [user], { $0.int64(0) }) else { return }
        // `+profile_id` keeps SQLite on the id range: through an index on the profile it
        // would read all of the profile's tasks for each batch.
        let (total, done) =
            try db.first(
                """
                SELECT count(*), total(done) FROM task WHERE id BETWEEN ? AND ? AND +profile_id = ?
                """, [first, last, profile]
            ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        // A task added since under one of the import's would be left without its parent.
        if try db.first(
            """
            SELECT title FROM task WHERE +profile_id = ?1 AND parent BETWEEN ?2 AND ?3 AND id NOT BETWEEN ?2 AND ?3 LIMIT 1
            """, [profile, first, last], { $0.text(0) }) != nil
        {
            throw NavError.changedSince(
                .undo,
                task: try db.first(
                    """
                    SELECT p.title FROM task AS t JOIN task AS p ON p.id = t.parent
                    WHERE t.profile_id = ?1 AND t.parent BETWEEN ?2 AND ?3 AND t.id NOT BETWEEN ?2 AND ?3 LIMIT 1
                    """, [profile, first, last]
                ) { $0.text(0) } ?? "", fields: [])
        }
        let parents = try outsideParents(db, "task", "+profile_id = ?", profile, first: first, last: last)
        let copy = try db.prepare(
            """
            INSERT INTO undone_task (change_seq, id, position, title, notes, done, uuid, rev, parent, \(attributeColumns))
            SELECT ?, id, position, title, notes, done, uuid, rev, parent, \(attributeColumns) FROM task
            WHERE id BETWEEN ? AND ? AND +profile_id = ?
            """)
        let remove = try db.prepare("DELETE FROM task WHERE id BETWEEN ? AND ? AND +profile_id = ?")
        try inBatches(from: first, through: last, of: batch) { low, high in
            try copy.run([seq, low, high, profile])
            try remove.run([low, high, profile])
        }
        try db.run("UPDATE profile SET total = total - ?, done = done - ? WHERE id = ?", [total, done, profile])
        try recount(db, profile, parents: parents)
    }

    /// The parents outside `first...last` of the tasks in it (0: the top of the list), in
    /// `table` (`task` or `undone_task`) where `condition` holds for `key`.
    private static func outsideParents(
        _ db: Connection, _ table: String, _ condition: String, _ key: Int64,
        first: Int, last: Int
    ) throws -> [Int] {
        try db.prepare(
            """
            SELECT DISTINCT parent FROM \(table) WHERE \(condition) AND id BETWEEN ? AND ? AND parent NOT BETWEEN ? AND ?
            """
        ).all([key, first, last, first, last]) { $0.int(0) }
    }

    /// Counts again the subtasks of each parent (0: the profile's tasks at the top).
    static func recount(_ db: Connection, _ profile: Int64, parents: [Int]) throws {
        for parent in parents {
            let (total, done) =
                try db.first(
                    """
                    SELECT count(*), total(done) FROM task WHERE profile_id = ? AND parent = ?
                    """, [profile, parent]
                ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
            if parent == 0 {
                try db.run("UPDATE profile SET roots = ?, roots_done = ? WHERE id = ?", [total, done, profile])
            } else {
                try db.run("UPDATE task SET subtasks = ?, subtasks_done = ? WHERE id = ?", [total, done, parent])
            }
        }
    }

    /// Runs `body` on the ids from `first` through `last` (none when `last < first`) cut
    /// into ranges of `batch` ids: each range's lowest and highest.
    private static func inBatches(
        from first: Int, through last: Int, of batch: Int,
        _ body: (Int, Int) throws -> Void
    ) rethrows {
        for low in stride(from: first, through: last, by: batch) {
            try body(low, min(low + batch - 1, last))
        }
    }

    /// Redoes an import: its tasks come back from `undone_task` with their ids and
    /// places, `batch` ids a statement.
    private static func restoreImport(_ db: Connection, _ user: String, seq: Int64, first: Int, last: Int, batch: Int) throws {
        guard let profile = try db.first("SELECT id FROM profile WHERE name = ?", [user], { $0.int64(0) }) else { return }
        let (total, done) =
            try db.first(
                "SELECT count(*), total(done) FROM undone_task WHERE change_seq = ?",
                [seq]
            ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        let parents = try outsideParents(db, "undone_task", "change_seq = ?", seq, first: first, last: last)
        let copy = try db.prepare(
            """
            INSERT INTO task (id, profile_id, position, title, notes, done, uuid, rev, parent, \(attributeColumns))
            SELECT id, ?, position, title, notes, done, uuid, rev, parent, \(attributeColumns) FROM undone_task
            WHERE change_seq = ? AND id BETWEEN ? AND ?
            """)
        let remove = try db.prepare("DELETE FROM undone_task WHERE change_seq = ? AND id BETWEEN ? AND ?")
        try inBatches(from: first, through: last, of: batch) { low, high in
            try copy.run([profile, seq, low, high])
            try remove.run([seq, low, high])
        }
        try db.run("UPDATE profile SET total = total + ?, done = done + ? WHERE id = ?", [total, done, profile])
        // The import's own parents too: `undone_task` keeps no counts.
        let inside = try db.prepare(
            """
            SELECT DISTINCT parent FROM task WHERE id BETWEEN ?2 AND ?3 AND +profile_id = ?1 AND parent BETWEEN ?2 AND ?3
            """
        ).all([profile, first, last]) { $0.int(0) }
        try recount(db, profile, parents: parents + inside)
    }
}
