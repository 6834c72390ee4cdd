import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NavStackCore
import NavStackSync
import PostgresNIO
import Synchronization
import XCTest

@testable import NavStackServer

/// The rules of an account's operation log, written once and run against both logs: the
/// sync module's in memory (which the routes', client's and merge tests use) and
/// PostgreSQL's (on NAVSTACK_PG_URL, which scripts/sync-env sets; skipped without). Each
/// case goes through the routes as a replica's requests do, on an account of its own, and
/// what it sees (each status and body, every server_seq written as its place among those
/// the case saw) must be the same from both.
final class OperationLogParityTests: XCTestCase {
    func testTheCasesHoldInMemory() async throws {
        let log = MemoryOperationLog()
        for (name, check) in Self.cases {
            _ = try await Self.run(check, on: log, account: { try XCTUnwrap(log.addUser(name: "\(name) \(UUID())")) })
        }
    }

    func testPostgreSQLAnswersAsMemoryDoes() async throws {
        guard let url = ProcessInfo.processInfo.environment["NAVSTACK_PG_URL"] else {
            throw XCTSkip("NAVSTACK_PG_URL is not set: scripts/sync-env runs this against a PostgreSQL of its own")
        }
        let address = try DatabaseAddress(url: url)
        let logger = Logger(label: "parity") { _ in SwiftLogNoOpLogHandler() }
        let client = PostgresClient(configuration: try address.clientConfiguration(), backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await SyncServer.migrate(address, logger: logger)
            let memory = MemoryOperationLog()
            let postgres = OperationLog(client: client)
            for (name, check) in Self.cases {
                let expected = try await Self.run(check, on: memory, account: { try XCTUnwrap(memory.addUser(name: name)) })
                let seen = try await Self.run(check, on: postgres) {
                    try await SyncServer.user(.add("parity \(name) \(UUID())"), database: address, logger: logger)
                }
                XCTAssertFalse(expected.isEmpty)
                XCTAssertEqual(seen, expected, "\(name): PostgreSQL's log answers otherwise than the one in memory")
            }
        }
    }

    // MARK: - The cases

    /// Each case, by name: its requests, and what must hold of their answers whichever log.
    static let cases: [(String, @Sendable (Session) async throws -> Void)] = [
        ("an operation sent again is taken once", idempotentPush),
        ("a (replica, seq) held with other content is refused, and nothing of the request kept", reusedSeq),
        ("the key's rules", keyRules),
        ("snapshots kept, served, and what they drop", snapshots),
        ("the clock's bound", clockBound),
        ("a key offered must be a key record", keyRecordShape),
        ("a token is not enough to write", writeKey),
        ("a newer format refuses an earlier navstack", formats),
        ("a format no navstack knows is never stored", unknownFormats),
        ("an account keyed before write checks drops nothing", keyedBeforeWriteChecks),
        ("an answer names what was stored", storedNamed),
        ("the replicas set aside that the account no longer holds", goneReplicas),
    ]

    static func idempotentPush(_ s: Session) async throws {
        let operations = (1...3).map { operation($0) }
        let first = try await s.sync(mine, operations)
        let again = try await s.sync(mine, operations)
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(again.answer?.last, first.answer?.last, "nothing was taken twice")
        let pulled = try await s.sync(theirs)
        XCTAssertEqual(pulled.answer?.operations.map(\.seq), [1, 2, 3])
    }

