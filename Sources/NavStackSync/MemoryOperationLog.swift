import Synchronization

/// Each account's log of operations in memory, kept as the server's `OperationLog` keeps
/// it in PostgreSQL: one `server_seq` counter for every account, an operation's (replica,
/// seq) taken once per account and refused with other content, the key's rules, pages in
/// `server_seq` order, snapshots and what they drop. The one log of the tests: the
/// server's routes run over it, and so do the client's and the merge tests; the parity
/// tests hold it to PostgreSQL's case by case. Everything is gone when the process ends.
public final class MemoryOperationLog: Sendable {
    /// How many operations a page holds at most (the server's, unless a test pages by fewer).
    public let pageSize: Int
    /// How many more operations than the snapshot it replaces a snapshot must cover
    /// (``SyncSnapshot/replaces(seq:covering:held:highest:least:)``): the server's, unless
    /// a test makes snapshots after fewer.
    public let leastOperations: Int

    /// What the log did with snapshots, for the tests to see that it did.
    public struct Counts: Equatable, Sendable {
        /// Snapshots kept, pulls that started from one, operations a snapshot dropped.
        public var snapshotsKept = 0
        public var snapshotsServed = 0
        public var dropped = 0
    }

    fileprivate struct Account {
        /// In `server_seq` order: each push appends.
        var operations: [SyncOperation] = []
        /// Where in ``operations`` each (replica, seq) held is.
        var places: [OperationName: Int] = [:]
        /// The key record, once a replica has given one.
        var key: String?
        /// How many operations it took.
        var taken: Int64 = 0
        /// The latest snapshot, the operations it took through it, and how far operations
        /// were dropped.
        var snapshot: SyncSnapshot?
        var takenThroughSnapshot: Int64 = 0
        var trimmed: Int64 = 0
        /// Each replica's highest seq dropped.
        var droppedThrough: [String: Int64] = [:]
        /// The newest format of the requests that wrote to it (``SyncFormat``).
        var format = 1
    }

    fileprivate struct OperationName: Hashable {
        var replica: String
        var seq: Int64
    }

    fileprivate struct State {
        var accounts: [Int64: Account] = [:]
        /// Each account's id, by name.
        var names: [String: Int64] = [:]
        /// Each token's account.
        var tokens: [String: Int64] = [:]
        var lastServerSeq: Int64 = 0
        var counts = Counts()
        /// The log's restore epoch: made anew when the log is restored from a backup
        /// (``restore(_:)``), as the server's is for a database restored.
        var epoch = BearerToken.random()
    }

    private let state = Mutex(State())

    /// A copy of everything the log holds, as a backup of the server's database is.
    public struct Backup: Sendable {
        fileprivate let state: State
    }

    /// Everything the log holds now.
    public func backup() -> Backup {
        Backup(state: state.withLock { $0 })
    }

    /// Puts back what `backup` held, every change since lost, under a new restore epoch.
    public func restore(_ backup: Backup) {
        state.withLock { state in
            state = backup.state
            state.epoch = BearerToken.random()
        }
    }

    public init(pageSize: Int = SyncLimits.pageSize, leastOperations: Int = SyncSnapshot.leastOperations) {
        self.pageSize = pageSize
        self.leastOperations = leastOperations
    }

    /// What the log did with snapshots so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// The log's restore epoch, which every answer names.
    public var epoch: String { state.withLock { $0.epoch } }

    /// Creates the account `name` and returns its first token; `nil` when it exists
    /// already (as the server's `user add` refuses it).
    @discardableResult
    public func addUser(name: String) -> String? {
        state.withLock { state in
            guard state.names[name] == nil else { return nil }
            let id = Int64(state.names.count + 1)
            state.names[name] = id
            state.accounts[id] = Account()
            let token = BearerToken.random()
            state.tokens[token] = id
            return token
        }
    }

    /// Another token for the account `name`; `nil` when there is no such account.
    public func addToken(name: String) -> String? {
        state.withLock { state in
            guard let id = state.names[name] else { return nil }
            let token = BearerToken.random()
            state.tokens[token] = id
            return token
        }
    }

    /// Stops every token of the account `name` and returns how many there were; `nil`
    /// when there is no such account.
    public func revoke(name: String) -> Int? {
        state.withLock { state in
            guard let id = state.names[name] else { return nil }
            let revoked = state.tokens.filter { $0.value == id }.map(\.key)
            for token in revoked { state.tokens[token] = nil }
            return revoked.count
        }
    }

    /// Removes the operations the replica `replica` sent to the account `name` (as the
    /// server's `user drop-replica` does) and returns how many; `nil` when there is no such
    /// account.
    @discardableResult
    public func dropReplica(name: String, replica: String) -> Int? {
        state.withLock { state in
            guard let id = state.names[name], var account = state.accounts[id] else { return nil }
            let before = account.operations.count
            account.drop(where: { $0.replica == replica })
            state.accounts[id] = account
            return before - account.operations.count
        }
    }

    /// How many operations the account `name` holds.
    public func operationCount(name: String) -> Int {
        state.withLock { state in state.names[name].flatMap { state.accounts[$0]?.operations.count } ?? 0 }
    }

    /// The account that has `token`, `nil` when none has.
    public func account(token: String) -> TokenHolder? {
        state.withLock { state in state.tokens[token].map { TokenHolder(id: $0, key: state.accounts[$0]?.key) } }
    }

