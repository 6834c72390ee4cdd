import NavStackCore
import NavStackSeal
import NavStackSync
import NavStackSyncClient
import Synchronization
import XCTest

@testable import NavStackSQLite

/// What a device keeps of what it cannot open, and which answers it takes (docs/sync.md,
/// "End-to-end encryption" and "An answer is bound to its request"): operations set aside
/// are bounded and let go once the server drops their replica; an answer that does not
/// name what its request sent acknowledges nothing.
final class SyncGuardTests: XCTestCase {
    let user = "ana"

    func replica(_ log: Account, _ titles: [String] = []) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try store.openProfile(user, sample: false)
        try log.join(store, user)
        for title in titles { _ = try store.insertAtTop(user, DraftFields(title: title), as: .add) }
        return store
    }

    /// Sealed-looking bytes no key opens, `size` bytes each, as the server hands them on
    /// from `replica`.
    func junk(_ log: Account, replica: String, seqs: ClosedRange<Int64>, size: Int = 60) throws {
        let operations = seqs.map { seq in
            SyncOperation.sealed(
                Base64.encode([UInt8](repeating: UInt8(truncatingIfNeeded: seq), count: size)), seq: seq,
                millis: Int64(SQLiteStore.milliseconds()), counter: 0)
        }
        _ = try log.log.sync(
            account: log.holder, request: Account.sealer.seal(SyncRequest(replica: replica, after: 0, operations: operations)))
    }

    func testWhatADeviceSetsAsideIsBoundedAndSaidOnce() throws {
        let log = try Account()
        let stranger = String(repeating: "5e", count: 16)
        // 1.6 MB of base64 each: the third passes the 4 MiB a device keeps.
        try junk(log, replica: stranger, seqs: 1...5, size: 1_200_000)
        let a = try replica(log)
        let totals = try log.sync(a, user)
        XCTAssertEqual(totals.setAside, [stranger: 5], "every one is counted")
        XCTAssertTrue(totals.asideFull)
        XCTAssertEqual(try a.syncAside(user).map(\.count), [2], "what fits in 4 MiB is kept")
        XCTAssertEqual(
            totals.notices(in: .english).last,
            "this device keeps at most 10000 operations (4 MiB) set aside; the others were counted, not kept. On the server, navstack-server user drop-replica NAME REPLICA removes them, and this device then lets go of those it keeps"
        )
        try junk(log, replica: stranger, seqs: 6...6)
        let again = try log.sync(a, user)
        XCTAssertEqual(again.setAside, [stranger: 1])
        XCTAssertFalse(again.asideFull, "a small one still fits")
    }

    func testWhatIsSetAsideIsLetGoOnceTheServerDropsItsReplica() throws {
        let log = try Account()
        let (stranger, other) = (String(repeating: "5e", count: 16), String(repeating: "6f", count: 16))
        try junk(log, replica: stranger, seqs: 1...3)
        try junk(log, replica: other, seqs: 1...1)
        let a = try replica(log, ["Pay rent"])
        try log.sync(a, user)
        XCTAssertEqual(try a.syncAside(user).map(\.replica), [stranger, other])
        XCTAssertEqual(log.log.dropReplica(name: user, replica: stranger), 3)
        try log.sync(a, user)
        XCTAssertEqual(try a.syncAside(user).map(\.replica), [other], "let go of the dropped replica's, not the other's")
        XCTAssertEqual(try a.syncAside(user).map(\.count), [1])
    }

    func testAStrayAnswerAcknowledgesNothing() throws {
        let log = try Account()
        let a = try replica(log, ["Pay rent"])
        try log.sync(a, user)
        _ = try a.insertAtTop(user, DraftFields(title: "Call mum"), as: .add)
        _ = try a.insertAtTop(user, DraftFields(title: "Water plants"), as: .add)
        // The answer to a request before (one that sent nothing), read as this one's: it
        // names another range.
        let base = LogTransport(log: log.log, account: log.holder)
        let before = try base.send(Account.sealer.seal(try a.syncProbe(user).request), by: .now + .seconds(60)).answer()
        let stray = StrayTransport(base: base, before: before)
        var syncer = Syncer(
            store: a, user: user, transport: stray, passphrase: PassphraseSource(given: nil, catalog: .english),
            catalog: .english)
        XCTAssertThrowsError(try syncer.run(within: .seconds(60))) { error in
            XCTAssertEqual(error as? SyncError, .strayAnswer)
            XCTAssertEqual(
                (error as? SyncError)?.message(in: .english),
                "the server's answer did not name the operations this device sent: it was the answer to another request (a stray answer on the connection); nothing of it was applied"
            )
        }
        XCTAssertEqual(try a.syncRequest(user).count, 2, "nothing was taken for sent")
        let totals = try log.sync(a, user)
        XCTAssertEqual(totals.sent, 2, "sent next time")
    }
}

/// Answers each request with the answer to the request before it (the first, with
/// `before`): what a client reads when a stray answer waits on its connection.
private final class StrayTransport: SyncTransport {
    let base: any SyncTransport
    private let previous: Mutex<SyncAnswer?>

    init(base: any SyncTransport, before: SyncAnswer) {
        self.base = base
        previous = Mutex(before)
    }

    struct Reply: SyncReply {
        let given: SyncAnswer
        func answer() throws(SyncError) -> SyncAnswer { given }
    }

    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        let answer = try base.send(request, by: end).answer()
        let stray = previous.withLock { previous in
            defer { previous = answer }
            return previous ?? answer
        }
        return Reply(given: stray)
    }
}
