import Synchronization

/// The bytes of request bodies the server holds at once: one bound for every request
/// together, whatever the number of clients, and a quarter of it for any one account. A
/// sync takes its body's share (the length its head declares; the most a body may be when
/// it declares none) before it reads a byte of it, and gives it back once answered; a sync
/// whose share does not fit is refused at once (``ServerError/bodiesFull``), its body unread.
///
/// Only requests with a good token get here (the token is looked up first), so what it
/// bounds is a token holder's flood: 100 connections each sending an 8 MiB body but its
/// last byte held 884 MB; now they hold at most ``perAccount``, and the other accounts'
/// devices still sync.
final class BodyBudget: Sendable {
    /// What the bodies in flight may hold together.
    let bytes: Int
    /// What the bodies in flight of one account may hold together.
    let perAccount: Int
    private let held = Mutex((total: 0, byAccount: [Int64: Int]()))

    /// 64 MiB: eight bodies of the largest size, or many of a usual sync's; an account
    /// may hold two of the largest at once.
    static let defaultBytes = 64 << 20

    init(bytes: Int = defaultBytes) {
        self.bytes = bytes
        perAccount = bytes / 4
    }

    /// Takes `count` bytes of the budget for `account`; `false` (nothing taken) when they
    /// do not fit in what is left, of the whole or of the account's share.
    func take(_ count: Int, for account: Int64) -> Bool {
        held.withLock { held in
            let accounts = held.byAccount[account, default: 0]
            guard count >= 0, count <= bytes - held.total, count <= perAccount - accounts else { return false }
            held.total += count
            held.byAccount[account] = accounts + count
            return true
        }
    }

    /// Gives back what ``take(_:for:)`` took.
    func give(_ count: Int, for account: Int64) {
        held.withLock { held in
            held.total -= count
            let left = held.byAccount[account, default: 0] - count
            held.byAccount[account] = left > 0 ? left : nil
        }
    }

    /// What the bodies in flight hold now.
    var inFlight: Int { held.withLock { $0.total } }
}
