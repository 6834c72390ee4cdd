import NavStackCore
import NavStackSync

extension SQLiteStore {
    /// How the operations the server has not taken are given new stamps.
    public enum Restamp: Sendable {
        /// The server holds this replica's (replica, seq) with other content: the store was
        /// restored from a backup or copied. The replica takes a new id, its unsent
        /// operations are numbered again from 1 under it (same clock), and it pulls the
        /// account's whole log again, its old id's operations included.
        case newReplica
        /// The server refused stamps ahead of its clock, and this machine's clock (`wall`)
        /// is right again: the unsent operations are stamped again from it.
        case clockSetBack(wall: Int)
    }

    /// Gives the operations the server has not acknowledged new stamps, in the outbox
    /// and in the registers that hold them, in one transaction. Returns how many.
    @discardableResult
    public func restampUnsent(_ user: String, _ how: Restamp) throws -> Int {
        try writing { db in
            var (state, registers) = try Self.stampLocalChanges(db, user)
            let rows = try db.prepare(
                """
                SELECT seq, millis, counter, task, field, value, old FROM sync_outbox WHERE profile_id = ? AND seq > ? ORDER BY seq
                """
            ).all([state.profile, state.sent]) { row in
                (
                    seq: row.int(0), millis: row.int(1), counter: row.int(2), task: row.text(3), field: row.text(4),
                    value: row.text(5), old: row.text(6)
                )
            }
            let oldReplica = state.replica
            var clock = state.clock
            switch how {
            case .newReplica:
                state.replica = Self.newReplicaID()
            case .clockSetBack(let wall):
                clock = SyncClock(millis: wall)
                // Never before a stamp of another replica this one has seen that is not
                // itself ahead of the time.
                if let seen = try Self.latestStamp(db, state.profile, before: wall + SyncDrift.maximumMillis, except: oldReplica) {
                    clock.observe(millis: seen.millis, counter: seen.counter)
                }
            }
            var renamed: [String: String] = [:]
            try db.run("DELETE FROM sync_outbox WHERE profile_id = ?", [state.profile])
            let insert = try db.statement(
                """
                INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            // Operations that shared a stamp (a task's stamps and the change they follow)
            // share their new one.
            var restamped: [String: (millis: Int, counter: Int)] = [:]
            for (index, row) in rows.enumerated() {
                var stamp = (millis: row.millis, counter: row.counter)
                if case .clockSetBack(let wall) = how {
                    let old = Stamp.text(millis: row.millis, counter: row.counter, replica: oldReplica)
                    if let again = restamped[old] {
                        stamp = again
                    } else {
                        stamp = clock.tick(wall)
                        restamped[old] = stamp
                    }
                }
                let seq = if case .newReplica = how { index + 1 } else { row.seq }
                renamed[Stamp.text(millis: row.millis, counter: row.counter, replica: oldReplica)] =
                    Stamp.text(millis: stamp.millis, counter: stamp.counter, replica: state.replica)
                try insert.run([state.profile, seq, stamp.millis, stamp.counter, row.task, row.field, row.value, row.old])
            }
            for uuid in Set(rows.map(\.task)).sorted() {
                guard var register = try registers.get(uuid) else { continue }
                func rename(_ stamp: inout String) { if let new = renamed[stamp] { stamp = new } }
                rename(&register.aliveAt)
                for index in register.fieldsAt.indices { rename(&register.fieldsAt[index]) }
                for (field, elements) in register.elements {
                    for key in elements.keys { rename(&register.elements[field]![key]!.at) }
                }
                rename(&register.parentAt)
                rename(&register.positionAt)
                for index in register.taskStampsAt.indices { rename(&register.taskStampsAt[index]) }
                registers.set(register)
            }
            try registers.write()
            switch how {
            case .newReplica:
                state.outbox = rows.count
                state.sent = 0
                state.pulled = 0
            case .clockSetBack:
                state.clock = clock
            }
            try Self.save(db, state)
            return rows.count
        }
    }

    /// The latest stamp of another replica in the registers earlier than `bound` millis.
    private static func latestStamp(_ db: Connection, _ profile: Int64, before bound: Int, except replica: String) throws
        -> (millis: Int, counter: Int)?
    {
        let limit = Stamp.text(millis: bound, counter: 0, replica: "")
        let latest =
            try db.first(
                """
                SELECT max(stamp) FROM (
                    SELECT alive_at AS stamp FROM sync_register WHERE profile_id = ?1
                    UNION ALL SELECT title_at FROM sync_register WHERE profile_id = ?1
                    UNION ALL SELECT notes_at FROM sync_register WHERE profile_id = ?1
                    UNION ALL SELECT done_at FROM sync_register WHERE profile_id = ?1
                    UNION ALL SELECT parent_at FROM sync_register WHERE profile_id = ?1
                    UNION ALL SELECT position_at FROM sync_register WHERE profile_id = ?1)
                WHERE stamp < ?2 AND stamp != '=' AND substr(stamp, 26) != ?3
                """, [profile, limit, replica]
            ) { $0.optionalText(0) } ?? nil
        guard let latest, latest.utf8.count >= 25, let millis = Int(latest.prefix(15)),
            let counter = Int(latest.dropFirst(15).prefix(10))
        else { return nil }
        return (millis, counter)
    }
}
