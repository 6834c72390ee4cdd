import NavStackCore
import NavStackSync

extension SQLiteStore {
    // MARK: - Registers to tasks

    static func stored(_ db: Connection, _ user: String, uuid: String) throws -> StoredTask? {
        try db.first("SELECT \(storedColumns) FROM task WHERE uuid = ? AND profile_id = \(profileID)", [uuid, user], storedTask)
    }

    /// Makes the tasks of the `touched` registers what the registers say: created (with
    /// this store's next id), changed, moved or deleted, parents first. A task whose
    /// parent is gone stands at the top of the list until it comes back; a task of a
    /// cycle of moves whose move is the latest goes back where that move took it from.
    /// None of this is logged as this replica's own operations. `unknown`: tasks this
    /// replica had no register for before (none of them stands here yet).
    static func place(
        _ db: Connection, _ user: String, _ state: SyncState, _ touched: [String],
        _ registers: SyncRegisters, unknown: Set<String> = []
    ) throws {
        var queue = touched
        var placed: Set<String> = []
        var unknown = unknown
        var index = 0
        // The tasks kept away from the parent their register names (gone, or a move
        // dropped), written back at the end; a task waiting for its parent is one of them.
        let wasDisplaced = Set(try db.prepare("SELECT uuid FROM sync_displaced WHERE profile_id = ?").all([state.profile]) { $0.text(0) })
        var displaced = wasDisplaced
        // New tasks at the top, counted once at the end.
        var atTop = Tally()
        func localID(_ uuid: String) throws -> Int? {
            try db.first("SELECT id FROM task WHERE uuid = ? AND profile_id = ?", [uuid, state.profile]) { $0.int(0) }
        }
        func place(_ uuid: String) throws {
            guard placed.insert(uuid).inserted, let register = try registers.get(uuid) else { return }
            let local = unknown.contains(uuid) ? nil : try stored(db, user, uuid: uuid)
            guard register.alive else {
                displaced.remove(uuid)
                guard let local else { return }
                // Its subtasks here go first: those deleted too, or to the top.
                let children = try db.prepare("SELECT uuid FROM task WHERE parent = ? AND profile_id = ?")
                    .all([local.id ?? 0, state.profile]) { $0.text(0) }
                for child in children {
                    placed.remove(child)
                    try place(child)
                    if try localID(child) != nil, let current = try stored(db, user, uuid: child), current.parent == local.id {
                        var top = current
                        top.parent = 0
                        top.rev += 1
                        _ = try put(db, user, top, replacing: current, profile: state.profile, keepingStamps: true)
                    }
                }
                _ = try put(db, user, nil, replacing: local, profile: state.profile)
                return
            }
            var task = StoredTask(id: local?.id, position: register.position, uuid: uuid, register.fields)
            // Its stamps are the registers' too (format 3), as every replica holds them: no
            // `completed` while it is open.
            task.stamps = register.taskStamps
            if !task.fields.done { task.stamps.completed = nil }
            if local == nil && register.parent == nil {
                // A new task at the top: its row now, the counts once for all of them.
                try insertRow(db, user, task)
                atTop.add(task)
                unknown.remove(uuid)
                displaced.remove(uuid)
                return
            }
            var parentID = 0
            let effective = try register.effectiveParent(in: registers, queue: &queue)
            if let parent = effective {
                if let id = try localID(parent) {
                    parentID = id
                } else {
                    try place(parent)
                    parentID = try localID(parent) ?? 0
                }
            }
            // Never under itself here, whatever order tasks are placed in: a parent not
            // placed yet may still stand under this task.
            if parentID != 0, let local, try chain(db, user, id: parentID).contains(where: { $0.id == local.id }) {
                parentID = 0
            }
            // A task kept away from its register's parent (gone, or a move dropped) is
            // placed again after each answer: what kept it away may change.
            if parentID == 0 && register.parent != nil || parentID != 0 && register.parent != effective {
                displaced.insert(uuid)
            } else {
                displaced.remove(uuid)
            }
            task.parent = parentID
            if let local {
                if local.parent != parentID, let id = local.id {
                    // Its subtasks now stand elsewhere in the tree: each is placed again, so a
                    // level that no longer fits under the limit goes to the top here as it
                    // does on every replica.
                    let below = try db.prepare(
                        """
                        WITH RECURSIVE down(id) AS (SELECT id FROM task WHERE parent = ?1
                            UNION ALL SELECT t.id FROM task AS t JOIN down ON t.parent = down.id)
                        SELECT uuid FROM task WHERE id IN (SELECT id FROM down)
                        """
                    ).all([id]) { $0.text(0) }
                    placed.subtract(below)
                    queue += below
                }
                if local.fields != task.fields || local.parent != parentID || local.position != task.position
                    || local.stamps != task.stamps
                {
                    task.rev = local.rev + 1
                    _ = try put(db, user, task, replacing: local, profile: state.profile, keepingStamps: true)
                }
            } else {
                _ = try put(db, user, task, replacing: nil, profile: state.profile, keepingStamps: true)
                unknown.remove(uuid)
            }
        }
        // The tasks kept away from their parents are placed again last, when every
        // register of this answer is in (twice: one may wait for another): those waiting
        // for a parent that came or came back go under it.
        for pass in 0..<3 {
            while index < queue.count {
                let uuid = queue[index]
                index += 1
                try place(uuid)
            }
            guard pass < 2 else { break }
            for uuid in displaced.sorted() {
                placed.remove(uuid)
                queue.append(uuid)
            }
        }
        try atTop.write(db, user)
        for uuid in wasDisplaced.subtracting(displaced).sorted() {
            try db.statement("DELETE FROM sync_displaced WHERE profile_id = ? AND uuid = ?").run([state.profile, uuid])
        }
        for uuid in displaced.subtracting(wasDisplaced).sorted() {
            try db.statement("INSERT INTO sync_displaced (profile_id, uuid) VALUES (?, ?)").run([state.profile, uuid])
        }
    }

    /// New tasks at the top of a profile's list, counted in the profile once.
    private struct Tally {
        var total = 0
        var done = 0
        var top = Int.max
        var bottom = Int.min

        mutating func add(_ task: StoredTask) {
            total += 1
            done += task.fields.done ? 1 : 0
            top = min(top, task.position)
            bottom = max(bottom, task.position)
        }

        func write(_ db: Connection, _ user: String) throws {
            guard total > 0 else { return }
            try db.run(
                """
                UPDATE profile SET total = total + ?1, done = done + ?2, roots = roots + ?1, roots_done = roots_done + ?2,
                    top = min(top, ?3), bottom = max(bottom, ?4) WHERE name = ?5
                """, [total, done, top, bottom, user])
        }
    }
}
