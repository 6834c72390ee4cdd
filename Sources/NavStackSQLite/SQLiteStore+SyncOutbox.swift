import NavStackCore
import NavStackSync

extension SQLiteStore {
    /// How many operations one request sends at most (the server takes 10,000).
    public static let syncBatch = SyncLimits.maximumOperationsPerRequest

    // MARK: - One round

    /// The next request: local changes made since the last one get their stamps and go
    /// to the outbox (the first time, every task as it is), and up to `limit` of those
    /// the server has not acknowledged (and ``SyncLimits/maximumRequestBytes`` of them)
    /// are sent, with the last server sequence applied. `after`: the last operation of a
    /// request sent already, whose answer is not applied yet (the next goes on from there).
    public func syncRequest(_ user: String, after sent: Int? = nil, limit: Int = syncBatch) throws -> SyncBatch {
        try writing { db in
            let (state, _) = try Self.stampLocalChanges(db, user)
            let from = sent ?? state.sent
            let rows = try db.prepare(
                """
                SELECT seq, millis, counter, task, field, value, old FROM sync_outbox
                WHERE profile_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """
            ).all([state.profile, from, limit + 1]) { row in
                // The outbox holds only fields this replica wrote.
                SyncOperation(
                    seq: Int64(row.int(0)), millis: Int64(row.int(1)), counter: Int64(row.int(2)), task: row.text(3),
                    field: SyncField(rawValue: row.text(4)) ?? .task, value: row.text(5), old: row.text(6))
            }
            let count = SyncLimits.fitting(rows, count: limit, bytes: SyncLimits.maximumRequestBytes)
            let sending = Array(rows.prefix(count))
            var request = SyncRequest(replica: state.replica, after: Int64(state.pulled), operations: sending)
            request.aside = try Self.asideReplicas(db, profile: state.profile)
            return SyncBatch(request: request, through: sending.last.map { Int($0.seq) } ?? from, more: rows.count > count)
        }
    }

    // MARK: - Snapshots

    /// The profile's registers and the `server_seq` they cover through, when a snapshot is
    /// due (``SyncSnapshot/isDue(since:registers:least:)``, the account having taken `since`
    /// operations since its last) and this replica has everything and nothing to send: its
    /// local changes stamped, every one of them acknowledged (`ownSeq`: the last), and the
    /// account pulled through its last answer; and only when its seal may fit `limit`
    /// (``SyncSnapshot/mayFit(registers:textBytes:within:)``): the registers are not read
    /// for one that could not be sent.
    public func syncSnapshot(
        _ user: String, since: Int64, least: Int = SyncSnapshot.leastOperations, within limit: Int = SyncSnapshot.maximumSealedBytes
    ) throws -> (
        seq: Int64, ownSeq: Int64, registers: [SyncRegister]
    )? {
        try writing { db in
            let (state, _) = try Self.stampLocalChanges(db, user)
            guard state.outbox == state.sent, state.pulled > 0 else { return nil }
            // Whether one may fit and is due, from what costs least to know: the tasks there
            // are (each has a register and a uuid of 36 bytes), how many registers, and
            // about the bytes of their content; then they are read.
            let tasks = try db.first("SELECT total FROM profile WHERE id = ?", [state.profile]) { $0.int(0) } ?? 0
            guard SyncSnapshot.mayFit(registers: tasks, textBytes: 36 * tasks, within: limit) else { return nil }
            let count = try db.first("SELECT count(*) FROM sync_register WHERE profile_id = ?", [state.profile]) { $0.int(0) } ?? 0
            guard SyncSnapshot.isDue(since: since, registers: count, least: least) else { return nil }
            let bytes =
                try db.first(
                    """
                    SELECT coalesce(sum(length(CAST(uuid AS BLOB)) + length(CAST(title AS BLOB)) + length(CAST(notes AS BLOB))
                        + coalesce(length(parent), 0) + coalesce(length(parent_old), 0)), 0)
                    FROM sync_register WHERE profile_id = ?
                    """, [state.profile]
                ) { $0.int(0) } ?? 0
            guard SyncSnapshot.mayFit(registers: count, textBytes: bytes, within: limit) else { return nil }
            return (Int64(state.pulled), Int64(state.sent), try SyncRegisters.all(db, profile: state.profile))
        }
    }

