import NavStackCore

/// Why a store cannot be opened or used. Each message names the file and what to do.
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    case notADatabase(path: String)
    case corrupt(path: String)
    case newerSchema(path: String, version: Int)
    case readOnly(path: String)
    case cannotCreate(path: String, reason: String)
    case locked(path: String)
    case full(path: String)
    case failed(path: String, reason: String)
    // MARK: Store opening and its failures
    case notAStore(path: String)
    case isFolder(path: String)
    case permissionDenied(path: String)
    case missing(path: String)
    case inputOutput(path: String)
    case sqlite(path: String, code: Int32)
    case migrationBroken(path: String, migration: String)

    /// The message in English.
    public var description: String { message(in: .english) }

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .notADatabase(let path): t(.storeNotADatabase, ("path", path))
        case .corrupt(let path): t(.storeCorrupt, ("path", path))
        case .newerSchema(let path, let version): t(.storeNewerSchema, ("path", path), ("version", String(version)))
        case .readOnly(let path): t(.storeReadOnly, ("path", path))
        case .cannotCreate(let path, let reason): t(.storeCannotCreate, ("path", path), ("reason", reason))
        case .locked(let path): t(.storeLocked, ("path", path))
        case .full(let path): t(.storeFull, ("path", path))
        case .failed(let path, let reason): t(.storeOther, ("path", path), ("reason", reason))
        case .notAStore(let path): t(.storeNotAStore, ("path", path))
        case .isFolder(let path): t(.storeIsFolder, ("path", path))
        case .permissionDenied(let path): t(.storePermissionDenied, ("path", path))
        case .missing(let path): t(.storeMissing, ("path", path))
        case .inputOutput(let path): t(.storeInputOutput, ("path", path))
        case .sqlite(let path, let code): t(.storeSQLiteCode, ("path", path), ("code", String(code)))
        case .migrationBroken(let path, let migration): t(.storeMigrationBroken, ("path", path), ("migration", migration))
        }
    }
}

/// A store failure during a session, its message already in the session's language.
public struct StoreFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
}
