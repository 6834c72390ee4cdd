import Synchronization

/// The accounts of tokens this server found good, so that a sync with one of them is one
/// round trip to the database, not two: its body is read first and the token confirmed
/// in the sync's first statement (``OperationLog/sync(account:request:confirming:logger:)``),
/// which refuses it once revoked, or once its account is removed, as a lookup would.
///
/// Only a token looked up and found good comes here, so a stranger's body is still never
/// read: a made-up token is looked up before the body, every time. A revoked token may
/// have the body of the request that finds it revoked read (the one sync in flight, or a
/// few at once), and is then forgotten. Bounded: when ``capacity`` tokens are held, the
/// next one starts the cache over (every token is looked up once more).
final class TokenCache: Sendable {
    let capacity: Int
    private let holders = Mutex<[String: TokenHolder]>([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The account `token` named when it was last found good.
    func holder(of token: String) -> TokenHolder? {
        holders.withLock { $0[token] }
    }

    func remember(_ token: String, as holder: TokenHolder) {
        holders.withLock { holders in
            if holders.count >= capacity, holders[token] == nil { holders.removeAll(keepingCapacity: true) }
            holders[token] = holder
        }
    }

    func forget(_ token: String) {
        _ = holders.withLock { $0.removeValue(forKey: token) }
    }

    /// How many tokens it holds.
    var count: Int { holders.withLock { $0.count } }
}
