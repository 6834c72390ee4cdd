#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import NavStackCore

/// The task store as one SQLite file (or an in-memory database), through GRDB.
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
    let queue: DatabaseQueue
    /// The connection of the transaction under way, if any.
    var current: Database?

    /// The language of failure messages during a session.
    public var catalog = Catalog.english

    /// How long a command waits for another process's transaction.
    public static let busyTimeout = 5.0

    /// Opens (creating if needed) the store at `path`, or an in-memory store when `path`
    /// is `nil`. A file that is not a store, damaged, read-only or from a newer navstack
    /// is refused and left untouched.
    public init(path: String?) throws(StoreError) {
        self.path = path ?? ":memory:"
        var config = Configuration()
        config.busyMode = .timeout(Self.busyTimeout)
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("navstack_matches", argumentCount: 3, pure: true) { values in
                guard let title = String.fromDatabaseValue(values[0]), let notes = String.fromDatabaseValue(values[1]),
                      let search = String.fromDatabaseValue(values[2]) else { return false }
                return ListQuery.matches(title: title, notes: notes, search: search)
            })
        }
        do {
            if let path {
                try Self.prepareFile(at: path)
                queue = try DatabaseQueue(path: path, configuration: config)
            } else {
                queue = try DatabaseQueue(configuration: config)
            }
            // Check before anything is written: a store from a newer navstack is refused
            // as it is.
            let migrator = Self.migrator
            let unknown = try queue.read { db in
                try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
            }
            guard unknown.isEmpty else { throw StoreError.newerSchema(path: self.path, unknown: unknown.sorted()) }
            try queue.writeWithoutTransaction { db in
                if path != nil { try db.execute(sql: "PRAGMA journal_mode = WAL") }
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            try migrator.migrate(queue)
        } catch {
            throw Self.storeError(error, path: path ?? ":memory:")
        }
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

    /// A GRDB or SQLite failure as a store error that says what to do.
    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else {
            return .failed(path: path, reason: String(describing: error))
        }
        switch error.resultCode {
        case .SQLITE_NOTADB: return .notADatabase(path: path)
        case .SQLITE_CORRUPT: return .corrupt(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path)
        case .SQLITE_READONLY: return .readOnly(path: path)
        case .SQLITE_FULL: return .full(path: path)
        case .SQLITE_CANTOPEN: return .cannotCreate(path: path, reason: error.message ?? "unable to open the file")
        default: return .failed(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Closes the connection: the WAL is checkpointed into the file and removed, so the
    /// next process starts without replaying it. Processes end with `exit`, which runs
    /// no deinitializer, so callers close the store themselves.
    public func close() {
        try? queue.close()
    }

    public func transaction(_ body: () throws -> Void) throws {
        if current != nil { return try body() }
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    current = db
                    defer { current = nil }
                    try body()
                    return .commit
                }
            }
        } catch let error as NavError {
            throw error
        } catch let error as StoreFailure {
            throw error
        } catch {
            throw StoreFailure(description: Self.storeError(error, path: path).message(in: catalog))
        }
    }

    /// Runs `body` in the transaction under way, else in a read of its own.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        if let current { return try body(current) }
        do {
            return try queue.read(body)
        } catch {
            throw StoreFailure(description: Self.storeError(error, path: path).message(in: catalog))
        }
    }

    /// Runs `body` in the transaction under way, else in a transaction of its own.
    func writing<T>(_ body: (Database) throws -> T) throws -> T {
        if let current { return try body(current) }
        var result: T?
        try transaction { result = try body(current!) }
        return result!
    }
}
