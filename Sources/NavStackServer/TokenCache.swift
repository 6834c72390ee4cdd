import NavStackSync
import Synchronization

/// The accounts of tokens this server found good, so that a sync with one of them is one
/// round trip to the database, not two: its body is read first and the token confirmed
/// in the sync's first statement (``OperationLog/sync(account:request:confirming:logger:)``),
/// which refuses it once revoked, or once its account is removed, as a lookup would.
///
/// Only a token looked up and found good comes here, so a stranger's body is never read.
/// A token revoked is forgotten by every server at once: the database tells them when any
/// token goes (``TokenWatch``), and the cache starts over; until a server listens, and
/// whenever it stops listening, its cache holds nothing. Should a revoked token still be
/// held (the word not come yet), the sync's statement refuses it (401) before anything is
/// written or told, and it is forgotten. Bounded: when ``capacity`` tokens are held, the
/// next one starts the cache over (every token is looked up once more).
final class TokenCache: Sendable {
    let capacity: Int

    private struct State {
        var holders: [String: TokenHolder] = [:]
        var trusted: Bool
        /// Counts the times the cache started over: a lookup made before one is not kept.
        var generation = 0

        mutating func startOver() {
            holders.removeAll(keepingCapacity: true)
            generation += 1
        }
    }

    private let state: Mutex<State>

    /// `trusted`: whether it holds tokens from the start; else from ``trust()`` on.
    init(capacity: Int = 10_000, trusted: Bool) {
        self.capacity = capacity
        state = Mutex(State(trusted: trusted))
    }

    /// The account `token` named when it was last found good.
    func holder(of token: String) -> TokenHolder? {
        state.withLock { $0.holders[token] }
    }

    /// Where the cache stands, to give ``remember(_:as:since:)`` after a lookup.
    var generation: Int { state.withLock { $0.generation } }

    /// Keeps `token`'s holder, found by a lookup that began at `generation`: not when the
    /// cache started over since (a token gone meanwhile may be the one just found).
    func remember(_ token: String, as holder: TokenHolder, since generation: Int) {
        let capacity = self.capacity
        state.withLock { state in
            guard state.trusted, state.generation == generation else { return }
            if state.holders.count >= capacity, state.holders[token] == nil {
                state.holders.removeAll(keepingCapacity: true)
            }
            state.holders[token] = holder
        }
    }

    /// The key of `token`'s account, if the token is held: a key once set never changes.
    func update(_ token: String, key: String?) {
        state.withLock { $0.holders[token]?.key = key }
    }

    func forget(_ token: String) {
        _ = state.withLock { $0.holders.removeValue(forKey: token) }
    }

    /// Forgets every token: one or more went from the database.
    func startOver() {
        state.withLock { $0.startOver() }
    }

    /// Holds tokens from now on (the server listens for tokens that go).
    func trust() {
        state.withLock { state in
            state.startOver()
            state.trusted = true
        }
    }

    /// Holds none until ``trust()`` (the server stopped listening).
    func distrust() {
        state.withLock { state in
            state.startOver()
            state.trusted = false
        }
    }

    /// Whether it holds tokens (since ``trust()``, until ``distrust()``).
    var isTrusted: Bool { state.withLock { $0.trusted } }

    /// How many tokens it holds.
    var count: Int { state.withLock { $0.holders.count } }
}
