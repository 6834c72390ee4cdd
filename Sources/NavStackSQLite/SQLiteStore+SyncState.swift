import NavStackCore
import NavStackSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a profile syncs: the server, the token, and this store's replica id.
public struct SyncSettings: Equatable, Sendable {
    public var server: String
    public var token: String
    public var replica: String
}

/// A profile's sync state, as the `sync` table keeps it.
struct SyncState {
    var profile: Int64
    var replica: String
    var server: String
    var token: String
    /// The last local operation (`op.seq`) given a stamp and put in the outbox; -1
    /// before the first request, which takes every task as it is.
    var stamped: Int
    /// The replica's own sequence number of its last operation.
    var outbox: Int
    /// The last of them the server acknowledged.
    var sent: Int
    /// The last server sequence number applied.
    var pulled: Int
    var clock: SyncClock
    /// The format (``SyncFormat``) its registers and outbox were written in: 2 for a
    /// profile that synced with a navstack from before the stamps travelled, until its
    /// next sync sends them (``backfillStamps(_:_:_:)``).
    var format = SyncFormat.current
}

/// A local value replaced by another replica's change, for the next screen to say.
public struct SyncNotice: Equatable, Sendable {
    public var title: String
    /// `title`, `notes`, `done`, `parent` (moved) or `task` (deleted).
    public var fields: [String]

    public init(title: String, fields: [String]) {
        self.title = title
        self.fields = fields
    }
}

extension SQLiteStore {
    // MARK: - Settings

    /// The profile's sync settings; `nil` when it has no server.
    public func syncSettings(_ user: String) throws -> SyncSettings? {
        try reading { db in
            try db.first(
                """
                SELECT server, token, replica FROM sync WHERE profile_id = \(Self.profileID) AND server != ''
                """, [user]
            ) { SyncSettings(server: $0.text(0), token: $0.text(1), replica: $0.text(2)) }
        }
    }

    /// Puts back the profile's server and token as they were before `given` was set
    /// (`before`; none when `nil`), unless another process has changed them since: a
    /// token the server refused is not kept, and a later one set elsewhere is not lost.
    public func restoreSync(_ user: String, to before: SyncSettings?, replacing given: SyncSettings) throws {
        try transaction {
            guard try syncSettings(user) == given else { return }
            try configureSync(user, server: before?.server ?? "", token: before?.token ?? "")
        }
    }

    /// Sets the profile's server and token (each kept when `nil`); makes its replica id
    /// the first time. Fails when there is no such profile.
    @discardableResult
    public func configureSync(_ user: String, server: String?, token: String?) throws -> SyncSettings {
        try writing { db in
            var state = try Self.syncState(db, user)
            if let server { state.server = server }
            if let token { state.token = token }
            try Self.save(db, state)
            return SyncSettings(server: state.server, token: state.token, replica: state.replica)
        }
    }

    /// Whether the profile has local changes the server has not acknowledged.
    public func hasUnsentChanges(_ user: String) throws -> Bool {
        try reading { db in
            guard
                let (stamped, outbox, sent) = try db.first(
                    """
                    SELECT stamped, outbox, sent FROM sync WHERE profile_id = \(Self.profileID)
                    """, [user], { ($0.int(0), $0.int(1), $0.int(2)) })
            else { return false }
            if outbox > sent { return true }
            return try db.first(
                // Operations kept for undo alone are never sent.
                "SELECT 1 FROM op WHERE profile_id = \(Self.profileID) AND seq > ? AND field NOT IN \(Self.undoOnlyFields) LIMIT 1",
                [user, stamped]
            ) { _ in true } ?? false
        }
    }

    /// How many of the profile's operations wait in the outbox for the server to
    /// acknowledge them (those sent and not answered yet included).
    public func unsentOperations(_ user: String) throws -> Int {
        try reading { db in
            try db.first("SELECT count(*) FROM sync_outbox WHERE profile_id = \(Self.profileID)", [user]) { $0.int(0) } ?? 0
        }
    }

    /// The notices of local values that lost to another replica's change since they
    /// were last taken, oldest first; taking them clears them.
    public func takeSyncNotices(_ user: String) throws -> [SyncNotice] {
        let notices = try reading { db in
            try db.prepare(
                """
                SELECT id, title, fields FROM sync_notice WHERE profile_id = \(Self.profileID) ORDER BY id
                """
            ).all([user]) { row in
                (id: row.int64(0), SyncNotice(title: row.text(1), fields: row.text(2).split(separator: " ").map(String.init)))
            }
        }
        guard let last = notices.last?.id else { return [] }
        try writing { db in
            try db.run("DELETE FROM sync_notice WHERE profile_id = \(Self.profileID) AND id <= ?", [user, last])
        }
        return notices.map(\.1)
    }

    // MARK: - State

    static func syncState(_ db: Connection, _ user: String) throws -> SyncState {
        guard let profile = try db.first("SELECT id FROM profile WHERE name = ?", [user], { $0.int64(0) }) else {
            throw SyncError.noProfile(user: user)
        }
        if let state = try db.first(
            """
            SELECT replica, server, token, stamped, outbox, sent, pulled, millis, counter, format FROM sync WHERE profile_id = ?
            """, [profile],
            { row in
                SyncState(
                    profile: profile, replica: row.text(0), server: row.text(1), token: row.text(2), stamped: row.int(3),
                    outbox: row.int(4), sent: row.int(5), pulled: row.int(6),
                    clock: SyncClock(millis: row.int(7), counter: row.int(8)), format: row.int(9))
            })
        {
            return state
        }
        // stamped -1: its tasks have not been taken as they are yet.
        return SyncState(
            profile: profile, replica: newReplicaID(), server: "", token: "", stamped: -1, outbox: 0, sent: 0,
            pulled: 0, clock: SyncClock())
    }

    static func save(_ db: Connection, _ state: SyncState) throws {
        try db.run(
            """
            INSERT INTO sync (profile_id, replica, server, token, stamped, outbox, sent, pulled, millis, counter, format)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (profile_id) DO UPDATE SET replica = excluded.replica, server = excluded.server,
                token = excluded.token, stamped = excluded.stamped, outbox = excluded.outbox, sent = excluded.sent,
                pulled = excluded.pulled, millis = excluded.millis, counter = excluded.counter, format = excluded.format
            """,
            [
                state.profile, state.replica, state.server, state.token, state.stamped, state.outbox, state.sent, state.pulled,
                state.clock.millis, state.clock.counter, state.format,
            ])
    }

    /// 16 random bytes as 32 lowercase hex digits.
    static func newReplicaID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }
}
