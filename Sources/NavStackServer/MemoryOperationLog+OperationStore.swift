import Logging
import NavStackSync

/// The sync module's log in memory as the routes' store, for their tests: its refusals
/// are the server's.
extension MemoryOperationLog: OperationStore {
    public func account(token: String, logger: Logger) async throws -> TokenHolder? {
        account(token: token)
    }

    public func sync(account holder: TokenHolder, request: SyncRequest, confirming token: String?, logger: Logger)
        async throws -> SyncOutcome
    {
        do {
            return try sync(account: holder, request: request, confirming: token)
        } catch {
            throw ServerError(error)
        }
    }

    public func ping(logger: Logger) async throws {}
}
