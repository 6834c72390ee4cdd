import NavStackCore
import NavStackSeal
import NavStackSync
import NavStackSyncClient
import TestSeeds
import XCTest

@testable import NavStackSQLite

/// What a token holder without the passphrase, a lying server or a restored backup can do
/// to an account's replicas: never stop them, never make them take what the key does not
/// open, never lose a change without a word (docs/sync.md, "What sync promises").
final class SyncHostileTests: XCTestCase {
    let user = "ana"

    func replica(_ log: Account, _ titles: [String] = []) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try store.openProfile(user, sample: false)
        try log.join(store, user)
        for title in titles { _ = try store.insertAtTop(user, DraftFields(title: title), as: .add) }
        return store
    }

    func titles(_ store: SQLiteStore) throws -> [String] {
        try store.reading { db in try db.prepare("SELECT title FROM task ORDER BY title").all { $0.text(0) } }
    }

    /// Bytes no key opens, as the server would hand them on from `replica`: pushed with the
    /// write key (the server itself, or an account keyed before write keys, could).
    func junk(_ log: Account, replica: String, seqs: ClosedRange<Int64>) throws {
        var rng = SplitMix64(state: UInt64(seqs.lowerBound))
        let operations = seqs.map { seq in
            SyncOperation.sealed(
                Base64.encode((0..<60).map { _ in UInt8.random(in: 0...255, using: &rng) }), seq: seq,
                millis: Int64(SQLiteStore.milliseconds()), counter: 0)
        }
        _ = try log.log.sync(
            account: log.holder, request: Account.sealer.seal(SyncRequest(replica: replica, after: 0, operations: operations)))
    }

    func testAnOperationThatDoesNotOpenIsSetAsideSaidOnceAndTheRestApplied() throws {
        let log = try Account()
        let a = try replica(log, ["Pay rent", "Call mum"])
        try log.sync(a, user)
        let stranger = String(repeating: "5e", count: 16)
        try junk(log, replica: stranger, seqs: 1...2)
        let more = try replica(log, ["Water plants"])
        try log.sync(more, user)
        let b = try replica(log)
        let first = try log.sync(b, user)
        XCTAssertEqual(try titles(b), ["Call mum", "Pay rent", "Water plants"], "the rest was applied")
        XCTAssertEqual(first.setAside, [stranger: 2])
        XCTAssertEqual(
            first.notices(in: .english),
            [
                "set aside 2 operation(s) from replica \(stranger) that this account's key does not open (sent with a token, without the passphrase, or changed on the server); the rest was applied. On the server, navstack-server user drop-replica NAME \(stranger) removes them"
            ])
        XCTAssertEqual(try b.syncAside(user).map(\.count), [2], "kept")
        let second = try log.sync(b, user)
        XCTAssertEqual(second.setAside, [:], "said once")
        _ = try b.insertAtTop(user, DraftFields(title: "From B"), as: .add)
        try log.sync(b, user)
        try log.sync(a, user)
        XCTAssertEqual(try titles(a), ["Call mum", "From B", "Pay rent", "Water plants"], "the account goes on syncing")
    }

    func testASnapshotThatDoesNotOpenMakesANewReplicaAskForTheLog() throws {
        let log = try Account()
        let a = try replica(log, ["One", "Two", "Three"])
        try log.sync(a, user)
        let highest = try log.answer(SyncRequest(replica: String(repeating: "9", count: 32), after: 0, operations: [])).last
        // An account's first snapshot needs no thousand operations: one no key opens.
        var rng = SplitMix64(state: 300)
        var request = SyncRequest(
            replica: String(repeating: "6f", count: 16), after: highest, operations: [],
            snapshot: SyncSnapshot(seq: highest, sealed: Base64.encode((0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) })))
        request.takesSnapshots = true
        _ = try log.log.sync(account: log.holder, request: Account.sealer.seal(request))
        XCTAssertEqual(log.counts.snapshotsKept, 1)
        let b = try replica(log)
        let totals = try log.sync(b, user)
        XCTAssertEqual(try titles(b), ["One", "Three", "Two"], "the log instead of the snapshot")
        XCTAssertEqual(totals.received, 3)
    }

    /// The issue's restore: the server's log is restored from a backup taken after A and B
    /// synced, while A had added three tasks since and B had pulled them; B then adds one.
    func testALogRestoredFromABackupIsNoticedAndNothingIsLost() throws {
        let log = try Account()
        let a = try replica(log, ["Before the backup"])
        let b = try replica(log)
        try log.sync(a, user)
        try log.sync(b, user)
        let backup = log.log.backup()
        for title in ["After 1", "After 2", "After 3"] { _ = try a.insertAtTop(user, DraftFields(title: title), as: .add) }
        try log.sync(a, user)
        try log.sync(b, user)
        log.log.restore(backup)
        _ = try b.insertAtTop(user, DraftFields(title: "B after the restore"), as: .add)
        let bSync = try log.sync(b, user)
        XCTAssertTrue(bSync.restored)
        XCTAssertEqual(bSync.notices(in: .english).count, 1)
        let aSync = try log.sync(a, user)
        XCTAssertTrue(aSync.restored)
        try log.sync(b, user)
        let all = ["After 1", "After 2", "After 3", "B after the restore", "Before the backup"]
        XCTAssertEqual(try titles(a), all, "A gets B's task")
        XCTAssertEqual(try titles(b), all)
        let c = try replica(log)
        try log.sync(c, user)
        XCTAssertEqual(try titles(c), all, "a new device gets A's three")
        XCTAssertFalse(try log.sync(a, user).restored, "once")
    }

    /// A profile with a passphrase, syncing an account that has no key.
    func syncer(_ store: SQLiteStore, _ log: MemoryOperationLog, _ holder: TokenHolder, migrate: Bool) -> Syncer {
        var syncer = Syncer(
            store: store, user: user, transport: LogTransport(log: log, account: holder),
            passphrase: PassphraseSource(given: "the account's passphrase", catalog: .english), catalog: .english)
        syncer.migrate = migrate
        return syncer
    }

    func testAnAccountInClearMovesToAKeyOnlyWhenAsked() throws {
        let log = MemoryOperationLog()
        let holder = try XCTUnwrap(log.account(token: try XCTUnwrap(log.addUser(name: user))))
        // What a client of the earlier protocol sent, or what a server that dropped the key serves.
        let forged = SyncOperation(
            seq: 1, millis: Int64(SQLiteStore.milliseconds()), counter: 0, task: "00000000-0000-4000-8000-00000000f00d",
            field: .task, value: #"{"title":"FORGED: wire 500 EUR to X","notes":"","done":false,"parent":null,"position":1}"#)
        _ = try log.sync(account: holder, request: SyncRequest(replica: String(repeating: "f", count: 32), after: 0, operations: [forged]))
        let store = try SQLiteStore(path: nil)
        try store.openProfile(user, sample: false)
        _ = try store.configureSync(user, server: "http://server", token: "t")
        _ = try store.insertAtTop(user, DraftFields(title: "Mine"), as: .add)
        var plain = syncer(store, log, holder, migrate: false)
        XCTAssertThrowsError(try plain.run(within: .seconds(60))) { XCTAssertEqual($0 as? SyncError, .clearNeedsMigrate) }
        XCTAssertEqual(try titles(store), ["Mine"], "nothing applied")
        XCTAssertEqual(try store.syncSeal(user), .none, "no key made")
        var asked = syncer(store, log, holder, migrate: true)
        let totals = try asked.run(within: .seconds(60))
        XCTAssertTrue(totals.madeKey)
        XCTAssertEqual(totals.notices(in: .english).first?.hasPrefix("made a new key"), true)
        XCTAssertEqual(try titles(store), ["FORGED: wire 500 EUR to X", "Mine"])
    }

    func testAKeylessAnswerToAReplicaThatKnowsTheKeyIsRefused() throws {
        let log = try Account()
        let a = try replica(log, ["Sealed"])
        try log.sync(a, user)
        // The server loses the key and serves the account as if it had none.
        let bare = MemoryOperationLog()
        let holder = try XCTUnwrap(bare.account(token: try XCTUnwrap(bare.addUser(name: user))))
        var syncer = Syncer(
            store: a, user: user, transport: LogTransport(log: bare, account: holder),
            passphrase: PassphraseSource(given: nil, catalog: .english), catalog: .english)
        XCTAssertThrowsError(try syncer.run(within: .seconds(60))) { XCTAssertEqual($0 as? SyncError, .keyMissing) }
    }
}