    // MARK: - Local changes to operations

    /// Gives the profile's local changes since the last request their stamps and puts
    /// them in the outbox, as ``syncRequest(_:after:limit:)`` does first: a sync that
    /// waits on something else (a key being derived) does it meanwhile.
    public func stampSyncChanges(_ user: String) throws {
        try writing { db in _ = try Self.stampLocalChanges(db, user) }
    }

    /// ``stampLocalChanges(_:_:_:)`` for the profile, its registers written and its state
    /// saved: what a step that goes on from the outbox does first. Returns the state and
    /// the registers it read, to go on with.
    static func stampLocalChanges(_ db: Connection, _ user: String) throws -> (SyncState, SyncRegisters) {
        var state = try syncState(db, user)
        let registers = SyncRegisters(db, profile: state.profile)
        try stampLocalChanges(db, &state, registers)
        try registers.write()
        try save(db, state)
        return (state, registers)
    }

    /// Gives the profile's local operations since the last call their stamps, in the
    /// order they were made, puts them in the outbox in the form other replicas read
    /// (tasks by uuid) and in the registers. The first time, every task as it is now
    /// (parents first) stands for the history before it.
    static func stampLocalChanges(_ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters) throws {
        let last = try db.first("SELECT max(seq) FROM op", []) { $0.int(0) } ?? 0
        if state.format < SyncFormat.current {
            // A profile that synced before the stamps travelled sends them first.
            if state.stamped >= 0 { try backfillStamps(db, &state, registers) }
            state.format = SyncFormat.current
        }
        if state.stamped < 0 {
            try emitCreates(
                db, &state, registers, madeAt: Int(milliseconds()),
                of: """
                    WITH RECURSIVE down(id, level) AS (
                        SELECT id, 0 FROM task WHERE profile_id = ?1 AND parent = 0
                        UNION ALL SELECT t.id, down.level + 1 FROM task AS t JOIN down ON t.parent = down.id
                        WHERE t.profile_id = ?1 AND down.level < \(TreeLimits.depth))
                    SELECT \(createColumns), down.level AS k1, t.id AS k2 FROM down JOIN task AS t ON t.id = down.id LEFT JOIN task AS p ON p.id = t.parent
                    """)
            state.stamped = last
            return
        }
        guard last > state.stamped else { return }
        let ops = try db.prepare(
            """
            SELECT seq, task_uuid, field, old, new, millis FROM op
            WHERE profile_id = ? AND seq > ? AND field NOT IN \(undoOnlyFields) ORDER BY seq
            """
        ).all([state.profile, state.stamped]) { row in
            (row.text(1), row.text(2), row.optionalText(3), row.optionalText(4), row.int(5))
        }
        // The changes each task took, for the stamps that follow them.
        var changed = StampsToFollow()
        for (uuid, field, old, new, millis) in ops {
            if field == "import", let (first, last) = importRange(new) {
                // The tasks it added, as they are now.
                try emitCreates(
                    db, &state, registers, madeAt: millis,
                    of: """
                        SELECT \(createColumns), 0 AS k1, t.id AS k2 FROM task AS t LEFT JOIN task AS p ON p.id = t.parent
                        WHERE t.id BETWEEN \(first) AND \(last) AND t.profile_id = ?1
                        """)
                continue
            }
            for (uuid, change) in try changes(db, state.profile, uuid: uuid, field: field, old: old, new: new) {
                let stamp = try emit(db, &state, registers, uuid, change, madeAt: millis)
                changed.note(uuid, change, at: stamp)
            }
        }
        try emitStamps(db, &state, registers, following: changed)
        state.stamped = last
    }

