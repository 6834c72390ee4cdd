import Logging
import NavStackSync

/// Where the server keeps each account's operations: PostgreSQL (``OperationLog``) or
/// memory (the sync module's `MemoryOperationLog`, for tests). The routes ask only this;
/// a log's ``SyncLogError`` is answered as the ``ServerError`` it is.
public protocol OperationStore: Sendable {
    /// The account that has `token`, `nil` when none has: one lookup, made before a byte of
    /// a request's body is read.
    func account(token: String, logger: Logger) async throws -> TokenHolder?

    /// Pushes the request's operations into `account` and pulls the page that follows
    /// `after`, as one step. An operation the account already holds (the same replica and
    /// seq, the same content) is left as it is; when one names a (replica, seq) the account
    /// holds with other content, nothing is kept and it throws ``ServerError/replicaTaken(_:)``.
    /// With `token` (the holder came from the server's ``TokenCache``, not a lookup made
    /// for this request), it first confirms that the token still names the account, and
    /// throws ``ServerError/badToken`` when it does not; nothing is written nor told of the
    /// account before.
    func sync(account: TokenHolder, request: SyncRequest, confirming token: String?, logger: Logger) async throws
        -> SyncOutcome

    /// Returns when the store can answer; throws when it cannot.
    func ping(logger: Logger) async throws
}
