import CSQLite
import NavStackCore

/// One task before and after a change; `nil` where it did not exist.
struct ChangePair: Equatable {
    var before: StoredTask?
    var after: StoredTask?
}

/// What a change table row holds: the pairs, or for an import only the range of ids it
/// added (while it is undone, its tasks wait in `undone_task`), so a large import stays
/// cheap to record, undo and redo.
///
/// As JSON: `{"pairs":[{"before":TASK,"after":TASK}]}` (a missing side is absent) or
/// `{"first":N,"last":N}`.
enum ChangeRecord: Equatable {
    case pairs([ChangePair])
    case imported(first: Int, last: Int)

    var json: String {
        var writer = JSONWriter()
        writer.object { json in
            switch self {
            case .pairs(let pairs):
                json.key("pairs")
                json.array(pairs) { json, pair in
                    json.object { json in
                        if let before = pair.before { json.key("before"); before.write(to: &json) }
                        if let after = pair.after { json.key("after"); after.write(to: &json) }
                    }
                }
            case .imported(let first, let last):
                json.key("first"); json.number(first)
                json.key("last"); json.number(last)
            }
        }
        return writer.text
    }

    init?(json text: String) {
        guard let value = JSONValue(parsing: text) else { return nil }
        if let pairs = value["pairs"]?.array {
            var read: [ChangePair] = []
            for pair in pairs {
                let before = pair["before"].map(StoredTask.init(json:))
                let after = pair["after"].map(StoredTask.init(json:))
                // A side that is there must read back.
                if before == .some(nil) || after == .some(nil) { return nil }
                read.append(ChangePair(before: before ?? nil, after: after ?? nil))
            }
            self = .pairs(read)
        } else if let first = value["first"]?.number, let last = value["last"]?.number {
            self = .imported(first: first, last: last)
        } else {
            return nil
        }
    }
}

extension SQLiteStore {
    /// How many changes a profile keeps for `undo`.
    public static let undoLimit = 1000

    /// How many ids of an import one statement of its undo or redo moves.
    static let importBatch = 10_000

    /// Records a change: what could be redone is forgotten, and the profile's oldest
    /// changes past the limit (the profile counts its changes, so none are counted here).
    func record(_ db: Connection, _ user: String, _ kind: ChangeKind, _ change: ChangeRecord) throws {
        guard
            let (profile, count) = try db.first(
                "SELECT id, changes FROM profile WHERE name = ?", [user],
                { ($0.int64(0), $0.int(1)) })
        else { return }
        try db.run("DELETE FROM change WHERE profile_id = ? AND undone > 0", [profile])
        var kept = count - Int(sqlite3_changes(db.handle)) + 1
        try db.run(
            "INSERT INTO change (profile_id, kind, rows, writer) VALUES (?, ?, ?, ?)",
            [profile, kind.rawValue, Self.encode(change), writer])
        if kept > Self.undoLimit {
            // A bound found by a subquery, not `seq IN (…)`: that would build a table in
            // memory on every change.
            try db.run(
                """
                DELETE FROM change WHERE profile_id = ?1 AND undone = 0 AND seq <= (
                    SELECT seq FROM change WHERE profile_id = ?1 AND undone = 0 ORDER BY seq LIMIT 1 OFFSET ?2)
                """, [profile, kept - Self.undoLimit - 1])
            kept = Self.undoLimit
        }
        // Once the history is full, a change adds one and drops one: the count stays.
        if kept != count { try db.run("UPDATE profile SET changes = ? WHERE id = ?", [kept, profile]) }
    }

    func record(_ db: Connection, _ user: String, _ kind: ChangeKind, _ pairs: [ChangePair]) throws {
        try record(db, user, kind, .pairs(pairs))
    }

    public func undo(_ user: String) throws -> ChangeKind? {
        try step(user, undone: false, batch: Self.importBatch)
    }

    public func redo(_ user: String) throws -> ChangeKind? {
        try step(user, undone: true, batch: Self.importBatch)
    }