    /// The operations one local log entry stands for.
    private static func changes(
        _ db: Connection, _ profile: Int64, uuid: String, field: String,
        old: String?, new: String?
    ) throws -> [(String, SyncChange)] {
        func value(_ text: String?) -> JSONValue { text.flatMap { JSONValue(parsing: $0) } ?? .null }
        switch field {
        case "task":
            if let new, let task = StoredTask(json: value(new)) {
                return [(uuid, .create(try syncTask(db, task)))]
            }
            let gone = StoredTask(json: value(old))
            return [(uuid, .delete(old: try gone.map { try syncTask(db, $0) }))]
        case "import":
            // An import's undoing (one adding tasks is stamped set-wise).
            if let (first, last) = importRange(old) {
                return try db.prepare("SELECT DISTINCT uuid FROM undone_task WHERE id BETWEEN ? AND ? ORDER BY id DESC")
                    .all([first, last]) { ($0.text(0), .delete(old: nil)) }
            }
            return []
        default:
            guard let field = SyncField(rawValue: field), let change = SyncChange(field: field, value: value(new), old: value(old))
            else { return [] }
            return [(uuid, change)]
        }
    }

    /// The ids an `import` operation's `new` (tasks added) or `old` (tasks taken away) names.
    static func importRange(_ text: String?) -> (first: Int, last: Int)? {
        guard let range = text.flatMap({ JSONValue(parsing: $0) }), let first = range["first"]?.number,
            let last = range["last"]?.number
        else { return nil }
        return (first, last)
    }

    /// The columns of a task `t` and its parent `p` that ``emitCreates(_:_:_:madeAt:of:)``
    /// reads, named as its `SyncTask` JSON has them.
    private static let createColumns = """
        t.uuid AS uuid, t.title AS title, t.notes AS notes, t.done AS done, p.uuid AS parent, t.position AS position,
        t.created AS created, t.modified AS modified, t.completed AS completed,
        (t.due IS NOT NULL OR t.scheduled IS NOT NULL OR t.wait IS NOT NULL OR t.until IS NOT NULL OR t.priority IS NOT NULL
            OR t.project IS NOT NULL OR t.recur IS NOT NULL OR t.tags != '' OR t.annotations != '' OR t.depends != ''
            OR t.fields != '') AS more
        """

