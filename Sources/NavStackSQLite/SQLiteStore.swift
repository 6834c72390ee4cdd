import CSQLite
import NavStackBytes
import NavStackCore
import NavStackSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The task store as one SQLite file (or an in-memory database), through SQLite's own
/// API: one connection, statements prepared once.
///
/// - WAL journal with `synchronous = FULL`: a commit survives a killed process and a
///   power loss; readers in other processes are never blocked.
/// - Every command is one `BEGIN IMMEDIATE` transaction, so a read-modify-write from
///   several processes never loses an update; a busy store is waited for (5 s unless
///   opened with another ``busyTimeout``).
/// - The list reads one page through an index; counts come from per-profile counters,
///   so no command loads every task.
public final class SQLiteStore: TaskStore {
    /// Where the store lives, for messages: a path, or ":memory:".
    public let path: String
    let db: Connection
    /// Whether a transaction is under way.
    private var inTransaction = false
    /// Whether SQLite has begun the transaction under way: at once for a file, at the
    /// first write for a store in memory.
    private var began = false
    /// A store in memory has no other writer: what it read stays true until it writes.
    let isMemory: Bool
    /// Whether commands that follow each other share one SQLite transaction, each in a
    /// savepoint of its own, until ``commitPending()``: the session commits before it
    /// prints, so every answer printed is kept, and a burst of commands costs one sync.
    public var defersCommits = false
    /// Whether a shared transaction is open.
    private var pending = false
    /// The phase the commands of the shared transaction left, written as it commits.
    var deferredPhase: Phase?
    /// Whether a phase saved now waits for the shared transaction's commit.
    var deferringPhase: Bool { pending && inTransaction }
    /// Why the shared transaction could not be committed; nothing after it is kept.
    private var commitFailure: StoreError?
    /// Reads since the last write: of a store in memory, or of a file while this process
    /// holds its write lock through a burst of commands.
    var cache = ReadCache()
    /// Where new tasks' uuids come from: random for a file, the same every run in memory
    /// (a test may give a file the same).
    public var uuids: TaskUUIDSource
    /// What "now" is for the stamps of what it writes (`created`, `modified`,
    /// `completed`): `NAVSTACK_NOW`'s instant, or the wall clock.
    public var clock = TaskClock()
    /// Names this process's changes in the undo history: `undo` reverts its own first.
    let writer: String
    /// For each profile this process changed, the last operation of the log before its
    /// first change: its own changes come after it. Put back as it was when a transaction
    /// that set it rolls back (its seqs are then used again).
    var ownChangesAfter: [String: Int64] = [:]
    /// What a rollback of the whole shared transaction of a burst puts back.
    private var atPending = Checkpoint(ownChangesAfter: [:], deferredPhase: nil)
    /// Profiles' ids by name, as read: a profile is never removed nor renamed, so an id
    /// once committed stays; forgotten when a transaction rolls back (it may have made
    /// the profile).
    private var profileIDs = ProfileIDs()
    /// Whether reads are cached: in memory, where no one else writes, and in a file's
    /// transactions, each of which found first that no other connection had committed
    /// since the cache was read (``checkCache()``); never when ``cachesReads`` is off.
    var isCaching: Bool { cachesReads && (isMemory || cacheChecked) }
    /// The file's `PRAGMA data_version` when what the cache holds was read: SQLite
    /// changes it for this connection when another one commits, never for its own
    /// commits (which tell the cache what they wrote).
    private var cacheVersion: Int?
    /// Whether the transaction under way (or the shared one) checked the cache.
    private var cacheChecked = false
    /// Whether the store may answer a read from what it read before (``ReadCache``, and
    /// the profiles' ids). Off, every read asks SQLite: the tests compare a walk with and
    /// without them.
    public var cachesReads = true

    /// The language of failure messages during a session.
    public var catalog = Catalog.english

    /// How long a command waits for another process's transaction, in milliseconds,
    /// unless the store is opened with another wait.
    public static let defaultBusyTimeout: Int32 = 5000
    /// How long this store's commands wait for another process's transaction, in
    /// milliseconds.
    public let busyTimeout: Int32

