import NavStackCore
import NavStackSync
import NavStackTime

/// How a task's stamps (`created`, `modified`, `completed`) travel (docs/sync.md,
/// "Stamps"): the store sets them as it writes, outside the operation log, so after each
/// round of local changes the stamps of the tasks it changed are compared with their
/// registers, and those that differ go out as operations of their own, stamped as the
/// change they follow.
extension SQLiteStore {
    /// SQL of a stamp column (seconds) as the ISO 8601 text operations carry, NULL when
    /// it holds none or one that text cannot carry (``FieldRules/isStamp(_:)``).
    static func isoText(_ column: String) -> String {
        "iif(\(column) BETWEEN -62167219200 AND 253402300799, strftime('%Y-%m-%dT%H:%M:%SZ', \(column), 'unixepoch'), NULL)"
    }

    /// Puts in the outbox and the registers, for each task `changed` names that is here,
    /// the stamps its row holds that its register does not: `modified` at the stamp of
    /// the task's last change, `completed` at that of its last `done` (also when its
    /// value is the register's, so that it follows the `done` that wins everywhere), and
    /// `created` at the last change's. A stamp that would not be later than the one the
    /// register holds for it takes the clock's next instead.
    static func emitStamps(
        _ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters, following changed: StampsToFollow
    ) throws {
        guard !changed.order.isEmpty else { return }
        let insert = try db.statement(
            "INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        let rows = try db.statement("SELECT created, modified, completed FROM task WHERE uuid = ? AND profile_id = ?")
        for uuid in changed.order {
            // A task whose last change made it carried the stamps its row holds (an import's
            // tasks, most of a first sync's): nothing to read.
            guard let follow = changed.tasks[uuid], !follow.created, var register = try registers.get(uuid), register.alive,
                let row = try rows.first(
                    [uuid, state.profile],
                    { row in
                        func instant(_ column: Int32) -> Instant? {
                            row.isNull(column) ? nil : Instant(secondsSinceEpoch: row.int64(column))
                        }
                        return TaskStamps(created: instant(0), modified: instant(1), completed: instant(2)).travelling
                    })
            else { continue }
            for field in StampField.allCases {
                let value = row[field]
                let at = register.taskStampsAt[field.index]
                var stamp = follow.last
                if field == .completed, let done = follow.done {
                    guard value != register.taskStamps[field] || at < done else { continue }
                    stamp = done
                } else {
                    guard value != register.taskStamps[field] else { continue }
                }
                if stamp <= at {
                    let next = state.clock.tick(Int(milliseconds()))
                    stamp = Stamp.text(millis: next.millis, counter: next.counter, replica: state.replica)
                }
                guard let (millis, counter) = Stamp.parts(of: stamp) else { continue }
                let change = SyncChange.stamp(field, value)
                state.outbox += 1
                let (json, old) = change.json
                try insert.run([state.profile, state.outbox, millis, counter, uuid, change.field.rawValue, json, old])
                _ = register.apply(change, at: stamp, replica: state.replica)
            }
            registers.set(register)
        }
    }

    /// Sends, once, the stamps of a profile that synced with a navstack from before they
    /// travelled (its `format` below 3): for each task here, the stamps this replica
    /// made go out at the stamps of the operations they belong to, as if those had
    /// carried them (`created` at its creation's, `modified` at the task's latest
    /// change's, `completed` at its `done`'s), when that operation is this replica's.
    /// A stamp this replica holds for another replica's operation (its earlier sync
    /// wrote the time of that sync) is kept in the register as no operation's: it goes
    /// nowhere, and the value the other replica sends replaces it.
    static func backfillStamps(_ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters) throws {
        let tasks = try db.prepare(
            """
            SELECT t.uuid, t.created, t.modified, t.completed FROM task AS t
            JOIN sync_register AS r ON r.profile_id = t.profile_id AND r.uuid = t.uuid
            WHERE t.profile_id = ? AND r.alive ORDER BY t.uuid
            """
        ).all([state.profile]) { row in
            func instant(_ column: Int32) -> Instant? {
                row.isNull(column) ? nil : Instant(secondsSinceEpoch: row.int64(column))
            }
            return (row.text(0), TaskStamps(created: instant(1), modified: instant(2), completed: instant(3)).travelling)
        }
        let insert = try db.statement(
            "INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for (uuid, stamps) in tasks {
            guard var register = try registers.get(uuid) else { continue }
            let latest = register.stamps.max() ?? ""
            for field in StampField.allCases {
                guard let value = stamps[field], register.taskStampsAt[field.index].isEmpty else { continue }
                let at: String? =
                    switch field {
                    case .created: register.aliveAt
                    case .modified: latest
                    case .completed: register.fields.done ? register.fieldsAt[SyncRegister.index(.done)] : nil
                    }
                guard let at, Stamp.replica(of: at) == state.replica, let (millis, counter) = Stamp.parts(of: at) else {
                    register.taskStamps[field] = value
                    continue
                }
                let change = SyncChange.stamp(field, value)
                state.outbox += 1
                let (json, old) = change.json
                try insert.run([state.profile, state.outbox, millis, counter, uuid, change.field.rawValue, json, old])
                _ = register.apply(change, at: at, replica: state.replica)
            }
            registers.set(register)
        }
    }
}

/// The tasks a round of local changes touched, in the order first touched, with the
/// stamp of each one's last change and of its last `done`, and whether the last made it
/// (a create carries the stamps the row has: the log keeps them with it).
struct StampsToFollow {
    var order: [String] = []
    var tasks: [String: (last: String, done: String?, created: Bool)] = [:]

    mutating func note(_ uuid: String, _ change: SyncChange, at stamp: String) {
        if tasks[uuid] == nil { order.append(uuid) }
        var task = tasks[uuid] ?? (last: stamp, done: nil, created: false)
        task.last = stamp
        if case .field(.done, _, _) = change { task.done = stamp }
        if case .create = change { task.created = true } else { task.created = false }
        tasks[uuid] = task
    }
}

extension TaskStamps {
    /// Those a stamp operation can carry (``FieldRules/isStamp(_:)``): the others as none.
    var travelling: TaskStamps {
        var kept = self
        for field in StampField.allCases where kept[field].map(FieldRules.isStamp) == false { kept[field] = nil }
        return kept
    }
}
