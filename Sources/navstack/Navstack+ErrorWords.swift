import NavStackCore
import NavStackHTTP
import NavStackSQLite
import NavStackSync

extension Navstack {
    /// The words a user sees for an error of any of the executable's steps: the error's
    /// own message from the catalogs, never the name of its type or case. Every error
    /// turned into text goes through here.
    static func words(for error: any Error, in t: Catalog = messageCatalog) -> String {
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
        // A path or a call, and the C library's reason.
        case let error as Files.Failure: error.message(in: t)
        case let error as StandardStreams.WriteFailure: error.reason
        default: t(.ioUnexpected)
        }
    }
}
