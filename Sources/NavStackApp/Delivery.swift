import NavStackIO
import NavStackSQLite

/// The step of the loop that hands answers on: what the commands changed is committed,
/// then what they printed is written. When the commit fails, their answers are dropped
/// (what was not printed was not kept); when the output cannot be written, the loop
/// stops (what was committed stays committed).
public final class Delivery {
    /// How many bytes of answers may wait before they are delivered.
    public static let batchBytes = 1 << 16

    public let store: SQLiteStore
    public let streams: StandardStreams
    /// Whether a commit or a write failed: nothing more is read or run.
    public private(set) var failed = false

    public init(store: SQLiteStore, streams: StandardStreams) {
        self.store = store
        self.streams = streams
    }

    /// Commits, then writes; `false` when either failed (the failure has been reported).
    public func deliver() -> Bool {
        guard !failed else { return false }
        do {
            try store.commitPending()
        } catch {
            streams.discard()
            streams.write("navstack: \(App.messageCatalog(.ioNotKept, ("reason", App.words(for: error))))\n", to: .error)
            failed = true
            return false
        }
        do {
            try streams.flush()
            return true
        } catch {
            // What could not be written was committed; the reader is gone, so stop.
            streams.writeLastWord(App.outputFailure(error))
            failed = true
            return false
        }
    }
}