    /// Puts in the outbox, stamped, the operations that create the tasks of `rows` (a
    /// query of ``createColumns`` and two ordering keys `k1`, `k2`; `?1` the profile) as they are,
    /// in the keys' order, and sets their registers: the set-wise form of ``emit`` for
    /// creates. A local stamp is later than any the register holds, so the create sets
    /// every field of it, as ``SyncRegister/apply(_:at:replica:)`` would.
    private static func emitCreates(
        _ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters,
        madeAt millis: Int, of rows: String
    ) throws {
        // Registers set before go in first; the ones written here are read again.
        try registers.write()
        var clock = state.clock
        let stamp = clock.tick(millis)
        let from = state.outbox
        try db.prepare(
            """
            INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old)
            SELECT ?1, ?2 + n, ?3, ?4 + n - 1, uuid, 'task',
                json_patch(
                    json_object('title', title, 'notes', notes, 'done', json(iif(done, 'true', 'false')), 'parent', parent,
                                'position', position),
                    -- The stamps, those set (a member patched in as null is left out).
                    json_object('created', \(isoText("created")), 'modified', \(isoText("modified")),
                                'completed', \(isoText("completed")))), 'null'
            FROM (SELECT row_number() OVER (ORDER BY k1, k2) AS n, * FROM (\(rows)))
            """
        ).run([state.profile, from, stamp.millis, stamp.counter])
        let count = Int(db.changes)
        guard count > 0 else { return }
        try db.prepare(
            """
            INSERT OR REPLACE INTO sync_register (profile_id, uuid, alive, alive_at, title, title_at, notes, notes_at, done, done_at,
                parent, parent_old, parent_at, position, position_at, more)
            SELECT profile_id, task, 1, \(Stamp.sql(millis: "millis", counter: "counter", replica: "?4")),
                json_extract(value, '$.title'), ?5, json_extract(value, '$.notes'), ?5, json_extract(value, '$.done'), ?5,
                json_extract(value, '$.parent'), NULL, ?5, json_extract(value, '$.position'), ?5,
                -- The stamps the create carries, at its stamp, as ``SyncRegisters/more(of:)`` keeps them.
                coalesce(nullif((
                    SELECT json_group_array(json_array(j.key, \(Stamp.sql(millis: "o.millis", counter: "o.counter", replica: "?4")), j.value))
                    FROM json_each(o.value) AS j WHERE j.key IN ('created', 'modified', 'completed')), '[]'), '')
            FROM sync_outbox AS o WHERE profile_id = ?1 AND seq > ?2 AND seq <= ?3
            """
        ).run([state.profile, from, from + count, state.replica, SyncRegisters.sameAsAlive])
        registers.forget()
        state.outbox += count
        state.clock = SyncClock(millis: stamp.millis, counter: stamp.counter + count - 1)
        // What the creates above leave out, format 2's fields, follows as one operation a
        // field set (few tasks of a first sync or an import have any).
        let more = try db.prepare("SELECT uuid FROM (\(rows)) WHERE more ORDER BY k1, k2").all([state.profile]) { $0.text(0) }
        for uuid in more {
            guard
                let task = try db.first(
                    "SELECT \(storedColumns) FROM task WHERE uuid = ? AND profile_id = ?", [uuid, state.profile], storedTask)
            else { continue }
            for field in TaskField.allCases.dropFirst(3) where task.fields[field] != DraftFields()[field] {
                let old = field.isSet ? FieldValue.set(field, items: []) : nil
                try emit(db, &state, registers, uuid, .field(field, task.fields[field], old: old), madeAt: millis)
            }
        }
    }

    /// A stored task as operations carry it: its parent by uuid (one brought back by a
    /// later undo may be in `undone_task`).
    private static func syncTask(_ db: Connection, _ task: StoredTask) throws -> SyncTask {
        var parent: String?
        if task.parent != 0 {
            parent =
                try db.first("SELECT uuid FROM task WHERE id = ?", [task.parent]) { $0.text(0) }
                ?? db.first("SELECT uuid FROM undone_task WHERE id = ?", [task.parent]) { $0.text(0) }
        }
        return SyncTask(fields: task.fields, parent: parent, position: task.position, stamps: task.stamps.travelling)
    }

    /// Puts one local operation in the outbox, stamped, and in the task's register.
    /// Returns its stamp.
    @discardableResult
    private static func emit(
        _ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters, _ uuid: String,
        _ change: SyncChange, madeAt millis: Int
    ) throws -> String {
        let stamp = state.clock.tick(millis)
        state.outbox += 1
        let (value, old) = change.json
        try db.statement(
            """
            INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run([state.profile, state.outbox, stamp.millis, stamp.counter, uuid, change.field.rawValue, value, old])
        var register = try registers.get(uuid) ?? SyncRegister(uuid: uuid)
        let text = Stamp.text(millis: stamp.millis, counter: stamp.counter, replica: state.replica)
        _ = register.apply(change, at: text, replica: state.replica)
        registers.set(register)
        return text
    }
}

/// One request as the store made it, and what it stands for in the outbox.
public struct SyncBatch: Sendable {
    public var request: SyncRequest
    /// The replica's own sequence number of the last operation sent (or of the last
    /// one the server already had, when there is none new).
    public var through: Int
    /// Operations wait in the outbox after these.
    public var more: Bool

    /// How many operations it carries.
    public var count: Int { request.operations.count }
}
