import NavStackCore
import NavStackSeal
import NavStackSync
import NavStackSyncClient
import XCTest

@testable import NavStackSQLite

/// An account on the sync module's log in memory, as the server keeps it (docs/sync.md),
/// and its replicas' way to it: each sync is the client's own (``Syncer``), its requests
/// sealed with the account's key, through a transport that hands them to the log through
/// the protocol's one codec. The end-to-end tests run the real server; these check how
/// stores merge what they receive, over many seeds.
final class Account {
    let log: MemoryOperationLog
    let holder: TokenHolder
    /// How many operations since the last snapshot make replicas make another; `nil`:
    /// the server's number.
    let snapshotsAfter: Int?
    /// The seqs of the replica that sends what it likes.
    private var hostileSeq: Int64 = 0

    /// The account's key, made once for every test (the fewest iterations a record may ask).
    static let key = SyncKeyRecord.make(passphrase: "merge tests", iterations: SyncKeyRecord.iterationRange.lowerBound)
    static var seal: SyncSeal { SyncSeal(state: .sealed, key: key.1.bytes, record: key.0.text) }
    static var sealer: OperationSealer { OperationSealer(key: key.1, record: key.0) }

    /// `format`: the format of the replica that gives the account its key (an earlier
    /// navstack's leaves the account at its own).
    init(pageSize: Int = SyncLimits.pageSize, snapshotsAfter: Int? = nil, format: Int = SyncFormat.current) throws {
        log = MemoryOperationLog(pageSize: pageSize, leastOperations: snapshotsAfter ?? SyncSnapshot.leastOperations)
        self.snapshotsAfter = snapshotsAfter
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        holder = try XCTUnwrap(log.account(token: token))
        // The account takes its key from the first replica that offers it.
        var offer = SyncRequest(replica: String(repeating: "0", count: 32), after: 0, operations: [], key: Self.key.0.text)
        offer.format = format
        _ = try log.sync(account: holder, request: Self.sealer.seal(offer))
    }

    /// What the log did with snapshots.
    var counts: MemoryOperationLog.Counts { log.counts }

    /// `store`'s profile `user` as one of the account's replicas, with its key.
    func join(_ store: SQLiteStore, _ user: String) throws {
        _ = try store.configureSync(user, server: "http://server", token: "t")
        try store.setSyncSeal(user, Self.seal)
    }

    /// Syncs a store as `navstack sync` does, until it has sent everything and received
    /// everything, then makes a snapshot when one is due.
    @discardableResult
    func sync(_ store: SQLiteStore, _ user: String, batch: Int = SQLiteStore.syncBatch) throws -> SyncTotals {
        var syncer = Syncer(
            store: store, user: user, transport: LogTransport(log: log, account: holder),
            passphrase: PassphraseSource(given: nil, catalog: .english), catalog: .english)
        syncer.batch = batch
        if let snapshotsAfter { syncer.snapshotsAfter = snapshotsAfter }
        return try syncer.run(within: .seconds(60))
    }

    /// The replicas whose operations the log holds.
    func replicas() throws -> Set<String> {
        let everything = try log.sync(
            account: holder, request: SyncRequest(replica: String(repeating: "f", count: 32), after: 0, operations: []))
        return Set(everything.answer.operations.map(\.replica))
    }

    /// One request and its answer, sealed and opened as a replica does.
    func answer(_ request: SyncRequest) throws -> SyncAnswer {
        let answer = try LogTransport(log: log, account: holder).send(Self.sealer.seal(request), by: .now + .seconds(60)).answer()
        var opened = Self.sealer.open(answer)
        opened.snapshot = try answer.snapshot.map { try XCTUnwrap(Self.sealer.open($0)) }
        return opened
    }

    /// Operations of a replica that sends what it likes, sealed with the account's key,
    /// as the server would hand them on.
    func inject(_ operations: [(task: String, field: SyncField, value: String)], ahead: Int64 = 0, counter: Int64 = 0) throws {
        let hostile = "00000000000000000000000000000bad"
        let sent = operations.map { task, field, value in
            hostileSeq += 1
            return SyncOperation(
                serverSeq: 0, replica: hostile, seq: hostileSeq, millis: Int64(SQLiteStore.milliseconds()) + ahead, counter: counter,
                task: task, field: field, value: value)
        }
        _ = try log.sync(account: holder, request: Self.sealer.seal(SyncRequest(replica: hostile, after: 0, operations: sent)))
    }
}

/// The log reached as the routes reach it: the request and the answer through the
/// protocol's one codec, a refusal as the status the server gives it.
struct LogTransport: SyncTransport {
    let log: MemoryOperationLog
    let account: TokenHolder

    /// The answer, ready at once.
    struct Reply: SyncReply {
        let result: Result<SyncAnswer, SyncError>
        func answer() throws(SyncError) -> SyncAnswer { try result.get() }
    }

    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        guard ContinuousClock.now < end else { throw .outOfTime }
        do {
            let read = try SyncRequest(json: request.json())
            let answer = try log.sync(account: account, request: read).answer
            return Reply(result: .success(try SyncAnswer(json: answer.json())))
        } catch let refusal as SyncLogError {
            switch refusal {
            case .replicaTaken: throw .replicaTaken
            case .keyTaken(let key): throw .keyTaken(record: key)
            case .badToken: throw .refusedToken
            case .malformed(let failure): throw .server(status: 400, message: failure.message(in: .english))
            case .writeKeyNeeded: throw .server(status: 403, message: "write key needed")
            case .formatNeeded(let format): throw .server(status: 400, message: "format \(format) needed")
            }
        } catch {
            preconditionFailure("the codec reads back what it writes: \(error)")
        }
    }
}
