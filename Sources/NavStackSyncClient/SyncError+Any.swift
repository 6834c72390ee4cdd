import NavStackCore
import NavStackSync

extension SyncError {
    /// Any error of a sync's steps as a sync's failure: a store's in its words.
    public init(_ error: any Error, in t: Catalog) {
        if let failure = error as? SyncError {
            self = failure
        } else {
            self = .store(t.words(for: error).escapedForDisplay)
        }
    }
}
