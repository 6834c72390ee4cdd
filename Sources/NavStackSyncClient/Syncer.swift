import NavStackCore
import NavStackSQLite
import NavStackSync

/// What one sync did.
public struct SyncTotals: Equatable, Sendable {
    public var sent = 0
    public var received = 0
    public var conflicts = 0
    /// Operations set aside (they do not open with the account's key), by replica.
    public var setAside: [String: Int] = [:]
    /// Whether this run made the account's key.
    public var madeKey = false
    /// Whether the server's log went back (restored from a backup) and the run started over.
    public var restored = false
    /// Whether operations set aside were left out: the store keeps as many as it may.
    public var asideFull = false

    public init() {}

    public var line: String { "sent \(sent), received \(received), conflicts \(conflicts)" }

    /// What the user is told besides the line, one notice a line (without `navstack: sync: `):
    /// the key made, the log restored, what was set aside, by replica, once a run.
    public func notices(in t: Catalog) -> [String] {
        var notices: [String] = []
        if madeKey { notices.append(t(.syncMadeKey)) }
        if restored { notices.append(t(.syncRestored)) }
        for (replica, count) in setAside.sorted(by: { $0.key < $1.key }) {
            notices.append(t(.syncSetAside, ("count", count), ("replica", replica.escapedForDisplay)))
        }
        if asideFull {
            notices.append(t(.syncAsideFull, ("count", SyncAsideBound.operations), ("bytes", SyncAsideBound.bytes >> 20)))
        }
        return notices
    }
}

/// Runs sync rounds against the server (docs/sync.md): each sends up to a batch of this
/// replica's operations and applies what the server answers, until there is nothing
/// left either way. It reaches the server only through its ``SyncTransport``.
public struct Syncer {
    let store: SQLiteStore
    let user: String
    let transport: any SyncTransport
    /// The passphrase, for a profile that has no key yet.
    let passphrase: PassphraseSource
    /// The words of its failures.
    let catalog: Catalog
    /// Told the totals after each round (a hand sync shows them at a terminal).
    public var onRound: ((SyncTotals) -> Void)?
    /// The largest snapshot this sync makes (automatic sync's are smaller).
    public var snapshotLimit = SyncSnapshot.maximumSealedBytes
    /// The most operations a request sends (fewer in tests of many rounds).
    public var batch = SQLiteStore.syncBatch
    /// How many operations since the account's snapshot make another due (fewer in tests).
    public var snapshotsAfter = SyncSnapshot.leastOperations
    /// Whether an account that holds tasks in clear and no key moves to encryption with
    /// this run (`navstack sync --migrate`); else the run stops and says so.
    public var migrate = false
    /// Whether this run's requests take the account's snapshot: not once one did not open.
    private(set) var takesSnapshots = true

    public init(store: SQLiteStore, user: String, transport: any SyncTransport, passphrase: PassphraseSource, catalog: Catalog) {
        self.store = store
        self.user = user
        self.transport = transport
        self.passphrase = passphrase
        self.catalog = catalog
    }

    /// Syncs within `budget`. A store whose (replica, seq) the server holds with other
    /// content (restored or copied) takes a new replica id and syncs again; stamps the
    /// server found ahead of its clock are made again from this machine's clock when that
    /// is right now, and the sync goes on; when it is not, the sync stops and says so.
    ///
    /// An operation that does not open with the account's key is set aside and the rest
    /// applied (the totals say by which replica); a snapshot that does not open makes the
    /// run ask for the log instead, which the server sends while it holds it all. A server
    /// whose log went back (another restore epoch) makes the run start over from the start,
    /// sending again every task this replica knows.
    public mutating func run(within budget: Duration) throws(SyncError) -> SyncTotals {
        let end = ContinuousClock.now.advanced(by: budget)
        var totals = SyncTotals()
        takesSnapshots = true
        // Each is done once a run: a second refusal of the same kind is the run's failure.
        var tookNewReplica = false
        var restamped = false
        var adopted = false
        var restarted = false
        // The snapshot that did not open, once one did not.
        var unopened: Int64 = 0
        var seal = try make { try store.syncSeal(user) }
        while true {
            do {
                var held: KeyProbe?
                if seal.state == .none { (seal, held) = try learnKey(until: end, totals: &totals) }
                if seal.state == .offered { seal = try offerKey(seal, until: end, totals: &totals) }
                let since = try rounds(until: end, seal: seal, totals: &totals, from: held)
                if seal.state == .resending { seal = try dropClear(seal, until: end, totals: &totals) }
                if seal.state == .sealed, let since { offerSnapshot(seal, since: since, until: end, totals: &totals) }
                return totals
            } catch .keyTaken(let record) where !adopted {
                // Another replica gave the account its key first: this one takes it, if
                // the passphrase opens it.
                adopted = true
                seal = try opened(record, forgetting: true)
                try make { try store.setSyncSeal(user, seal) }
            } catch .unopenableSnapshot(let seq) where takesSnapshots {
                // The log instead; a server that no longer holds it all refuses (400).
                takesSnapshots = false
                unopened = seq
            } catch .server(status: 400, let message) where message == SyncWireError.snapshotNeeded.message(in: .english) {
                throw .unopenableSnapshot(seq: unopened)
            } catch .serverRestored(let epoch) where !restarted {
                restarted = true
                totals.restored = true
                _ = try make { try store.restartSync(user, epoch: epoch) }
            } catch .replicaTaken where !tookNewReplica {
                tookNewReplica = true
                _ = try make { try store.restampUnsent(user, .newReplica) }
            } catch .stampsAhead(let serverMillis) {
                let wall = Int(SQLiteStore.milliseconds())
                guard wall - serverMillis <= SyncDrift.maximumMillis else { throw .clockAhead(millis: wall - serverMillis) }
                guard !restamped else { throw .stampsAhead(serverMillis: serverMillis) }
                restamped = true
                _ = try make { try store.restampUnsent(user, .clockSetBack(wall: wall)) }
            }
        }
    }

