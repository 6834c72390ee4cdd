import NavStackCore
import NavStackSync
import NavStackTime

extension SQLiteStore {
    /// Makes a change of one task and logs its operations with `log`: the pair as made
    /// (an inserted task with its id).
    static func change(_ db: Connection, _ user: String, _ pair: ChangePair, _ log: inout ChangeLog) throws -> ChangePair {
        let made = ChangePair(
            before: pair.before, after: try put(db, user, pair.after, replacing: pair.before, profile: log.profile))
        try Self.log(db, user, made, &log)
        return made
    }

    /// Makes the store hold `task` where it held `old`: an update, an insert (`old` nil)
    /// or a delete (`task` nil). Returns `task` as stored (an inserted one with its id).
    /// `keepingStamps`: with the stamps `task` has (sync's, from the registers), not the
    /// store's.
    static func put(
        _ db: Connection, _ user: String, _ task: StoredTask?, replacing old: StoredTask?, profile: Int64,
        keepingStamps: Bool = false
    ) throws -> StoredTask? {
        switch (old, task) {
        case (nil, nil):
            return nil
        case (nil, let task?):
            return try insert(db, user, task, keepingStamps: keepingStamps)
        case (let old?, nil):
            try db.run("DELETE FROM task WHERE id = ? AND profile_id = \(Self.profileID)", [old.id, user])
            try db.run("UPDATE profile SET total = total - 1, done = done - ? WHERE name = ?", [old.fields.done ? 1 : 0, user])
            try countSubtask(db, user, parent: old.parent, total: -1, done: old.fields.done ? -1 : 0)
            return nil
        case (let old?, let task?):
            let task = keepingStamps ? task : stamped(task, replacing: old, at: db.now)
            let moved = task.position != old.position || task.parent != old.parent
            // A task that keeps its place (most changes) leaves its index entries in list
            // order alone.
            if moved {
                try db.run(
                    """
                    UPDATE task SET title = ?, notes = ?, done = ?, rev = ?, parent = ?, position = ?, \(attributeAssignments)
                    WHERE id = ? AND profile_id = \(Self.profileID)
                    """,
                    [task.fields.title, task.fields.notes, task.fields.done, task.rev, task.parent, task.position]
                        + attributeArguments(task.fields, task.stamps) + [old.id, user])
                try db.run(
                    "UPDATE profile SET top = min(top, ?), bottom = max(bottom, ?) WHERE name = ?",
                    [task.position, task.position, user])
            } else if !task.fields.hasSameAttributes(as: old.fields) || task.stamps.created != old.stamps.created
                || task.stamps.completed != old.stamps.completed && task.fields.done == old.fields.done
            {
                // What the task holds beyond its first fields changed: every column.
                try db.statement(updateAll).run {
                    $0.text(task.fields.title)
                    $0.text(task.fields.notes)
                    $0.bool(task.fields.done)
                    $0.int(task.rev)
                    $0.attributes(task.fields, task.stamps)
                    $0.int(old.id)
                    $0.int(profile)
                }
            } else if task.fields.done != old.fields.done {
                // A toggle: the first fields and the stamps it moves.
                try db.statement(updateInPlace).run {
                    $0.text(task.fields.title)
                    $0.text(task.fields.notes)
                    $0.bool(task.fields.done)
                    $0.int(task.rev)
                    $0.int(task.stamps.modified?.secondsSinceEpoch)
                    $0.int(task.stamps.completed?.secondsSinceEpoch)
                    $0.int(old.id)
                    $0.int(profile)
                }
            } else {
                // `done` is in the list-order index: a statement that sets it rewrites the
                // task's entry there, though its value stays (a sixth of a save's SQL).
                try db.statement(updateText).run {
                    $0.text(task.fields.title)
                    $0.text(task.fields.notes)
                    $0.int(task.rev)
                    $0.int(task.stamps.modified?.secondsSinceEpoch)
                    $0.int(old.id)
                    $0.int(profile)
                }
            }
            let delta = (task.fields.done ? 1 : 0) - (old.fields.done ? 1 : 0)
            if delta != 0 && task.parent == 0 && old.parent == 0 {
                // A task at the top, done or not done: the profile's two counts at once.
                try db.statement(countRootDone).run {
                    $0.int(delta)
                    $0.int(profile)
                }
            } else {
                if delta != 0 {
                    try db.run("UPDATE profile SET done = done + ? WHERE name = ?", [delta, user])
                }
                if task.parent != old.parent {
                    try countSubtask(db, user, parent: old.parent, total: -1, done: old.fields.done ? -1 : 0)
                    try countSubtask(db, user, parent: task.parent, total: 1, done: task.fields.done ? 1 : 0)
                } else if delta != 0 {
                    try countSubtask(db, user, parent: task.parent, total: 0, done: delta)
                }
            }
            var written = task
            written.subtasks = old.subtasks
            return written
        }
    }

