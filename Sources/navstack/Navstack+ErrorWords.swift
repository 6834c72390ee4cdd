import NavStackCore
import NavStackIO
import NavStackSyncClient

extension Navstack {
    /// The words a user sees for an error of any of the executable's steps: the error's
    /// own message from the catalogs, never the name of its type or case. Every error
    /// turned into text goes through here.
    static func words(for error: any Error, in t: Catalog = messageCatalog) -> String {
        switch error {
        // A path or a call, and the C library's reason.
        case let error as Files.Failure: error.message(in: t)
        case let error as StandardStreams.WriteFailure: error.reason
        default: ErrorWords.words(for: error, in: t) ?? t(.ioUnexpected)
        }
    }
}