    /// Sync rounds until `end`, counted into `totals` as the server takes them: each
    /// sends up to a batch of this replica's operations and applies what the server
    /// answers, until there is nothing left either way. While the server works on one
    /// request, the next batch is made and sealed; once its answer is read, the next request goes
    /// out, and its answer is read, decoded and opened on a thread of its own while the
    /// one before is applied. `held`: the key probe's answer, the first round's. Returns
    /// how many operations the account took since its snapshot, as the last answer says.
    private func rounds(
        until end: ContinuousClock.Instant, seal: SyncSeal, totals: inout SyncTotals, from held: KeyProbe?
    ) throws(SyncError) -> Int64? {
        let transport = try transport(sealedWith: seal)
        var batch: SyncBatch
        var answering: SealedTransport.Answering
        var settling = 0
        if let held {
            batch = held.batch
            // The probe sent nothing: what waits in the outbox goes in the next request.
            batch.more = true
            answering = transport.opening(held.answer)
        } else {
            batch = try make { try store.syncRequest(user, limit: self.batch) }
            answering = transport.answering(try transport.send(batch.request, by: end))
        }
        while true {
            // Made and sealed while the server works on the request before.
            let next =
                batch.more ? transport.sealed(try make { try store.syncRequest(user, after: batch.through, limit: self.batch) }) : nil
            let answer = try answering.value().get()
            var following: (SyncBatch, SealedTransport.Answering)?
            if next.map({ $0.count > 0 }) == true || answer.more {
                var nextBatch: SyncBatch
                if let next {
                    nextBatch = next
                } else {
                    nextBatch = try make { try store.syncRequest(user, after: batch.through, limit: self.batch) }
                }
                // The pull goes on from this answer, not yet applied.
                nextBatch.request.after = answer.last
                following = (nextBatch, transport.answering(try transport.send(nextBatch.request, by: end)))
            }
            let round = try make { try store.applySyncAnswer(user, answer, to: batch) }
            totals.count(round, sent: batch.count)
            onRound?(totals)
            if following == nil, settling < 2, try make({ try store.hasUnsentChanges(user) }) {
                // What applying the answer changed here (a series left with one open
                // instance, its stamps) goes in this run, not the next: a sync leaves
                // nothing of its own behind. Twice at most.
                settling += 1
                let more = try make { try store.syncRequest(user, limit: self.batch) }
                following = (more, transport.answering(try transport.send(more.request, by: end)))
            }
            guard let following else { return answer.sinceSnapshot }
            (batch, answering) = following
        }
    }

    /// A step of the store's, its failure as a sync's.
    func make<T>(_ step: () throws -> T) throws(SyncError) -> T {
        do {
            return try step()
        } catch {
            throw SyncError(error, in: catalog)
        }
    }
}

extension SyncTotals {
    /// Counts a round the store applied, which sent `sent` of this replica's operations.
    mutating func count(_ round: SyncRound, sent: Int) {
        self.sent += sent
        received += round.received
        conflicts += round.conflicts
        for (replica, count) in round.setAside { setAside[replica, default: 0] += count }
        asideFull = asideFull || round.asideFull
    }
}
