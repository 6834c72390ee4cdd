import NavStackCore
import NavStackSync

/// What sync keeps beside the account's tasks (docs/sync.md): the operations of answers
/// that the account's key does not open, set aside, and the server log's restore epoch.
extension SQLiteStore {
    /// Keeps the operations of an answer that did not open (as they came, never applied)
    /// and returns how many were new, by replica, in the order first seen.
    static func setAside(_ db: Connection, profile: Int64, _ operations: [SyncOperation]) throws -> [(String, Int)] {
        guard !operations.isEmpty else { return [] }
        let insert = try db.statement(
            """
            INSERT OR IGNORE INTO sync_aside (profile_id, replica, seq, server_seq, millis, counter, sealed)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        var counts: [(String, Int)] = []
        for operation in operations {
            try insert.run([
                profile, operation.replica, operation.seq, operation.serverSeq, operation.millis, operation.counter,
                operation.sealed ?? "",
            ])
            guard db.changes > 0 else { continue }
            if let index = counts.firstIndex(where: { $0.0 == operation.replica }) {
                counts[index].1 += 1
            } else {
                counts.append((operation.replica, 1))
            }
        }
        return counts
    }

    /// How many operations the profile set aside, by replica (ordered by replica).
    public func syncAside(_ user: String) throws -> [(replica: String, count: Int)] {
        try reading { db in
            try db.prepare(
                """
                SELECT replica, count(*) FROM sync_aside WHERE profile_id = \(Self.profileID) GROUP BY replica ORDER BY replica
                """
            ).all([user]) { (replica: $0.text(0), count: $0.int(1)) }
        }
    }

    /// The server log's restore epoch the profile last saw; empty before its first answer
    /// that named one.
    public func syncEpoch(_ user: String) throws -> String {
        try reading { db in
            try db.first("SELECT epoch FROM sync WHERE profile_id = \(Self.profileID)", [user]) { $0.text(0) } ?? ""
        }
    }

    /// The server's log went back (restored from a backup: its epoch is now `epoch`): the
    /// profile pulls again from the start, and sends again every task it knows with the
    /// stamps its registers hold (``resendEveryTask(_:)``), so that what the server lost
    /// of this replica's, and of others' that this one holds, is there again. One
    /// transaction. Returns how many operations went in the outbox.
    @discardableResult
    public func restartSync(_ user: String, epoch: String) throws -> Int {
        var resent = 0
        try transaction {
            resent = try resendEveryTask(user)
            try writing { db in
                try db.run("UPDATE sync SET pulled = 0, epoch = ? WHERE profile_id = \(Self.profileID)", [epoch, user])
            }
        }
        return resent
    }
}
