import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NavStackCore
import NavStackHTTP
import NavStackSync
import NavStackSyncClient
import Synchronization
import XCTest

@testable import NavStackSQLite
@testable import NavStackServer

#if canImport(Glibc)
    import Glibc
#endif

/// The sync client as `navstack sync` runs it (``Syncer`` over ``HTTPSyncTransport``),
/// against the server's routes served on a port of this machine over the sync module's
/// log in memory: every byte of the requests and answers, the key, the refusals.
final class SyncClientTests: XCTestCase {
    private static let user = "ana"
    private static let passphrase = "correct horse battery staple"

    /// The routes over `log` on a free port of this machine; `test` runs on a thread of its
    /// own (the client blocks, the server needs Swift's threads meanwhile) with the
    /// server's address.
    private func serving(_ log: MemoryOperationLog, _ test: @escaping @Sendable (String) throws -> Void) async throws {
        let app = Application(
            router: SyncRoutes(log: log).router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await app.test(.live) { client in
            let server = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            try await onThread { try test(server) }
        }
    }

    func testTwoReplicasSyncWholeThroughTheServer() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: Self.user))
        try await serving(log) { server in
            let a = try Self.replica(server, token), b = try Self.replica(server, token)
            let milk = try a.insertAtTop(Self.user, DraftFields(title: "Buy milk", notes: "2 l"), as: .add)
            _ = try a.insertAtTop(Self.user, DraftFields(title: "Call mum"), under: milk.id, as: .add)
            _ = try b.insertAtTop(Self.user, DraftFields(title: "Made on b"), as: .add)
            let first = try Self.sync(a, server, token)
            XCTAssertEqual(first.sent, 2)
            XCTAssertEqual(try Self.sync(b, server, token).received, 2)
            XCTAssertEqual(try Self.sync(a, server, token).received, 1)
            XCTAssertEqual(try Self.titles(a), ["Buy milk", "Call mum", "Made on b"])
            XCTAssertEqual(try Self.titles(a), try Self.titles(b))
            XCTAssertEqual(try b.task(Self.user, uuid: milk.uuid)?.notes, "2 l")
            // The server holds them sealed: no title reaches it.
            XCTAssertEqual(log.operationCount(name: Self.user), 3)
            XCTAssertEqual(try Self.sync(b, server, token), SyncTotals(), "nothing left either way")
        }
    }

    /// A store restored from a copy reuses the seqs its replica sent since: the server
    /// refuses them (409), the store takes a new replica id and sends them again, and
    /// nothing of either is lost.
    func testARestoredStoreTakesANewReplicaIDAndSyncs() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: Self.user))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-restore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = folder.appendingPathComponent("backup.sqlite").path
        try await serving(log) { server in
            let a = try Self.replica(server, token)
            _ = try a.insertAtTop(Self.user, DraftFields(title: "Before the backup"), as: .add)
            try Self.sync(a, server, token)
            try a.db.execute("VACUUM INTO '\(backup)'")
            _ = try a.insertAtTop(Self.user, DraftFields(title: "After the backup"), as: .add)
            try Self.sync(a, server, token)
            let restored = try SQLiteStore(path: backup)
            restored.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
            let replica = try restored.syncProbe(Self.user).request.replica
            _ = try restored.insertAtTop(Self.user, DraftFields(title: "On the restored store"), as: .add)
            XCTAssertEqual(try Self.sync(restored, server, token).sent, 1)
            XCTAssertNotEqual(try restored.syncProbe(Self.user).request.replica, replica, "a new replica id")
            try Self.sync(a, server, token)
            XCTAssertEqual(try Self.titles(a), ["After the backup", "Before the backup", "On the restored store"])
            XCTAssertEqual(try Self.titles(restored), try Self.titles(a))
        }
    }

    /// A passphrase that does not open the account's key is refused before the replica
    /// applies or sends anything: its store is as it was, the server holds what it held.
    func testAWrongPassphraseChangesNothingAndSendsNothing() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: Self.user))
        try await serving(log) { server in
            let a = try Self.replica(server, token), b = try Self.replica(server, token)
            _ = try a.insertAtTop(Self.user, DraftFields(title: "Sealed on a"), as: .add)
            try Self.sync(a, server, token)
            _ = try b.insertAtTop(Self.user, DraftFields(title: "Waiting on b"), as: .add)
            let held = log.operationCount(name: Self.user)
            let (titles, unsent, seal) = (try Self.titles(b), try b.unsentOperations(Self.user), try b.syncSeal(Self.user))
            let pull = try b.syncProbe(Self.user).request
            XCTAssertThrowsError(try Self.sync(b, server, token, passphrase: "not the passphrase")) { error in
                XCTAssertEqual(error as? SyncError, .wrongPassphrase)
            }
            XCTAssertEqual(try Self.titles(b), titles)
            XCTAssertEqual(try b.unsentOperations(Self.user), unsent)
            XCTAssertEqual(try b.syncSeal(Self.user), seal)
            XCTAssertEqual(try b.syncProbe(Self.user).request, pull, "its replica and where its pull starts")
            XCTAssertEqual(log.operationCount(name: Self.user), held, "nothing was sent")
        }
    }

    /// A server that takes the request and never answers: the run ends by its deadline,
    /// whatever the server does, and the store is as it was.
    func testAStalledServerIsLeftAtTheDeadline() async throws {
        let (listener, port) = try Self.silentListener()
        defer { close(listener) }
        try await onThread {
            let server = "http://127.0.0.1:\(port)"
            let a = try Self.replica(server, String(repeating: "7f", count: 32))
            _ = try a.insertAtTop(Self.user, DraftFields(title: "Kept"), as: .add)
            let unsent = try a.unsentOperations(Self.user)
            let start = ContinuousClock.now
            XCTAssertThrowsError(try Self.sync(a, server, String(repeating: "7f", count: 32), within: .seconds(1))) { error in
                XCTAssertEqual(error as? SyncError, .outOfTime)
            }
            let took = ContinuousClock.now - start
            XCTAssertGreaterThanOrEqual(took, .milliseconds(900))
            XCTAssertLessThan(took, .seconds(5), "the deadline ended it")
            XCTAssertEqual(try a.unsentOperations(Self.user), unsent)
        }
    }

    /// A server that answers a new profile's key offer without ever naming the key: one
    /// line after the offer that brought nothing, not offers until the run's time is spent.
    func testAServerThatNeverKeepsTheKeyIsToldInOneLineAtOnce() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: Self.user))
        try await serving(log) { server in
            let a = try Self.replica(server, token)
            _ = try a.insertAtTop(Self.user, DraftFields(title: "Kept"), as: .add)
            let unsent = try a.unsentOperations(Self.user)
            let forgetful = KeyForgettingTransport(
                base: try HTTPSyncTransport(server: server, token: token, trust: .system, catalog: .english))
            var syncer = Syncer(
                store: a, user: Self.user, transport: forgetful,
                passphrase: PassphraseSource(given: Self.passphrase, catalog: .english), catalog: .english)
            let start = ContinuousClock.now
            XCTAssertThrowsError(try syncer.run(within: .seconds(20))) { error in
                XCTAssertEqual(error as? SyncError, .keyNotKept)
            }
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "not the run's whole time")
            XCTAssertLessThanOrEqual(forgetful.requests, 3, "the probe, one offer, and no more")
            XCTAssertEqual(try a.unsentOperations(Self.user), unsent + 1, "the change, stamped, waits to be sent")
            XCTAssertEqual(log.operationCount(name: Self.user), 0, "nothing was sent")
        }
    }

    // MARK: - Helpers

    /// A store in memory with the profile signed in and the server kept for it.
    private static func replica(_ server: String, _ token: String) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        // Replicas make their own uuids (a store in memory alone makes the same ones each run).
        store.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try store.openProfile(user, sample: false)
        _ = try store.configureSync(user, server: server, token: token)
        return store
    }

    /// One `navstack sync` of `store`.
    @discardableResult
    private static func sync(
        _ store: SQLiteStore, _ server: String, _ token: String, passphrase: String = passphrase, within budget: Duration = .seconds(30)
    ) throws -> SyncTotals {
        let transport = try HTTPSyncTransport(server: server, token: token, trust: .system, catalog: .english)
        var syncer = Syncer(
            store: store, user: user, transport: transport, passphrase: PassphraseSource(given: passphrase, catalog: .english),
            catalog: .english)
        return try syncer.run(within: budget)
    }

    /// The titles of the store's tasks, sorted.
    private static func titles(_ store: SQLiteStore) throws -> [String] {
        try store.reading { db in try db.prepare("SELECT title FROM task ORDER BY title").all { $0.text(0) } }
    }

    /// A socket listening on a free port of this machine that never reads nor answers:
    /// the kernel takes the connection and the request, and nothing follows.
    private static func silentListener() throws -> (Int32, Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// Runs `work` on a thread of its own and waits for it without holding one of Swift's.
func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The server's answers with their key left out, as a server that never keeps one gives
/// them; counts the requests.
private final class KeyForgettingTransport: SyncTransport {
    let base: any SyncTransport
    private let sent = Mutex(0)

    init(base: any SyncTransport) {
        self.base = base
    }

    var requests: Int { sent.withLock { $0 } }

    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        sent.withLock { $0 += 1 }
        return Forgetting(reply: try base.send(request, by: end))
    }

    private struct Forgetting: SyncReply {
        let reply: any SyncReply

        func answer() throws(SyncError) -> SyncAnswer {
            var answer = try reply.answer()
            answer.key = nil
            return answer
        }
    }
}