    static func reusedSeq(_ s: Session) async throws {
        _ = try await s.sync(mine, [operation(1, title: "a")])
        let refused = try await s.sync(mine, [operation(2), operation(1, title: "b")])
        XCTAssertEqual(refused.status, 409)
        let twice = try await s.sync(mine, [operation(3, title: "x"), operation(3, title: "y")])
        XCTAssertEqual(twice.status, 409)
        let pulled = try await s.sync(theirs)
        XCTAssertEqual(pulled.answer?.operations.map(\.value), [#""a""#], "nothing of a refused request is kept")
    }

    static func keyRules(_ s: Session) async throws {
        let (first, second) = (keyRecord("first"), keyRecord("second"))
        let sealedFirst = try await s.sync(mine, [sealed(1)])
        XCTAssertEqual(sealedFirst.status, 400, "sealed before the account has a key")
        let dropFirst = try await s.sync(mine, dropClear: true)
        XCTAssertEqual(dropFirst.status, 400, "drop_clear without a key")
        let snapshotFirst = try await s.sync(mine, after: 1, snapshot: SyncSnapshot(seq: 1, sealed: payload))
        XCTAssertEqual(snapshotFirst.status, 400)
        _ = try await s.sync(mine, [operation(1)])
        // A replica that has not pulled what the account holds in clear gets it, not the key.
        let early = try await s.sync(theirs, key: first)
        XCTAssertNil(early.answer?.key)
        XCTAssertEqual(early.answer?.operations.count, 1)
        let taken = try await s.sync(theirs, after: early.answer?.last ?? 0, key: first)
        XCTAssertEqual(taken.answer?.key, first)
        let other = try await s.sync(third, key: second)
        XCTAssertEqual(other.status, 409, "another key")
        let after = taken.answer?.last ?? 0
        let inClear = try await s.sync(theirs, after: after, [operation(2)])
        XCTAssertEqual(inClear.status, 400, "in clear once the account has a key")
        _ = try await s.sync(theirs, after: after, [sealed(2)])
        let served = try await s.sync(third)
        XCTAssertEqual(served.answer?.operations.map(\.seq), [2], "a sealed account serves sealed operations only")
        _ = try await s.sync(theirs, after: after, dropClear: true)
        _ = try await s.sync(third)
    }

    static func snapshots(_ s: Session) async throws {
        let least = Int64(SyncSnapshot.leastOperations)
        _ = try await s.sync(mine, key: keyRecord("snapshots", writeKey: writer), writeKey: writer)
        let one = try await s.sync(mine, (1...least).map { sealed($0) }, writeKey: writer)
        let firstSeq = try XCTUnwrap(one.answer?.last)
        _ = try await s.sync(
            mine, after: firstSeq, snapshot: SyncSnapshot(seq: firstSeq, sealed: payload), ownSeq: least, writeKey: writer)
        let joining = try await s.sync(theirs)
        XCTAssertEqual(joining.answer?.snapshot?.seq, firstSeq, "a new replica starts from the snapshot")
        XCTAssertEqual(joining.answer?.operations.count, 0)
        let two = try await s.sync(mine, after: firstSeq, (least + 1...2 * least).map { sealed($0) }, writeKey: writer)
        let secondSeq = try XCTUnwrap(two.answer?.last)
        let copy = try await s.sync(
            mine, after: secondSeq, snapshot: SyncSnapshot(seq: secondSeq, sealed: payload), ownSeq: least, writeKey: writer)
        XCTAssertEqual(copy.status, 409, "a copy's snapshot: the account holds its replica's seqs past own_seq")
        _ = try await s.sync(
            mine, after: secondSeq, snapshot: SyncSnapshot(seq: secondSeq, sealed: payload), ownSeq: 2 * least, writeKey: writer)
        let dropped = try await s.sync(mine, after: secondSeq, [sealed(5, payload: "b3RoZXI=")], writeKey: writer)
        XCTAssertEqual(dropped.status, 409, "a dropped seq")
        let behind = try await s.sync(third, after: 1)
        XCTAssertEqual(behind.answer?.snapshot?.seq, secondSeq, "one behind what was dropped starts from the newest")
        let near = try await s.sync(third, after: firstSeq)
        XCTAssertNil(near.answer?.snapshot, "one just behind pulls the operations kept")
        XCTAssertEqual(near.answer?.operations.count, Int(least))
    }

    static func clockBound(_ s: Session) async throws {
        let bound = serverMillis + Int64(SyncDrift.maximumMillis)
        let atTheBound = try await s.sync(mine, [operation(1, millis: bound)])
        XCTAssertEqual(atTheBound.status, 200)
        let pastTheBound = try await s.sync(mine, [operation(2, millis: bound + 1)])
        XCTAssertEqual(pastTheBound.status, 400)
        let pulled = try await s.sync(theirs)
        XCTAssertEqual(pulled.answer?.operations.map(\.seq), [1])
    }

    static func keyRecordShape(_ s: Session) async throws {
        for text in ["x", #"{"kdf":"k1"}"#, keyRecord("extra").replacingOccurrences(of: "}", with: #","more":1}"#)] {
            let refused = try await s.sync(mine, key: text)
            XCTAssertEqual(refused.status, 400, "\(text) is no key record")
        }
        let weak = keyRecord("weak").replacingOccurrences(of: "100000", with: "1000")
        let weakOffer = try await s.sync(mine, key: weak)
        XCTAssertEqual(weakOffer.status, 400, "too few iterations")
        let kept = try await s.sync(mine, key: keyRecord("kept"))
        XCTAssertEqual(kept.answer?.key, keyRecord("kept"), "a record is kept once it is one")
    }

    static func writeKey(_ s: Session) async throws {
        let record = keyRecord("writers", writeKey: writer)
        let offeredWithout = try await s.sync(mine, key: record)
        XCTAssertEqual(offeredWithout.status, 403, "a key with a write check is kept only from a replica with its write key")
        let offered = try await s.sync(mine, key: record, writeKey: writer)
        XCTAssertEqual(offered.answer?.key, record)
        let written = try await s.sync(mine, after: offered.answer?.last ?? 0, [sealed(1)], writeKey: writer)
        XCTAssertEqual(written.status, 200, "the write key writes")
        let after = try XCTUnwrap(written.answer?.last)
        let without = try await s.sync(theirs, after: after, [sealed(1)])
        XCTAssertEqual(without.status, 403, "operations with a token alone")
        let wrong = try await s.sync(theirs, after: after, [sealed(1)], writeKey: Base64.encode([UInt8](repeating: 9, count: 32)))
        XCTAssertEqual(wrong.status, 403, "operations with another write key")
        let snapshot = try await s.sync(theirs, after: after, snapshot: SyncSnapshot(seq: after, sealed: payload))
        XCTAssertEqual(snapshot.status, 403, "a snapshot with a token alone")
        let drop = try await s.sync(theirs, after: after, dropClear: true)
        XCTAssertEqual(drop.status, 403, "drop_clear with a token alone")
        let reads = try await s.sync(third)
        XCTAssertEqual(reads.status, 200, "a token alone still reads")
        XCTAssertEqual(reads.answer?.operations.map(\.replica), [mine], "nothing the token holder sent was kept")
        XCTAssertNil(reads.answer?.snapshot)
    }

    static func formats(_ s: Session) async throws {
        let old = try await s.sync(mine, [operation(1)])
        XCTAssertEqual(old.status, 200, "format 1, as every earlier navstack writes")
        let pulledByNewer = try await s.sync(theirs, format: 2)
        XCTAssertEqual(pulledByNewer.answer?.operations.count, 1, "a newer navstack reads what an earlier one wrote")
        let newer = try await s.sync(theirs, after: pulledByNewer.answer?.last ?? 0, [operation(2)], format: 2)
        XCTAssertEqual(newer.status, 200)
        let pull = try await s.sync(third)
        XCTAssertEqual(pull.status, 400, "an earlier navstack reads nothing of an account a newer one wrote to")
        let push = try await s.sync(mine, after: old.answer?.last ?? 0, [operation(3)])
        XCTAssertEqual(push.status, 400, "nor writes to it")
        let same = try await s.sync(third, format: 2)
        XCTAssertEqual(same.answer?.operations.map(\.seq), [1, 2], "nothing of the refused push was kept")
        let pullByUnknown = try await s.sync(third, format: SyncFormat.current + 1)
        XCTAssertEqual(pullByUnknown.status, 400, "a format the server does not know reads nothing")
        let stillTwo = try await s.sync(mine, format: 2)
        XCTAssertEqual(stillTwo.status, 200)
    }

    static func unknownFormats(_ s: Session) async throws {
        // A token holder first on a new account, naming a format no navstack knows.
        let first = try await s.sync(mine, [operation(1)], format: 1_000_000)
        XCTAssertEqual(first.status, 400, "refused, never stored")
        let next = try await s.sync(mine, [operation(1)], format: SyncFormat.current + 1)
        XCTAssertEqual(next.status, 400)
        let earlier = try await s.sync(theirs, [operation(1)])
        XCTAssertEqual(earlier.status, 200, "the account's format is still 1: an earlier navstack writes")
        let current = try await s.sync(third, format: SyncFormat.current)
        XCTAssertEqual(current.answer?.operations.map(\.replica), [theirs], "nothing of the refused pushes was kept")
    }

    static func keyedBeforeWriteChecks(_ s: Session) async throws {
        let record = keyRecord("before write checks")
        let offered = try await s.sync(mine, key: record)
        XCTAssertEqual(offered.answer?.key, record)
        let written = try await s.sync(mine, [sealed(1), sealed(2)])
        XCTAssertEqual(written.status, 200, "its writes need no write key")
        let after = try XCTUnwrap(written.answer?.last)
        let snapshot = try await s.sync(theirs, after: after, snapshot: SyncSnapshot(seq: after, sealed: payload))
        XCTAssertEqual(snapshot.status, 400, "no snapshot, which would drop its log")
        let proved = try await s.sync(
            mine, after: after, snapshot: SyncSnapshot(seq: after, sealed: payload), ownSeq: 2, writeKey: writer)
        XCTAssertEqual(proved.status, 400, "nor with a write key it cannot check")
        let drop = try await s.sync(theirs, after: after, dropClear: true)
        XCTAssertEqual(drop.status, 400, "no drop_clear")
        let joining = try await s.sync(third)
        XCTAssertNil(joining.answer?.snapshot)
        XCTAssertEqual(joining.answer?.operations.map(\.seq), [1, 2], "the log is whole")
    }

    static func storedNamed(_ s: Session) async throws {
        let pushed = try await s.sync(mine, [operation(3), operation(4), operation(5)])
        XCTAssertEqual(pushed.answer?.stored, SyncStored(replica: mine, first: 3, last: 5))
        let again = try await s.sync(mine, [operation(4), operation(5)])
        XCTAssertEqual(again.answer?.stored, SyncStored(replica: mine, first: 4, last: 5), "held already: stored")
        let pull = try await s.sync(theirs)
        XCTAssertEqual(pull.answer?.stored, SyncStored(replica: theirs, first: 0, last: 0), "a pull stored nothing")
    }

    static func goneReplicas(_ s: Session) async throws {
        _ = try await s.sync(theirs, [operation(1)])
        let asked = try await s.sync(mine, aside: [theirs, third])
        XCTAssertEqual(asked.answer?.gone, [third], "the account holds operations of theirs, none of the third's")
        let none = try await s.sync(mine)
        XCTAssertEqual(none.answer?.gone, [], "not asked, not said")
    }

    // MARK: - Requests and what they saw

    static let writer = Base64.encode([UInt8](repeating: 7, count: 32))

    static let serverMillis: Int64 = 1_800_000_000_000
    static let mine = String(repeating: "1a", count: 16)
    static let theirs = String(repeating: "2b", count: 16)
    static let third = String(repeating: "3c", count: 16)
    static let payload = "c2VhbGVkIHBheWxvYWQ="

    static func operation(_ seq: Int64, title: String? = nil, millis: Int64? = nil) -> SyncOperation {
        let digits = String(seq)
        return SyncOperation(
            seq: seq, millis: millis ?? 1_700_000_000_000 + seq, counter: seq % 3,
            task: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits, field: .title,
            value: (title ?? "title \(seq)").jsonQuoted)
    }

    static func sealed(_ seq: Int64, payload: String = payload) -> SyncOperation {
        .sealed(payload, seq: seq, millis: 1_700_000_000_000 + seq, counter: 0)
    }

    /// A key record as the server reads it (``SyncKeyShape``): its salt from `name`, with a
    /// write check of `writeKey` when given.
    static func keyRecord(_ name: String, writeKey: String? = nil) -> String {
        let salt = Base64.encode(Array(String(repeating: name, count: 16).utf8.prefix(16)))
        let check = Base64.encode([UInt8](repeating: 1, count: 72))
        let writeCheck = writeKey.flatMap(Base64.decode).map { #","write_check":"\#(Base64.encode(SHA256.hash($0)))""# } ?? ""
        return #"{"kdf":"pbkdf2-hmac-sha256","iterations":100000,"salt":"\#(salt)","check":"\#(check)"\#(writeCheck)}"#
    }

    /// Runs `check` through the routes over `store` on a new account; returns what it saw.
    static func run(
        _ check: @Sendable (Session) async throws -> Void, on store: any OperationStore,
        account: @Sendable () async throws -> String
    ) async throws -> [String] {
        let token = try await account()
        let app = Application(
            router: SyncRoutes(log: store, now: { serverMillis }).router(),
            logger: Logger(label: "parity") { _ in SwiftLogNoOpLogHandler() })
        return try await app.test(.router) { client in
            let session = Session(client: client, token: token)
            try await check(session)
            return session.seen
        }
    }

    /// One case's requests on its account, and what they saw.
    final class Session: Sendable {
        let client: any TestClientProtocol
        let token: String
        private let state = Mutex<(lines: [String], places: [Int64: Int])>(([], [0: 0]))

        init(client: any TestClientProtocol, token: String) {
            self.client = client
            self.token = token
        }

        var seen: [String] { state.withLock { $0.lines } }

        /// POST /v1/sync with the request, as `replica`; its status and answer, if 200.
        func sync(
            _ replica: String, after: Int64 = 0, _ operations: [SyncOperation] = [], key: String? = nil, dropClear: Bool = false,
            snapshot: SyncSnapshot? = nil, ownSeq: Int64 = 0, writeKey: String? = nil, format: Int = 1, aside: [String] = []
        ) async throws -> (status: Int, answer: SyncAnswer?) {
            var request = SyncRequest(
                replica: replica, after: after, operations: operations, key: key, dropClear: dropClear, snapshot: snapshot)
            request.ownSeq = ownSeq
            request.writeKey = writeKey
            request.format = format
            request.aside = aside
            let response = try await client.execute(
                uri: "/v1/sync", method: .post, headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                body: ByteBuffer(bytes: request.json()))
            let status = Int(response.status.code)
            guard status == 200 else {
                note("\(status) \(String(buffer: response.body))")
                return (status, nil)
            }
            let answer = try SyncAnswer(json: Array(buffer: response.body))
            let operations = answer.operations.map { "\(place($0.serverSeq)) \($0.replica) \($0.seq) \($0.sealed ?? $0.value)" }
            note(
                "200 last \(place(answer.last)) more \(answer.more) key \(answer.key ?? "-") snapshot \(answer.snapshot.map { place($0.seq) } ?? -1)"
                    + " since \(answer.sinceSnapshot ?? -1) ops \(operations)"
                    + " stored \(answer.stored.map { "\($0.replica) \($0.first)-\($0.last)" } ?? "-") gone \(answer.gone)")
            return (status, answer)
        }

        private func note(_ line: String) {
            state.withLock { $0.lines.append(line) }
        }

        /// A server_seq as its place among those the case saw, in the order first seen.
        private func place(_ serverSeq: Int64) -> Int {
            state.withLock { state in
                if let place = state.places[serverSeq] { return place }
                state.places[serverSeq] = state.places.count
                return state.places.count - 1
            }
        }
    }
}
