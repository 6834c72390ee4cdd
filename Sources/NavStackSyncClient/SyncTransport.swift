import NavStackSync

/// How a sync reaches its server: a request sent now, its answer read later (while the
/// answer before is applied). ``HTTPSyncTransport`` is the server over HTTP; a test may
/// put another behind it. Refusals come back as the ``SyncError`` the server's status
/// says: 401 ``SyncError/refusedToken``, 409 ``SyncError/replicaTaken`` or
/// ``SyncError/keyTaken(record:)``, a stamp ahead ``SyncError/stampsAhead(serverMillis:)``.
public protocol SyncTransport: Sendable {
    /// Sends `request`, with what is left until `end`; its answer is read later.
    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply
}

/// A request sent whose answer is still to be read.
public protocol SyncReply: Sendable {
    /// The server's answer, or why there is none.
    func answer() throws(SyncError) -> SyncAnswer
}
