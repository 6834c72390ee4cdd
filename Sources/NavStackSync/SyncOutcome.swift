/// The account a token names, as its lookup found it: its id and its key record. A key once
/// set never changes, so one found here holds for the request; `nil` may have become a key
/// since, and is read again under the account's lock.
public struct TokenHolder: Equatable, Sendable {
    public var id: Int64
    public var key: String?

    public init(id: Int64, key: String?) {
        self.id = id
        self.key = key
    }
}

/// What one sync did, for its answer and its log line.
public struct SyncOutcome: Equatable, Sendable {
    public var account: Int64
    public var answer: SyncAnswer

    public init(account: Int64, answer: SyncAnswer) {
        self.account = account
        self.answer = answer
    }
}
