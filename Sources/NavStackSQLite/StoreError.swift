/// Why a store cannot be opened or used. Each message names the file and what to do.
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    case notADatabase(path: String)
    case corrupt(path: String)
    case newerSchema(path: String, unknown: [String])
    case readOnly(path: String)
    case cannotCreate(path: String, reason: String)
    case locked(path: String)
    case full(path: String)
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            "\(path) is not a navstack store (not an SQLite database); it was left untouched: move it away or choose another with --store"
        case .corrupt(let path):
            "\(path) is damaged (the database disk image is malformed); it was left untouched: restore a backup or choose another store with --store"
        case .newerSchema(let path, let unknown):
            "\(path) was written by a newer navstack (unknown migrations: \(unknown.joined(separator: ", "))); it was left untouched: use that newer navstack"
        case .readOnly(let path):
            "\(path) is read-only; make it and its folder writable (chmod u+w) or choose another store with --store"
        case .cannotCreate(let path, let reason):
            "cannot create the store \(path): \(reason)"
        case .locked(let path):
            "\(path) is locked by another process for too long; try again"
        case .full(let path):
            "\(path): the disk is full; free some space and try again (nothing was changed)"
        case .failed(let path, let reason):
            "\(path): \(reason)"
        }
    }
}