    /// Undoes the newest change not undone, or redoes the oldest undone one (this
    /// process's own first, else the profile's); an import's tasks move `batch` ids a
    /// statement. Every task the step changes is checked first: a field the change set
    /// that holds another value now was changed since, and the step is refused whole.
    func step(_ user: String, undone: Bool, batch: Int) throws -> ChangeKind? {
        try writing { db in
            // `undone` is 0 for a change in effect, else its place in the order changes
            // were undone (stores before v3 wrote 1 for each: oldest first is then last
            // undone). `redo` takes the one undone last, by this process first.
            let pick = "SELECT seq, kind, rows FROM change WHERE profile_id = \(Self.profileID)"
            let (mine, order) =
                undone ? ("undone_by", "undone > 0 ORDER BY undone DESC, seq ASC") : ("writer", "undone = 0 ORDER BY seq DESC")
            let read = { (row: Row) in (row.int64(0), row.text(1), row.text(2)) }
            guard
                let (seq, kindName, rows) =
                    try db.first("\(pick) AND \(mine) = ? AND \(order) LIMIT 1", [user, writer], read)
                    ?? db.first("\(pick) AND \(order) LIMIT 1", [user], read)
            else { return nil }
            guard let kind = ChangeKind(rawValue: kindName) else { return nil }
            let word: CommandWord = undone ? .redo : .undo
            switch try Self.decode(rows) {
            case .pairs(let pairs):
                var steps: [ChangePair] = []
                for pair in undone ? pairs : pairs.reversed() {
                    let (from, to) = undone ? (pair.before, pair.after) : (pair.after, pair.before)
                    let current = try Self.stored(db, user, id: (from ?? to)?.id ?? 0)
                    steps.append(try Self.revert(current, from: from, to: to, by: word))
                }
                for step in steps { _ = try Self.change(db, user, step, as: word.rawValue) }
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
                if undone {
                    try Self.restoreImport(db, user, seq: seq, first: first, last: last, batch: batch)
                } else {
                    try Self.ensureUntouched(db, user, seq: seq, first: first, last: last)
                    try Self.takeAwayImport(db, user, seq: seq, first: first, last: last, batch: batch)
                }
                try Self.logImport(db, user, first: first, last: last, adding: undone, as: word.rawValue)
            }
            if undone {
                try db.run("UPDATE change SET undone = 0, undone_by = '' WHERE seq = ?", [seq])
            } else {
                try db.run(
                    """
                    UPDATE change SET undone_by = ?, undone = 1 + (SELECT max(undone) FROM change WHERE profile_id = \(Self.profileID))
                    WHERE seq = ?
                    """, [writer, user, seq])
            }
            return kind
        }
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
    /// of its tasks (the history is capped, so there are at most that many to read).
    private static func ensureUntouched(_ db: Connection, _ user: String, seq: Int64, first: Int, last: Int) throws {
        let later = try db.prepare(
            """
            SELECT rows FROM change WHERE profile_id = \(Self.profileID) AND undone = 0 AND seq > ? ORDER BY seq
            """
        ).all([user, seq]) { $0.text(0) }
        for text in later {
            guard case .pairs(let pairs) = try decode(text) else { continue }
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
            INSERT INTO undone_task (change_seq, id, position, title, notes, done, uuid, rev, parent)
            SELECT ?, id, position, title, notes, done, uuid, rev, parent FROM task WHERE id BETWEEN ? AND ? AND +profile_id = ?
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
            INSERT INTO task (id, profile_id, position, title, notes, done, uuid, rev, parent)
            SELECT id, ?, position, title, notes, done, uuid, rev, parent FROM undone_task WHERE change_seq = ? AND id BETWEEN ? AND ?
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

    static func encode(_ change: ChangeRecord) -> String {
        change.json
    }

    static func decode(_ text: String) throws -> ChangeRecord {
        guard let change = ChangeRecord(json: text) else {
            throw SQLiteError(code: SQLITE_CORRUPT, message: "a change record does not read back")
        }
        return change
    }
}
