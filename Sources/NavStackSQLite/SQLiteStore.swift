#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import NavStackCore

/// The task store as one SQLite file (or an in-memory database), through SQLite's own
/// API: one connection, statements prepared once.
///
/// - WAL journal with `synchronous = FULL`: a commit survives a killed process and a
///   power loss; readers in other processes are never blocked.
/// - Every command is one `BEGIN IMMEDIATE` transaction, so a read-modify-write from
///   several processes never loses an update; a busy store is waited for (5 s).
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
    /// Why the shared transaction could not be committed; nothing after it is kept.
    private var commitFailure: StoreFailure?
    /// Reads of a store in memory since its last write.
    var cache = ReadCache()
    /// Whether reads are cached: in memory, where no one else writes.
    var isCaching: Bool { isMemory }

    /// The language of failure messages during a session.
    public var catalog = Catalog.english

    /// How long a command waits for another process's transaction, in milliseconds.
    public static let busyTimeout: Int32 = 5000

    /// Opens (creating if needed) the store at `path`, or an in-memory store when `path`
    /// is `nil`. A file that is not a store, damaged, read-only or from a newer navstack
    /// is refused and left untouched.
    public init(path: String?) throws(StoreError) {
        self.path = path ?? ":memory:"
        isMemory = path == nil
        do {
            if let path { try Self.prepareFile(at: path) }
            db = try Connection(path: self.path)
        } catch {
            throw Self.storeError(error, path: self.path)
        }
        do {
            sqlite3_busy_timeout(db.handle, Self.busyTimeout)
            try db.execute("PRAGMA foreign_keys = ON")
            try Self.addFunctions(to: db)
            // Check before anything is written: a store from a newer navstack is refused
            // as it is.
            let version = try Self.schemaVersion(db)
            guard version <= Self.migrations.count else {
                throw StoreError.newerSchema(path: self.path, version: version)
            }
            if path != nil { try db.execute("PRAGMA journal_mode = WAL") }
            try db.execute("PRAGMA synchronous = FULL")
            if try Self.userVersion(db) != Self.migrations.count { try migrate() }
        } catch {
            db.close()
            throw Self.storeError(error, path: self.path)
        }
    }

    /// `navstack_matches(title, notes, search)`: the list's search, in SQL.
    private static func addFunctions(to db: Connection) throws(SQLiteError) {
        let matches: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, values in
            func text(_ index: Int) -> String {
                guard let value = values?[index], let bytes = sqlite3_value_text(value) else { return "" }
                return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
            }
            sqlite3_result_int(context, ListQuery.matches(title: text(0), notes: text(1), search: text(2)) ? 1 : 0)
        }
        try db.check(sqlite3_create_function_v2(db.handle, "navstack_matches", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                                nil, matches, nil, nil, nil))
    }

    /// Checks the file and its folder before SQLite touches them: folders are created
    /// (mode 0700); a read-only file or folder is refused.
    private static func prepareFile(at path: String) throws(StoreError) {
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let folder = parent.isEmpty ? "/" : parent
        try createFolders(folder, for: path)
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw .notADatabase(path: path)
            }
            if access(path, W_OK) != 0 || info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 {
                throw .readOnly(path: path)
            }
        } else {
            // A new store is private to its user; SQLite gives its -wal and -shm files the
            // same mode.
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
            if fd < 0 && errno != EEXIST {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            if fd >= 0 { _ = Glibc.close(fd) }
        }
        var folderInfo = stat()
        if stat(folder, &folderInfo) == 0,
           access(folder, W_OK) != 0 || folderInfo.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 {
            throw .readOnly(path: path)
        }
    }

    /// `mkdir -p`, mode 0700.
    private static func createFolders(_ folder: String, for path: String) throws(StoreError) {
        var built = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            built += "/" + part
            var info = stat()
            if stat(built, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw .cannotCreate(path: path, reason: "\(built) is not a folder")
                }
                continue
            }
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreate(path: path, reason: "cannot create the folder \(built): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// A SQLite failure as a store error that says what to do.
    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? SQLiteError else {
            return .failed(path: path, reason: String(describing: error))
        }
        switch error.code {
        case SQLITE_NOTADB: return .notADatabase(path: path)
        case SQLITE_CORRUPT: return .corrupt(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_FULL: return .full(path: path)
        case SQLITE_CANTOPEN: return .cannotCreate(path: path, reason: error.message)
        default: return .failed(path: path, reason: error.message)
        }
    }

    /// Closes the connection: the WAL is checkpointed into the file and removed, so the
    /// next process starts without replaying it. Processes end with `exit`, which runs
    /// no deinitializer, so callers close the store themselves.
    public func close() {
        // A failed commit is kept in `commitFailure`, for the output that waits on it.
        try? commitPending()
        db.close()
    }

    /// Commits the commands since the last commit (with ``defersCommits``). It throws
    /// when they could not be kept: then nothing they printed may be shown.
    public func commitPending() throws {
        if let commitFailure { throw commitFailure }
        guard pending else { return }
        pending = false
        do {
            try db.run("COMMIT")
        } catch {
            try? db.run("ROLLBACK")
            let failure = storeFailure(error)
            commitFailure = failure
            throw failure
        }
    }

    public func transaction(_ body: () throws -> Void) throws {
        if inTransaction { return try body() }
        try failingAsStore {
            if defersCommits && !isMemory { return try command(body) }
            // A file store locks at once, so what a command reads is still true when it
            // writes; a store in memory has no one to lock out.
            if !isMemory { try begin() }
            inTransaction = true
            defer {
                inTransaction = false
                began = false
            }
            do {
                try body()
                if began { try db.run("COMMIT") }
            } catch {
                if began {
                    try? db.run("ROLLBACK")
                    cache = ReadCache()
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
            defer { inTransaction = false }
            do {
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
        }
        try db.run("SAVEPOINT command")
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
            throw error
        }
    }

    /// Runs `body`; a failure of SQLite's becomes a ``StoreFailure`` in the session's
    /// language, while a command's own errors pass through.
    private func failingAsStore<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as NavError {
            throw error
        } catch let error as StoreFailure {
            throw error
        } catch {
            throw storeFailure(error)
        }
    }

    /// A SQLite failure as the session shows it: what to do, in its language.
    private func storeFailure(_ error: any Error) -> StoreFailure {
        StoreFailure(description: Self.storeError(error, path: path).message(in: catalog))
    }

    /// Runs `body` in the transaction under way, else on its own (each statement reads
    /// a consistent store).
    func reading<T>(_ body: (Connection) throws -> T) throws -> T {
        if inTransaction { return try body(db) }
        return try failingAsStore { try body(db) }
    }

    /// Runs `body` in the transaction under way, else in a transaction of its own. What
    /// was read before is forgotten, unless `body` keeps the cache true itself.
    func writing<T>(keepingCache: Bool = false, _ body: (Connection) throws -> T) throws -> T {
        guard inTransaction else {
            var result: T?
            try transaction { result = try writing(keepingCache: keepingCache, body) }
            return result!
        }
        if !began { try begin() }
        if !keepingCache { cache = ReadCache() }
        return try body(db)
    }

    private func begin() throws {
        try db.run("BEGIN IMMEDIATE")
        began = true
    }
}
