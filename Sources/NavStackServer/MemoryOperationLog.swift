import Logging
import NavStackSync
import Synchronization

/// Each account's log of operations in memory, kept as ``OperationLog`` keeps it in
/// PostgreSQL: one `server_seq` counter for every account, an operation's (replica, seq)
/// taken once per account, pages in `server_seq` order. For the routes' tests; everything
/// is gone when the process ends.
public final class MemoryOperationLog: OperationStore {
    private struct Account {
        var id: Int64
        /// In `server_seq` order: each push appends.
        var operations: [SyncOperation] = []
        /// The (replica, seq) of every operation held.
        var names: Set<OperationName> = []
    }

    private struct OperationName: Hashable {
        var replica: String
        var seq: Int64
    }

    private struct State {
        var accounts: [String: Account] = [:]
        /// Each token's account, by name.
        var tokens: [String: String] = [:]
        var lastAccountID: Int64 = 0
        var lastServerSeq: Int64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Creates the account `name` if it is new and gives it a new token, which it returns.
    public func addUser(name: String) -> (token: String, isNew: Bool) {
        let token = BearerToken.random()
        let isNew = state.withLock { state in
            state.tokens[token] = name
            guard state.accounts[name] == nil else { return false }
            state.lastAccountID += 1
            state.accounts[name] = Account(id: state.lastAccountID)
            return true
        }
        return (token, isNew)
    }

    /// How many operations the account `name` holds.
    public func operationCount(name: String) -> Int {
        state.withLock { $0.accounts[name]?.operations.count ?? 0 }
    }

    public func sync(token: String, request: SyncRequest, logger: Logger) async throws -> SyncOutcome {
        try state.withLock { state throws(Refusal) in
            guard let name = state.tokens[token], var account = state.accounts[name] else { throw .badToken }
            for operation in request.operations
            where account.names.insert(OperationName(replica: request.replica, seq: operation.seq)).inserted {
                state.lastServerSeq += 1
                account.operations.append(
                    .init(
                        serverSeq: state.lastServerSeq, replica: request.replica, seq: operation.seq,
                        millis: operation.millis, counter: operation.counter, task: operation.task,
                        field: operation.field, value: operation.value, old: operation.old))
            }
            state.accounts[name] = account
            return SyncOutcome(account: account.id, answer: Self.page(of: account, for: request))
        }
    }

    public func ping(logger: Logger) async throws {}

    /// The page after the request's `after`, as ``OperationLog`` reads it: the other
    /// replicas' operations, a page and one more at most.
    private static func page(of account: Account, for request: SyncRequest) -> SyncAnswer {
        let operations = account.operations
        // The first operation past `after`, found by halves: the array is in `server_seq` order.
        var low = 0
        var high = operations.count
        while low < high {
            let middle = (low + high) / 2
            if operations[middle].serverSeq > request.after { high = middle } else { low = middle + 1 }
        }
        let rows = operations[low...].lazy.filter { $0.replica != request.replica }.prefix(SyncLimits.pageSize + 1)
        return SyncAnswer(after: request.after, highest: operations.last?.serverSeq ?? 0, following: Array(rows))
    }
}
