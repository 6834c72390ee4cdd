import NavStackCore
import NavStackSync

/// What sync keeps beside the account's tasks (docs/sync.md): the operations of answers
/// that the account's key does not open, set aside, and the server log's restore epoch.
/// How much a profile keeps set aside: operations that did not open are kept to be looked
/// at, never applied, so a token holder who sends garbage must not fill the device. Past
/// either bound they are counted (the notice names their replica) and not kept, and the
/// sync says so once (`sync.asideFull`).
public enum SyncAsideBound {
    /// The most operations kept set aside, for a profile.
    public static let operations = 10_000
    /// The most bytes of sealed text kept set aside, for a profile: 4 MiB.
    public static let bytes = 4 << 20
}

extension SQLiteStore {
    /// Keeps the operations of an answer that did not open (as they came, never applied),
    /// within ``SyncAsideBound``, and returns how many were new or not kept, by replica,
    /// in the order first seen, and whether the bound left any out.
    static func setAside(_ db: Connection, profile: Int64, _ operations: [SyncOperation]) throws -> (
        counts: [(String, Int)], full: Bool
    ) {
        guard !operations.isEmpty else { return ([], false) }
        var (kept, bytes) =
            try db.first(
                "SELECT count(*), coalesce(sum(length(CAST(sealed AS BLOB))), 0) FROM sync_aside WHERE profile_id = ?",
                [profile]
            ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        let insert = try db.statement(
            """
            INSERT OR IGNORE INTO sync_aside (profile_id, replica, seq, server_seq, millis, counter, sealed)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        var counts: [(String, Int)] = []
        var full = false
        for operation in operations {
            let sealed = operation.sealed ?? ""
            if kept < SyncAsideBound.operations, bytes + sealed.utf8.count <= SyncAsideBound.bytes {
                try insert.run([
                    profile, operation.replica, operation.seq, operation.serverSeq, operation.millis, operation.counter, sealed,
                ])
                guard db.changes > 0 else { continue }
                kept += 1
                bytes += sealed.utf8.count
            } else {
                full = true
            }
            if let index = counts.firstIndex(where: { $0.0 == operation.replica }) {
                counts[index].1 += 1
            } else {
                counts.append((operation.replica, 1))
            }
        }
        return (counts, full)
    }

    /// The replicas whose operations the profile keeps set aside, a request's worth
    /// (``SyncRequest/aside``): one read of the table's key, empty for most profiles.
    static func asideReplicas(_ db: Connection, profile: Int64) throws -> [String] {
        try db.prepare(
            "SELECT DISTINCT replica FROM sync_aside WHERE profile_id = ? ORDER BY replica LIMIT \(SyncLimits.maximumAsideReplicas)"
        ).all([profile]) { $0.text(0) }
    }

    /// Lets go of what the profile kept set aside from the replicas of `gone` that the
    /// request asked about (`asked`): the server holds none of their operations any more.
    static func letGoAside(_ db: Connection, profile: Int64, gone: [String], asked: [String]) throws {
        let delete = try db.statement("DELETE FROM sync_aside WHERE profile_id = ? AND replica = ?")
        for replica in gone where asked.contains(replica) { try delete.run([profile, replica]) }
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