    /// The statements of a change that leaves a task in its place (most changes).
    static let updateInPlace = SQL(
        "UPDATE task SET title = ?, notes = ?, done = ?, rev = ?, modified = ?, completed = ? WHERE id = ? AND profile_id = ?")
    static let updateText = SQL("UPDATE task SET title = ?, notes = ?, rev = ?, modified = ? WHERE id = ? AND profile_id = ?")
    static let updateAll = SQL(
        "UPDATE task SET title = ?, notes = ?, done = ?, rev = ?, \(attributeAssignments) WHERE id = ? AND profile_id = ?")
    static let countRootDone = SQL("UPDATE profile SET done = done + ?1, roots_done = roots_done + ?1 WHERE id = ?2")

    // MARK: - The operation log

    /// The columns an operation is appended with.
    static let appended = "INSERT INTO op (profile_id, kind, task_uuid, field, old, new, millis, part, writer)"
    static let appendOperation = SQL("\(appended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    /// A parent's uuid as an operation names it (JSON; null: the top of the list), from
    /// its id.
    static let parentUUID = "coalesce((SELECT json_quote(uuid) FROM task WHERE id = ?), 'null')"

    /// A task as the log last saw it deleted (a `task` operation's old value).
    static func lastDeleted(_ db: Connection, uuid: String) throws -> StoredTask? {
        try db.first(
            "SELECT old FROM op WHERE task_uuid = ? AND field = 'task' AND new IS NULL ORDER BY seq DESC LIMIT 1", [uuid]
        ) { JSONValue(parsing: $0.text(0)).flatMap(StoredTask.init(json:)) } ?? nil
    }

    /// Appends a change's operations to the log: `task` for a task created (`old` null,
    /// `new` the task) or deleted (the other way round), else one operation a field it
    /// set, with the old and new values as JSON. The log is also what `undo` and `redo`
    /// read (``ChangeLog``).
    static func log(_ db: Connection, _ user: String, _ pair: ChangePair, _ log: inout ChangeLog) throws {
        let insert = try db.statement(appendOperation)
        let now = Int(milliseconds())
        func append(_ uuid: String, _ field: String, _ old: String?, _ new: String?) throws {
            let (part, writer) = log.next()
            try insert.run {
                $0.int(log.profile)
                $0.text(log.kind)
                $0.text(uuid)
                $0.text(field)
                $0.text(old)
                $0.text(new)
                $0.int(now)
                $0.int(part)
                $0.text(writer)
            }
        }
        switch (pair.before, pair.after) {
        case (nil, nil):
            return
        case (nil, let after?):
            try append(after.uuid, "task", nil, after.json)
        case (let before?, nil):
            try append(before.uuid, "task", before.json, nil)
        case (let before?, let after?):
            for field in after.fields.changedFields(from: before.fields) {
                try append(after.uuid, field.rawValue, before.fields[field].json, after.fields[field].json)
            }
            if after.parent != before.parent {
                // The parents by uuid (null: the top of the list), as other stores know them.
                let (part, writer) = log.next()
                try db.run(
                    """
                    \(appended) VALUES (?, ?, ?, 'parent', \(parentUUID), \(parentUUID), ?, ?, ?)
                    """, [log.profile, log.kind, after.uuid, before.parent, after.parent, now, part, writer])
            }
            if after.position != before.position {
                if after.parent == before.parent {
                    // For undo alone (never sent): the parent it stayed under, which undoing
                    // the move checks it still is.
                    let (part, writer) = log.next()
                    try db.run(
                        """
                        \(appended) VALUES (?, ?, ?, 'under', NULL, \(parentUUID), ?, ?, ?)
                        """, [log.profile, log.kind, after.uuid, after.parent, now, part, writer])
                }
                // Its place among its new siblings, for another store to order them alike.
                try append(after.uuid, "position", String(before.position), String(after.position))
            }
        }
    }

    /// Logs an import or its undoing: one operation for the range of ids it added
    /// (`new` the range when they come, `old` when they go).
    static func logImport(_ db: Connection, _ user: String, first: Int, last: Int, adding: Bool, _ log: inout ChangeLog) throws {
        let range = "{\"first\":\(first),\"last\":\(last)}"
        let (part, writer) = log.next()
        try db.run(
            "\(appended) VALUES (?, ?, NULL, 'import', ?, ?, ?, ?, ?)",
            [log.profile, log.kind, adding ? nil : range, adding ? range : nil, Int(milliseconds()), part, writer])
    }
}
