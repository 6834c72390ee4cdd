import Logging
import PostgresNIO
import ServiceLifecycle

/// Keeps a server's ``TokenCache`` in step with the database: listens on
/// ``channel``, on which the database says that tokens went (schema migration 6: a trigger
/// on every update, delete or truncate of `token`, an account's removal among them), and
/// starts the cache over each time. The cache holds tokens only while it listens: from
/// the moment the `LISTEN` is in place until the connection fails, when it holds none
/// again and listens anew a second later.
struct TokenWatch: Service {
    static let channel = "navstack_tokens_gone"
    /// How long it waits before listening again after its connection failed.
    static let retry: Duration = .seconds(1)

    let client: PostgresClient
    let tokens: TokenCache
    let logger: Logger

    /// Returns only when the server shuts down: a service of the group that returns ends
    /// the whole server. Says once that it stopped listening (not every second while the
    /// database is away), and once that it listens again.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            var said = false
            while !Task.isCancelled {
                do {
                    try await client.withConnection { [said] connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            tokens.trust()
                            if said { logger.notice("told of tokens that go again; holding tokens") }
                            for try await _ in notifications { tokens.startOver() }
                        }
                    }
                } catch {
                    if Task.isCancelled { break }
                    // A failure after listening, or the first: said once, until it listens again.
                    if tokens.isTrusted || !said {
                        logger.warning(
                            "not told of tokens that go; looking every token up",
                            metadata: ["reason": "\(SyncServer.reason(error))"])
                        said = true
                    }
                }
                tokens.distrust()
                try? await Task.sleep(for: Self.retry)
            }
            tokens.distrust()
        }
    }
}