    /// How a store is opened.
    public enum OpenMode: Sendable {
        /// To read and write: a missing store and its folders are created.
        case creating
        /// For a command that only reads: a missing store is an error and nothing is
        /// created; a store the user may not write is opened read-only, as it is.
        case reading
    }

    /// The file opened, for what ``close()`` and a failed open undo.
    private var file: StoreFile?

    /// Opens the store at `path` (creating it if needed, unless `mode` is `.reading`), or
    /// an in-memory store when `path` is `nil`. What the file holds is decided before
    /// anything is written: an empty file or database becomes a new store, navstack's
    /// tables at a known version are migrated; anything else (another application's
    /// database, a file that is not a database, a damaged or read-only file, a store
    /// from a newer navstack) is refused and left untouched. A store another process
    /// holds is waited for up to `busyTimeout` milliseconds.
    public init(path: String?, mode: OpenMode = .creating, busyTimeout: Int32 = defaultBusyTimeout) throws(StoreError) {
        self.path = path ?? ":memory:"
        self.busyTimeout = busyTimeout
        isMemory = path == nil
        uuids = path == nil ? .fixed : TaskUUIDSource(clock: Self.milliseconds)
        var writers = TaskUUIDSource(clock: Self.milliseconds)
        writer = writers.make()
        var file: StoreFile?
        do {
            if let path { file = try StoreFile(path: path, mode: mode) }
            db = try Connection(path: self.path, creating: path == nil, readOnly: file?.readOnly ?? false)
        } catch {
            file?.removeIfCreated()
            throw Self.storeError(error, path: self.path)
        }
        self.file = file
        do {
            sqlite3_busy_timeout(db.handle, busyTimeout)
            try Self.addFunctions(to: db)
            // A store in memory starts as a copy of a new store's image (else its script).
            if file == nil { _ = Self.copyNewStoreImage(into: db) }
            try Self.whileBusy(for: busyTimeout) { [db, path = self.path] in
                // Only reads until the file is known to be a store (switching to WAL writes).
                let version = try Self.storedVersion(db, path: path)
                if let file {
                    if mode == .reading && version == nil { throw StoreError.missing(path: path) }
                    if file.readOnly && version != Self.migrations.count { throw StoreError.readOnly(path: path) }
                    if !file.readOnly {
                        if mode == .creating { file.tighten() }
                        try db.execute("PRAGMA journal_mode = WAL")
                    }
                }
                try db.execute("PRAGMA synchronous = FULL")
                if try version != Self.migrations.count || Self.userVersion(db) != Self.migrations.count
                    || (file?.readOnly != true && Self.applicationID(db) != Self.storeApplicationID)
                {
                    try Self.migrate(db, path: path)
                }
            }
            try db.execute("PRAGMA foreign_keys = ON")
        } catch {
            db.close()
            file?.removeIfCreated()
            file?.removeLeftovers()
            throw Self.storeError(error, path: self.path)
        }
    }