    /// Pushes the request's operations into `account` and pulls the page that follows
    /// `after`, as one step, by the rules the server's `OperationStore` states. With
    /// `token`, it first confirms that the token still names the account.
    public func sync(account holder: TokenHolder, request: SyncRequest, confirming token: String? = nil) throws(SyncLogError)
        -> SyncOutcome
    {
        let id = holder.id
        let (pageSize, least) = (pageSize, leastOperations)
        return try state.withLock { state throws(SyncLogError) in
            guard var account = state.accounts[id] else { throw .badToken }
            if let token, state.tokens[token] != id { throw .badToken }
            try request.knownFormat()
            let replica = request.replica
            let clash = request.clash { seq in
                account.places[OperationName(replica: replica, seq: seq)].map { account.operations[$0] }
            }
            if let clash { throw .replicaTaken(clash) }
            if let dropped = account.droppedThrough[replica],
                let place = request.operations.firstIndex(where: { $0.seq <= dropped })
            {
                throw .replicaTaken(.replicaTaken(path: "ops[\(place)]", replica: replica, seq: request.operations[place].seq))
            }
            let clearAfter =
                request.asksForClearAfter(accountKey: account.key)
                && account.operations.contains { $0.serverSeq > request.after && $0.sealed == nil }
            account.key = try request.sealing(accountKey: account.key, clearAfter: clearAfter).key
            // After the key's rules, as the server's push checks it.
            account.format = try request.format(accountFormat: account.format)
            for operation in request.operations {
                let name = OperationName(replica: replica, seq: operation.seq)
                guard account.places[name] == nil else { continue }
                account.places[name] = account.operations.count
                account.taken += 1
                state.lastServerSeq += 1
                account.operations.append(
                    .init(
                        serverSeq: state.lastServerSeq, replica: replica, seq: operation.seq,
                        millis: operation.millis, counter: operation.counter, task: operation.task,
                        field: operation.field, value: operation.value, old: operation.old, sealed: operation.sealed))
            }
            if request.dropClear { account.drop(where: { $0.sealed == nil }) }
            if let snapshot = request.snapshot {
                let past =
                    account.operations.first(where: { $0.replica == replica && $0.seq > request.ownSeq })?.seq
                    ?? account.droppedThrough[replica].flatMap { $0 > request.ownSeq ? $0 : nil }
                if let past { throw .replicaTaken(.replicaTaken(path: "own_seq", replica: replica, seq: past)) }
                let covered = account.taken - Int64(account.operations.count { $0.serverSeq > snapshot.seq })
                let held = account.snapshot.map { (seq: $0.seq, covering: account.takenThroughSnapshot) }
                if SyncSnapshot.replaces(seq: snapshot.seq, covering: covered, held: held, highest: account.highest, least: least) {
                    let trimmed = account.snapshot?.seq ?? 0
                    account.takenThroughSnapshot = covered
                    account.snapshot = snapshot
                    account.trimmed = trimmed
                    state.counts.snapshotsKept += 1
                    for operation in account.operations where operation.serverSeq <= trimmed {
                        account.droppedThrough[operation.replica] = max(account.droppedThrough[operation.replica] ?? 0, operation.seq)
                        state.counts.dropped += 1
                    }
                    account.drop(where: { $0.serverSeq <= trimmed })
                }
            }
            state.accounts[id] = account
            var after = request.after
            var snapshot: SyncSnapshot?
            if let held = account.snapshot, try request.startsFromSnapshot(seq: held.seq, trimmed: account.trimmed) {
                snapshot = held
                after = held.seq
                state.counts.snapshotsServed += 1
            }
            var answer = Self.page(of: account, after: after, for: request, size: pageSize)
            answer.key = account.key
            answer.snapshot = snapshot
            answer.sinceSnapshot = account.key == nil ? nil : account.taken - account.takenThroughSnapshot
            answer.epoch = state.epoch
            answer.stored = SyncStored(request)
            answer.gone = request.gone { replica in account.operations.contains { $0.replica == replica } }
            return SyncOutcome(account: id, answer: answer)
        }
    }

    /// The page after `after`, as the server's `OperationLog` reads it: the other
    /// replicas' operations, a page and one more at most.
    private static func page(of account: Account, after: Int64, for request: SyncRequest, size: Int) -> SyncAnswer {
        let operations = account.operations
        // The first operation past `after`, found by halves: the array is in `server_seq` order.
        var low = 0
        var high = operations.count
        while low < high {
            let middle = (low + high) / 2
            if operations[middle].serverSeq > after { high = middle } else { low = middle + 1 }
        }
        let rows = operations[low...].lazy.filter { $0.replica != request.replica && (account.key == nil || $0.sealed != nil) }
            .prefix(size + 1)
        return SyncAnswer(after: after, highest: account.highest, following: Array(rows), pageSize: size)
    }
}

extension MemoryOperationLog.Account {
    /// The highest `server_seq` it took: its last operation's, or its snapshot's when that
    /// dropped every one.
    var highest: Int64 { max(operations.last?.serverSeq ?? 0, snapshot?.seq ?? 0) }

    /// Drops the operations `dropping` picks, and where the others are.
    mutating func drop(where dropping: (SyncOperation) -> Bool) {
        operations.removeAll(where: dropping)
        places = [:]
        for (index, operation) in operations.enumerated() {
            places[MemoryOperationLog.OperationName(replica: operation.replica, seq: operation.seq)] = index
        }
    }
}
