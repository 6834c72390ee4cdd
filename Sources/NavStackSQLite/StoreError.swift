import NavStackCore

/// Why a store cannot be opened or used. Each message names the file and what to do.
///
/// A failure SQLite reported keeps SQLite's facts in `cause` (its extended result code,
/// its words and the SQL that failed, as GRDB's `DatabaseError` keeps them); the message
/// a user reads never shows them: the SQL is navstack's own, and the sentence already
/// says what to do.
public enum StoreError: CatalogError, Equatable, CustomStringConvertible, Sendable {
    case notADatabase(path: String, cause: SQLiteError? = nil)
    case corrupt(path: String, cause: SQLiteError? = nil)
    case newerSchema(path: String, version: Int)
    case readOnly(path: String, cause: SQLiteError? = nil)
    /// The store file could not be created; `reason` is the system's words.
    case cannotCreate(path: String, reason: String)
    /// A folder on the store's path is a file.
    case notAFolder(path: String, folder: String)
    /// A folder on the store's path could not be created; `reason` is the system's words.
    case cannotCreateFolder(path: String, folder: String, reason: String)
    case locked(path: String, cause: SQLiteError? = nil)
    case full(path: String, cause: SQLiteError? = nil)
    case failed(path: String, reason: String)
    // MARK: Store opening and its failures
    case notAStore(path: String)
    case isFolder(path: String)
    case permissionDenied(path: String, cause: SQLiteError? = nil)
    case missing(path: String)
    case inputOutput(path: String, cause: SQLiteError? = nil)
    /// A failure of SQLite's that none of the cases above describes.
    case sqlite(path: String, cause: SQLiteError)
    case migrationBroken(path: String, migration: String)
    /// A store's error during a session, with the session's language for its sentence
    /// (the core words a store's failure by its ``description``).
    indirect case session(StoreError, language: Language)

    /// What SQLite reported, when it reported the failure.
    public var cause: SQLiteError? {
        switch self {
        case .notADatabase(_, let cause), .corrupt(_, let cause), .readOnly(_, let cause), .locked(_, let cause),
            .full(_, let cause), .permissionDenied(_, let cause), .inputOutput(_, let cause):
            cause
        case .sqlite(_, let cause):
            cause
        case .session(let error, _):
            error.cause
        case .newerSchema, .cannotCreate, .notAFolder, .cannotCreateFolder, .failed, .notAStore, .isFolder, .missing,
            .migrationBroken:
            nil
        }
    }

    /// The message in English, or in the session's language.
    public var description: String {
        if case .session(let error, let language) = self { return error.message(in: Catalog(language)) }
        return message(in: .english)
    }

    /// The error without its session.
    public var withoutSession: StoreError {
        if case .session(let error, _) = self { return error.withoutSession }
        return self
    }

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .notADatabase(let path, _): t(.storeNotADatabase, ("path", path))
        case .corrupt(let path, _): t(.storeCorrupt, ("path", path))
        case .newerSchema(let path, let version): t(.storeNewerSchema, ("path", path), ("version", String(version)))
        case .readOnly(let path, _): t(.storeReadOnly, ("path", path))
        case .cannotCreate(let path, let reason): t(.storeCannotCreate, ("path", path), ("reason", reason))
        case .notAFolder(let path, let folder): t(.storeNotAFolder, ("path", path), ("folder", folder))
        case .cannotCreateFolder(let path, let folder, let reason):
            t(.storeCannotCreateFolder, ("path", path), ("folder", folder), ("reason", reason))
        case .locked(let path, _): t(.storeLocked, ("path", path))
        case .full(let path, _): t(.storeFull, ("path", path))
        case .failed(let path, let reason): t(.storeOther, ("path", path), ("reason", reason))
        case .notAStore(let path): t(.storeNotAStore, ("path", path))
        case .isFolder(let path): t(.storeIsFolder, ("path", path))
        case .permissionDenied(let path, _): t(.storePermissionDenied, ("path", path))
        case .missing(let path): t(.storeMissing, ("path", path))
        case .inputOutput(let path, _): t(.storeInputOutput, ("path", path))
        case .sqlite(let path, let cause): t(.storeSQLiteCode, ("path", path), ("code", String(cause.code)))
        case .migrationBroken(let path, let migration): t(.storeMigrationBroken, ("path", path), ("migration", migration))
        case .session(let error, _): error.message(in: t)
        }
    }
}
