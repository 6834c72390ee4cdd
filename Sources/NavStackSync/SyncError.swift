import NavStackCore

/// Why a sync did not finish. What was committed locally stays; the next sync sends it.
public enum SyncError: CatalogError, Equatable, Sendable {
    /// The server's answer is not what the protocol says an answer is.
    case malformedAnswer(SyncWireError)
    /// The profile has no server to sync with.
    case notConfigured(user: String)
    case noProfile(user: String)
    /// The profile has a server but no token, and none was given or asked for.
    case noToken(user: String)
    /// The server answered 401.
    case refusedToken
    /// The server answered another status than 200; `message` is its `error`, if any.
    case server(status: Int, message: String)
    /// The server could not be reached or the exchange broke off: the transport's words.
    case unreachable(String)
    /// The store could not take a step of the sync: the store's words.
    case store(String)
    case outOfTime
    /// The server holds this replica's (replica, seq) with other content (409): the store
    /// was restored from a backup or copied, and taking a new replica id did not help.
    case replicaTaken
    /// The server refused stamps ahead of its clock, whose time it gave (`serverMillis`).
    case stampsAhead(serverMillis: Int)
    /// This machine's clock is `millis` ahead of the server's.
    case clockAhead(millis: Int)
    /// The profile has no key for its account's tasks, and no passphrase was given.
    case noPassphrase(user: String)
    /// The passphrase given does not open the account's key record.
    case wrongPassphrase
    /// The two passphrases typed for a new account differ.
    case passphraseMismatch
    /// The server answered with another key record than the one this store holds.
    case keyChanged
    /// The server's key record is not one this version can read.
    case badKeyRecord
    /// The server holds another key for the account than the one offered (409, with it).
    case keyTaken(record: String)
    /// The server answered the key's offer without it, with nothing more to send: it does
    /// not keep the key (a server that would, once the replica has all, names it).
    case keyNotKept
    /// An operation of an answer does not open with the account's key.
    case unopenable(replica: String, seq: Int64)
    /// An answer's snapshot does not open with the account's key, or cannot be read.
    case unopenableSnapshot(seq: Int64)
    /// The account holds operations in clear and no key, and this device, which has a
    /// passphrase, was not asked to move it to encryption (`navstack sync --migrate`).
    case clearNeedsMigrate
    /// The server answered without the account's key, which this profile knows it held.
    case keyMissing
    /// The server's log went back (its restore epoch is now `epoch`): the sync starts over
    /// from the start, once a run.
    case serverRestored(epoch: String)
    /// The server's answer does not name what this replica's request sent (``SyncStored``):
    /// an answer that came for another request. Nothing of it is applied or acknowledged.
    case strayAnswer

    public func message(in t: Catalog) -> String {
        switch self {
        case .malformedAnswer(let failure): t(.syncMalformedAnswer, ("reason", failure.message(in: t)))
        case .notConfigured(let user): t(.syncNotConfigured, ("user", user.escapedForDisplay))
        case .noProfile(let user): t(.syncNoProfile, ("user", user.escapedForDisplay))
        case .noToken(let user): t(.syncNoToken, ("user", user.escapedForDisplay))
        case .refusedToken: t(.syncRefusedToken)
        case .server(let status, let message) where message.isEmpty: t(.syncServerAnswered, ("status", status))
        case .server(let status, let message): t(.syncServerAnsweredWith, ("status", status), ("message", message.escapedForDisplay))
        case .unreachable(let reason), .store(let reason): reason
        case .outOfTime: t(.syncOutOfTime)
        case .replicaTaken: t(.syncReplicaTaken)
        case .stampsAhead: t(.syncStampsAhead)
        case .clockAhead(let millis): t(.syncClockAhead, ("ahead", SyncDrift.words(millis: millis)))
        case .noPassphrase(let user): t(.syncNoPassphrase, ("user", user.escapedForDisplay))
        case .wrongPassphrase: t(.syncWrongPassphrase)
        case .passphraseMismatch: t(.syncPassphraseMismatch)
        case .keyChanged: t(.syncKeyChanged)
        case .badKeyRecord: t(.syncBadKeyRecord)
        case .keyTaken: t(.syncKeyTaken)
        case .keyNotKept: t(.syncKeyNotKept)
        case .unopenable(let replica, let seq): t(.syncUnopenable, ("replica", replica.escapedForDisplay), ("seq", seq))
        case .unopenableSnapshot(let seq): t(.syncUnopenableSnapshot, ("seq", seq))
        case .clearNeedsMigrate: t(.syncClearNeedsMigrate)
        case .keyMissing: t(.syncKeyMissing)
        case .serverRestored: t(.syncRestored)
        case .strayAnswer: t(.syncStrayAnswer)
        }
    }
}