    /// Runs `body` again while SQLite answers busy at once, for up to `timeout`
    /// milliseconds: processes that open a new store together (one makes it, switches it
    /// to WAL and migrates it while the others read it) meet locks that SQLite does not
    /// wait for.
    static func whileBusy(for timeout: Int32, _ body: () throws -> Void) throws {
        let deadline = milliseconds() + UInt64(max(timeout, 0))
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.code == SQLITE_BUSY && milliseconds() < deadline {
                usleep(10_000)
            }
        }
    }

    /// The wall clock in milliseconds since 1970: what uuids, changes and their sync
    /// stamps are made from.
    @Sendable public static func milliseconds() -> UInt64 { UInt64(SyncClock.wallMillis()) }

    /// A SQLite failure as a store error that says what to do, SQLite's facts kept.
    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error.withoutSession }
        guard let error = error as? SQLiteError else {
            return .failed(path: path, reason: String(describing: error))
        }
        switch error.code {
        case SQLITE_NOTADB: return .notADatabase(path: path, cause: error)
        case SQLITE_CORRUPT: return .corrupt(path: path, cause: error)
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path, cause: error)
        case SQLITE_READONLY: return .readOnly(path: path, cause: error)
        case SQLITE_FULL: return .full(path: path, cause: error)
        case SQLITE_IOERR, SQLITE_CANTOPEN:
            // SQLite says "disk I/O error" or "unable to open" for what errno knows better.
            switch error.systemError {
            case ENOSPC, EDQUOT: return .full(path: path, cause: error)
            case EACCES, EPERM: return .permissionDenied(path: path, cause: error)
            default:
                return error.code == SQLITE_IOERR ? .inputOutput(path: path, cause: error) : .sqlite(path: path, cause: error)
            }
        case SQLITE_PERM, SQLITE_AUTH: return .permissionDenied(path: path, cause: error)
        default: return .sqlite(path: path, cause: error)
        }
    }

    /// Closes the connection: the WAL is checkpointed into the file and removed, so the
    /// next process starts without replaying it. Processes end with `exit`, which runs
    /// no deinitializer, so callers close the store themselves.
    public func close() {
        // A failed commit is kept in `commitFailure`, for the output that waits on it.
        try? commitPending()
        db.close()
        file?.removeLeftovers()
    }

    /// Closes the store after a command that failed and kept nothing: a file this process
    /// created, and that holds no profile, is removed, as a failed open removes it.
    public func closeRemovingIfUnused() {
        let unused = (try? db.first("SELECT count(*) FROM profile") { $0.int(0) }) == 0
        close()
        if unused { file?.removeIfCreated() }
    }

    /// Commits the commands since the last commit (with ``defersCommits``). It throws
    /// when they could not be kept: then nothing they printed may be shown.
    public func commitPending() throws {
        if let commitFailure { throw commitFailure }
        guard pending else { return }
        do {
            try writeDeferredPhase()
            pending = false
            // Other processes may write from now on: the next transaction checks.
            cacheChecked = false
            try db.run("COMMIT")
        } catch {
            pending = false
            cacheChecked = false
            try? db.run("ROLLBACK")
            rollBack(to: atPending)
            let failure = storeFailure(error)
            commitFailure = failure
            throw failure
        }
    }

    /// What this process keeps beside SQLite's own state, as it was where a transaction
    /// or a savepoint began: a rollback puts it back.
    struct Checkpoint {
        var ownChangesAfter: [String: Int64]
        var deferredPhase: Phase?
    }

    /// What ``rollBack(to:)`` would put back now.
    private var checkpoint: Checkpoint { Checkpoint(ownChangesAfter: ownChangesAfter, deferredPhase: deferredPhase) }

    /// After SQLite rolled back to where `checkpoint` was taken: the one place where what
    /// this process keeps beside SQLite is put back. Profiles found since may have been
    /// made by what rolled back, and what was read or mended since may no longer hold, so
    /// both are forgotten.
    private func rollBack(to checkpoint: Checkpoint) {
        ownChangesAfter = checkpoint.ownChangesAfter
        deferredPhase = checkpoint.deferredPhase
        profileIDs = ProfileIDs()
        cache.wrote(.elsewhere)
    }

    /// Runs `body` outside the shared transaction of a burst of commands: what is
    /// pending is committed first, and each write of `body` is a transaction of its own,
    /// committed as it ends. So nothing `body` does keeps the store locked while it waits
    /// (a sync waits on the network), nor after it, while the prompt waits for input.
    public func committingEachStep<T>(_ body: () throws -> T) throws -> T {
        try commitPending()
        let deferring = defersCommits
        defersCommits = false
        defer { defersCommits = deferring }
        return try body()
    }

    public func transaction(_ body: () throws -> Void) throws {
        if inTransaction { return try body() }
        try failingAsStore {
            if defersCommits && !isMemory { return try command(body) }
            // A file store locks at once, so what a command reads is still true when it
            // writes; a store in memory has no one to lock out.
            if !isMemory {
                try begin()
                try checkCache()
            }
            inTransaction = true
            let before = checkpoint
            defer {
                inTransaction = false
                began = false
                cacheChecked = false
            }
            do {
                try body()
                if began { try db.run(.commit) }
            } catch {
                if began {
                    try? db.run(.rollback)
                    rollBack(to: before)
                }
                throw error
            }
        }
    }

    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        // A transaction under way (or the shared one of a burst of commands) reads one
        // state already; a store in memory has no other writer.
        if inTransaction || pending || isMemory { return try body() }
        return try failingAsStore {
            // Deferred: a read transaction, which in WAL mode holds no writer back.
            try db.run("BEGIN")
            inTransaction = true
            defer {
                inTransaction = false
                cacheChecked = false
            }
            do {
                try checkCache()
                let value = try body()
                try db.run("COMMIT")
                return value
            } catch {
                try? db.run("ROLLBACK")
                throw error
            }
        }
    }

    /// One command in the shared transaction: a savepoint, released when it succeeds and
    /// rolled back when it fails.
    private func command(_ body: () throws -> Void) throws {
        if let commitFailure { throw commitFailure }
        if !pending {
            try db.run("BEGIN IMMEDIATE")
            pending = true
            atPending = checkpoint
            do {
                try checkCache()
            } catch {
                pending = false
                try? db.run("ROLLBACK")
                throw error
            }
        }
        try db.run("SAVEPOINT command")
        let before = checkpoint
        inTransaction = true
        began = true
        defer {
            inTransaction = false
            began = false
        }
        do {
            try body()
            try db.run("RELEASE command")
        } catch {
            try? db.run("ROLLBACK TO command")
            try? db.run("RELEASE command")
            rollBack(to: before)
            throw error
        }
    }

    /// Runs `body`; a failure of SQLite's becomes a ``NavError/storeFailure(_:)`` whose
    /// message, in the session's language, stands alone, while a command's own errors
    /// pass through.
    private func failingAsStore<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw NavError.storeFailure(storeFailure(error).message(in: catalog))
        } catch let error as StoreError {
            throw NavError.storeFailure(error.message(in: catalog))
        }
    }

    /// A SQLite failure as the session shows it: what to do, in its language, with
    /// SQLite's facts.
    private func storeFailure(_ error: any Error) -> StoreError {
        .session(Self.storeError(error, path: path), language: catalog.language)
    }

    /// Runs `body` in the transaction under way, else on its own (each statement reads
    /// a consistent store).
    func reading<T>(_ body: (Connection) throws -> T) throws -> T {
        if inTransaction { return try body(db) }
        return try failingAsStore { try body(db) }
    }

    /// Runs `body`, which writes what `touching` says, in the transaction under way, else
    /// in a transaction of its own. The read cache is told before `body` runs; a write of
    /// ``ReadCache/Write/oneTask`` tells it what it changed itself
    /// (``ReadCache/changed(_:to:stored:of:)``).
    func writing<T>(touching: ReadCache.Write = .tasks, _ body: (Connection) throws -> T) throws -> T {
        guard inTransaction else {
            var result: T?
            try transaction { result = try writing(touching: touching, body) }
            return result!
        }
        if !began { try begin() }
        cache.wrote(touching)
        db.now = clock.now()
        return try body(db)
    }

    /// The id of the profile named `user`; `nil` when there is none.
    func existingProfileID(_ db: Connection, _ user: String) throws -> Int64? {
        if cachesReads, let id = profileIDs.id(of: user) { return id }
        let id = try db.statement(Self.profileByName).first({ $0.text(user) }, reading: { $0.int64(0) })
        if cachesReads { profileIDs.remember(id, of: user) }
        return id
    }

    /// The id of the profile named `user`, which must exist (a change asks once it knows
    /// the profile has the task it changes, or has just made the profile).
    func profileID(_ db: Connection, _ user: String) throws -> Int64 {
        guard let id = try existingProfileID(db, user) else {
            throw SQLiteError(code: SQLITE_CONSTRAINT, message: "no profile \(user)")
        }
        return id
    }

    private static let profileByName = SQL("SELECT id FROM profile WHERE name = ?")

    private func begin() throws {
        try db.run(.begin)
        began = true
    }

    /// At the start of a transaction of a file: what the cache holds is dropped when
    /// another connection committed since it was read, and is used (and added to) until
    /// the transaction ends. A read outside a transaction neither uses nor fills it.
    private func checkCache() throws {
        guard cachesReads else { return }
        let version = try Self.dataVersion(db)
        if version != cacheVersion {
            cache.wrote(.elsewhere)
            cacheVersion = version
        }
        cacheChecked = true
    }
}
