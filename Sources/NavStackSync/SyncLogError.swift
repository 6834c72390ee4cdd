/// Why an account's operation log refuses a sync request, by the rules every log keeps
/// (``MemoryOperationLog`` here, PostgreSQL's in the server): the server answers each with
/// its status (400, 409, 401).
public enum SyncLogError: Error, Equatable, Sendable {
    /// The request breaks a rule of the account's key (an operation in clear for a
    /// sealed account, a snapshot without a key…): says which part and why.
    case malformed(SyncWireError)
    /// An operation names a (replica, seq) the account holds with other content, or
    /// dropped (``SyncWireError/replicaTaken``): nothing of the request is kept.
    case replicaTaken(SyncWireError)
    /// The request offers the account a key, and the account has another (`accountKey`).
    case keyTaken(accountKey: String)
    /// The request writes to an account whose key record has a `write_check`, without
    /// the write key it checks (``SyncRequest/writeKey``): a token without the passphrase
    /// reads sealed bytes and writes nothing.
    case writeKeyNeeded
    /// The account holds operations of a newer format (`format`) than the request's: an
    /// earlier navstack, told to update before it reads or writes anything.
    case formatNeeded(format: Int)
    /// The token no longer names the account.
    case badToken
}
