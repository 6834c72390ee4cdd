import NavStackCore
import NavStackHTTP
import NavStackSQLite
import NavStackSync

/// The words a user sees for an error of the app's libraries: the error's own message
/// from the catalogs, never the name of its type or case.
public enum ErrorWords {
    /// `error`'s message in `t`'s language; `nil` for an error of none of the libraries.
    public static func words(for error: any Error, in t: Catalog) -> String? {
        switch error {
        case let error as NavError: error.message(in: t)
        case let error as StoreError: error.message(in: t)
        case let error as StoreFailure: error.message(in: t)
        case let error as SyncError: error.message(in: t)
        case let error as SyncWireError: error.message(in: t)
        case let error as HTTPError: error.message(in: t)
        case let error as ImportError: error.message(in: t)
        case let error as RecordProblem: error.message(in: t)
        case let error as JSONReader.Failure: error.message(in: t)
        case let error as UsageError: error.message(in: t)
        case let error as TranscriptError: error.message(in: t)
        default: nil
        }
    }
}

extension SyncError {
    /// Any error of a sync's steps as a sync's failure: a store's in its words.
    public init(_ error: any Error, in t: Catalog) {
        if let failure = error as? SyncError {
            self = failure
        } else {
            self = .store((ErrorWords.words(for: error, in: t) ?? t(.ioUnexpected)).escapedForDisplay)
        }
    }
}
