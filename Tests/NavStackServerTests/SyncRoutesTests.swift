import Hummingbird
import HummingbirdTesting
import Logging
import NavStackCore
import NavStackSync
import Synchronization
import XCTest

@testable import NavStackServer

private let first = String(repeating: "1a", count: 16)
private let second = String(repeating: "2b", count: 16)

/// The server's clock in the tests: operations are stamped before it.
private let serverMillis: Int64 = 1_800_000_000_000

private func app(_ store: any OperationStore, logs: LogLines? = nil, databaseDeadline: Duration = .seconds(5))
    -> some ApplicationProtocol
{
    let logger = Logger(label: "test") { _ -> any LogHandler in
        if let logs { return logs }
        return SwiftLogNoOpLogHandler()
    }
    return Application(
        router: SyncRoutes(
            log: store, databaseDeadline: databaseDeadline, healthDeadline: databaseDeadline, now: { serverMillis }
        ).router(),
        logger: logger)
}

/// Task N's uuid.
private func taskID(_ seq: Int) -> String {
    let digits = String(seq)
    return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
}

/// One operation of the protocol as JSON text: seq N sets task N's title.
private func operation(
    _ seq: Int, field: String = "title", value: String? = nil, millis: Int64? = nil, task: String? = nil
) -> String {
    #"{"seq":\#(seq),"millis":\#(millis ?? 1_700_000_000_000 + Int64(seq)),"counter":\#(seq % 3),"#
        + #""task":"\#(task ?? taskID(seq))","field":"\#(field)","value":\#(value ?? "\"title \(seq)\"")}"#
}

private func body(_ replica: String, after: Int = 0, _ operations: [String] = []) -> ByteBuffer {
    ByteBuffer(string: #"{"replica":"\#(replica)","after":\#(after),"ops":[\#(operations.joined(separator: ","))]}"#)
}

private func sync(_ client: some TestClientProtocol, token: String?, _ body: ByteBuffer) async throws -> TestResponse {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let token { headers[.authorization] = "Bearer \(token)" }
    return try await client.execute(uri: "/v1/sync", method: .post, headers: headers, body: body)
}

private func answer(_ response: TestResponse, file: StaticString = #filePath, line: UInt = #line) throws
    -> (operations: [JSONValue], last: Int, more: Bool)
{
    XCTAssertEqual(response.status, .ok, String(buffer: response.body), file: file, line: line)
    let json = try XCTUnwrap(JSONValue(parsing: String(buffer: response.body)), file: file, line: line)
    return (
        try XCTUnwrap(json["ops"]?.array, file: file, line: line), try XCTUnwrap(json["last"]?.number, file: file, line: line),
        try XCTUnwrap(json["more"]?.bool, file: file, line: line)
    )
}

/// A sealed operation as JSON text: seq N, its payload the base64 text `sealed`.
private func sealedOperation(_ seq: Int, _ sealed: String = "c2VhbGVkIHBheWxvYWQ=") -> String {
    #"{"seq":\#(seq),"millis":\#(1_700_000_000_000 + Int64(seq)),"counter":0,"sealed":"\#(sealed)"}"#
}

private func offering(_ replica: String, after: Int, key: String, _ operations: [String] = [], dropClear: Bool = false)
    -> ByteBuffer
{
    ByteBuffer(
        string: #"{"replica":"\#(replica)","after":\#(after),"ops":[\#(operations.joined(separator: ","))],"key":"\#(key)""#
            + (dropClear ? #","drop_clear":true}"# : "}"))
}

/// An answer's `stored` member, after its others: what the server stored of the request.
private func stored(_ replica: String, _ first: Int, _ last: Int) -> String {
    #","stored":{"replica":"\#(replica)","first":\#(first),"last":\#(last)}"#
}

/// The routes in-process (Hummingbird's router test client) over the in-memory operation
/// log: every answer's status, headers and exact body as a client reads them.
final class SyncRoutesTests: XCTestCase {
    func testAPushReachesTheOtherReplicaAndNotItsOwn() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        try await app(log).test(.router) { client in
            let created = #"{ "title" : "two", "notes" : "", "done" : false, "parent" : null, "position" : 1 }"#
            let pushed = try await sync(client, token: token, body(first, [operation(1), operation(2, field: "task", value: created)]))
            XCTAssertEqual(pushed.headers[.contentType], "application/json")
            XCTAssertEqual(String(buffer: pushed.body), #"{"ops":[],"last":2,"more":false,"epoch":"\#(log.epoch)"\#(stored(first, 1, 2))}"#)

            let pulled = try await sync(client, token: token, body(second))
            XCTAssertEqual(
                String(buffer: pulled.body),
                #"{"ops":[{"server_seq":1,"replica":"\#(first)","seq":1,"millis":1700000000001,"counter":1,"task":"\#(taskID(1))","#
                    + #""field":"title","value":"title 1","old":null},"#
                    + #"{"server_seq":2,"replica":"\#(first)","seq":2,"millis":1700000000002,"counter":2,"task":"\#(taskID(2))","#
                    + #""field":"task","value":{"title":"two","notes":"","done":false,"parent":null,"position":1},"old":null}],"#
                    + #""last":2,"more":false,"epoch":"\#(log.epoch)"\#(stored(second, 0, 0))}"#)

            // The second replica's own push comes back to the first, not to itself.
            let both = try await sync(client, token: token, body(second, after: 2, [operation(1)]))
            XCTAssertEqual(String(buffer: both.body), #"{"ops":[],"last":3,"more":false,"epoch":"\#(log.epoch)"\#(stored(second, 1, 1))}"#)
            let back = try answer(await sync(client, token: token, body(first, after: 2)))
            XCTAssertEqual(back.operations.map { $0["replica"]?.string }, [second])
            XCTAssertEqual(back.last, 3)
            // A pull past the account's highest keeps `after`.
            let past = try answer(await sync(client, token: token, body(first, after: 50)))
            XCTAssertEqual(past.last, 50)
        }
    }

    func testPagesOfTenThousandWithMore() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        try await app(log).test(.router) { client in
            for start in stride(from: 1, through: 20_001, by: 10_000) {
                let operations = (start..<min(start + 10_000, 20_006)).map { operation($0) }
                let pushed = try await sync(client, token: token, body(first, operations))
                XCTAssertEqual(pushed.status, .ok)
            }
            XCTAssertEqual(log.operationCount(name: "ana"), 20_005)
            var pages: [(count: Int, last: Int, more: Bool)] = []
            var seqs: [Int] = []
            var after = 0
            repeat {
                let page = try answer(await sync(client, token: token, body(second, after: after)))
                pages.append((page.operations.count, page.last, page.more))
                seqs += page.operations.compactMap { $0["seq"]?.number }
                after = page.last
            } while pages.last?.more == true && pages.count < 5
            XCTAssertEqual(pages.map(\.count), [10_000, 10_000, 5])
            XCTAssertEqual(pages.map(\.more), [true, true, false])
            XCTAssertEqual(pages.map(\.last), [10_000, 20_000, 20_005])
            XCTAssertEqual(seqs, Array(1...20_005))
        }
    }

    func testAPushSentAgainAddsNothing() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        try await app(log).test(.router) { client in
            let request = body(first, [operation(1), operation(2)])
            let once = try await sync(client, token: token, request)
            let twice = try await sync(client, token: token, request)
            XCTAssertEqual(String(buffer: once.body), #"{"ops":[],"last":2,"more":false,"epoch":"\#(log.epoch)"\#(stored(first, 1, 2))}"#)
            XCTAssertEqual(String(buffer: twice.body), String(buffer: once.body))
            // Held ones beside new ones, and one sent twice in a request: each taken once.
            let more = try await sync(client, token: token, body(first, [operation(2), operation(3), operation(3)]))
            XCTAssertEqual(String(buffer: more.body), #"{"ops":[],"last":3,"more":false,"epoch":"\#(log.epoch)"\#(stored(first, 2, 3))}"#)
            XCTAssertEqual(log.operationCount(name: "ana"), 3)
            let pulled = try answer(await sync(client, token: token, body(second)))
            XCTAssertEqual(pulled.operations.map { $0["value"]?.string }, ["title 1", "title 2", "title 3"])
        }
    }

    func testAnAccountKeepsItsFirstKeyAndThenTakesSealedOperationsOnly() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        // A key record as the server reads it (no write check: any token writes), as JSON text.
        let key =
            #"{\"kdf\":\"pbkdf2-hmac-sha256\",\"iterations\":100000,\"salt\":\"AAAAAAAAAAAAAAAAAAAAAA==\",\"check\":\"AAAAAAAAAAAAAAAAAAAAAA==\"}"#
        try await app(log).test(.router) { client in
            // No key yet: operations in clear are taken (an account from before encryption), sealed ones are not.
            _ = try answer(await sync(client, token: token, body(first, [operation(1)])))
            var response = try await sync(client, token: token, body(first, [sealedOperation(2)]))
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertEqual(
                String(buffer: response.body), #"{"error":"ops[0] is sealed, but the account has no key yet: send the key first"}"#)
            // A key offered by a replica that has not pulled the operations in clear is not kept yet.
            var offered = try answer(await sync(client, token: token, offering(second, after: 0, key: key)))
            XCTAssertEqual(offered.operations.count, 1)
            response = try await sync(client, token: token, offering(second, after: 1, key: key))
            XCTAssertEqual(
                String(buffer: response.body),
                #"{"ops":[],"last":1,"more":false,"key":"\#(key)","since_snapshot":1,"epoch":"\#(log.epoch)"\#(stored(second, 0, 0))}"#)
            // From now on: sealed operations only, and every answer names the key.
            response = try await sync(client, token: token, body(first, after: 1, [operation(3)]))
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertEqual(
                String(buffer: response.body),
                #"{"error":"ops[0] is not sealed, and this account's operations are end-to-end encrypted: update navstack"}"#)
            offered = try answer(await sync(client, token: token, body(second, after: 1, [sealedOperation(1), sealedOperation(2)])))
            // Another key is refused with the account's.
            response = try await sync(client, token: token, offering(first, after: 3, key: #"{\"kdf\":\"k2\"}"#, [sealedOperation(4)]))
            XCTAssertEqual(response.status, .conflict)
            XCTAssertEqual(
                String(buffer: response.body),
                #"{"error":"the account's operations are sealed with another key","key":"\#(key)"}"#)
            XCTAssertEqual(log.operationCount(name: "ana"), 3, "nothing of a refused request is kept")
            // The sealed operations reach the other replica as they were sent, with their writer's name.
            let pulled = try answer(await sync(client, token: token, body(first, after: 1)))
            XCTAssertEqual(pulled.operations.map { $0["sealed"]?.string }, ["c2VhbGVkIHBheWxvYWQ=", "c2VhbGVkIHBheWxvYWQ="])
            XCTAssertEqual(pulled.operations.map { $0["replica"]?.string }, [second, second])
            XCTAssertNil(pulled.operations[0]["task"])
            // Those kept in clear are not served any more: they wait to be dropped.
            let joining = try answer(await sync(client, token: token, body(String(repeating: "4d", count: 16))))
            XCTAssertEqual(joining.operations.map { $0["sealed"] != nil }, [true, true])
            // Dropping them would drop operations, which a record without a write check
            // cannot tell a device's request from a token holder's: refused, all kept.
            response = try await sync(client, token: token, offering(first, after: 3, key: key, dropClear: true))
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertEqual(
                String(buffer: response.body),
                #"{"error":"this account's key record has no write check (it was made before write keys): it takes no snapshot and no drop_clear, which drop operations, since it cannot tell a device from a token holder"}"#
            )
            XCTAssertEqual(log.operationCount(name: "ana"), 3)
            let fresh = try answer(await sync(client, token: token, body(String(repeating: "3c", count: 16))))
            XCTAssertEqual(fresh.operations.map { $0["seq"]?.number }, [1, 2], "still served sealed ones only")
        }
    }

    func testDropClearWithoutAKeyIsRefused() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        try await app(log).test(.router) { client in
            let response = try await sync(
                client, token: token, ByteBuffer(string: #"{"replica":"\#(first)","after":0,"ops":[],"drop_clear":true}"#))
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertEqual(String(buffer: response.body), #"{"error":"drop_clear needs the account's key first"}"#)
        }
    }

    func testAHeldReplicaAndSeqWithOtherContentIs409AndNothingOfTheRequestIsKept() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        let other = try XCTUnwrap(log.addUser(name: "bob"))
        try await app(log).test(.router) { client in
            _ = try await sync(client, token: token, body(first, [operation(1), operation(2)]))
            let taken = try await sync(client, token: token, body(first, [operation(3), operation(2, value: #""changed""#)]))
            XCTAssertEqual(taken.status, .conflict)
            XCTAssertEqual(taken.headers[.contentType], "application/json")
            XCTAssertEqual(
                String(buffer: taken.body),
                #"{"error":"ops[1] reuses seq 2 of replica \#(first), which the server holds with other content: "#
                    + #"the replica must take a new id"}"#)
            XCTAssertEqual(log.operationCount(name: "ana"), 2, "seq 3, new, is not kept either")
            // Any part of the content: the stamp, the field, the task.
            for changed in [operation(1, millis: 1_700_000_000_999), operation(1, field: "notes"), operation(1, task: taskID(9))] {
                let response = try await sync(client, token: token, body(first, [changed]))
                XCTAssertEqual(response.status, .conflict, changed)
            }
            // One seq twice in a request with other content.
            let twice = try await sync(client, token: token, body(first, [operation(4), operation(4, value: #""other""#)]))
            XCTAssertEqual(twice.status, .conflict)
            XCTAssertTrue(String(buffer: twice.body).hasPrefix(#"{"error":"ops[1] reuses seq 4 of replica"#), String(buffer: twice.body))
            XCTAssertEqual(log.operationCount(name: "ana"), 2)
            // (replica, seq) names an operation within one account: another replica, another account.
            let elsewhere = try await sync(client, token: token, body(second, [operation(2, value: #""changed""#)]))
            XCTAssertEqual(elsewhere.status, .ok)
            let bobs = try await sync(client, token: other, body(first, [operation(2, value: #""changed""#)]))
            XCTAssertEqual(bobs.status, .ok)
            XCTAssertEqual(log.operationCount(name: "ana"), 3)
        }
    }

    func testAStampMoreThanAMinuteAheadIsRefusedWithTheServersClock() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        try await app(log).test(.router) { client in
            let ahead = try await sync(
                client, token: token, body(first, [operation(1), operation(2, millis: serverMillis + 3 * 3_600_000)]))
            XCTAssertEqual(ahead.status, .badRequest)
            XCTAssertEqual(ahead.headers[.contentType], "application/json")
            XCTAssertEqual(
                String(buffer: ahead.body),
                #"{"error":"ops[1].millis is 3 h ahead of the server's clock (it allows 60 s): "#
                    + #"the sending machine's clock is wrong","server_millis":1800000000000}"#)
            let largest = try await sync(client, token: token, body(first, [operation(1, millis: Int64.max)]))
            XCTAssertEqual(largest.status, .badRequest)
            XCTAssertEqual(log.operationCount(name: "ana"), 0)
            // A minute ahead is taken.
            let minute = try await sync(client, token: token, body(first, [operation(1, millis: serverMillis + 60_000)]))
            XCTAssertEqual(String(buffer: minute.body), #"{"ops":[],"last":1,"more":false,"epoch":"\#(log.epoch)"\#(stored(first, 1, 1))}"#)
        }
    }

    func testAValueTheAppRefusesIsRefusedNamingTheOperation() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        try await app(log).test(.router) { client in
            let cases = [
                (operation(2, value: #""   ""#), #"{"error":"ops[1] sets a task id or a title that navstack does not take"}"#),
                (operation(2, task: "task-2"), #"{"error":"ops[1] sets a task id or a title that navstack does not take"}"#),
                (
                    operation(2, field: "done", value: #""yes""#),
                    #"{"error":"ops[1] sets a task id or a done that navstack does not take"}"#
                ),
            ]
            for (refused, expected) in cases {
                let response = try await sync(client, token: token, body(first, [operation(1), refused]))
                XCTAssertEqual(response.status, .badRequest, refused)
                XCTAssertEqual(String(buffer: response.body), expected)
            }
            XCTAssertEqual(log.operationCount(name: "ana"), 0)
        }
    }

    func testAnUnknownTokenIsRefusedBeforeTheBodyIsRead() async throws {
        let log = MemoryOperationLog()
        _ = log.addUser(name: "ana")
        try await app(log).test(.router) { client in
            // Read, this body would be refused with 400: the token is refused first.
            for body in [ByteBuffer(string: "not json"), body(first, [operation(1, task: "task-1")])] {
                let response = try await sync(client, token: String(repeating: "0", count: 64), body)
                XCTAssertEqual(response.status, .unauthorized)
                XCTAssertEqual(String(buffer: response.body), #"{"error":"bad token"}"#)
            }
        }
    }

    func testARevokedTokenIsRefusedAtOnceAndANewOneWorks() async throws {
        let log = MemoryOperationLog()
        let laptop = try XCTUnwrap(log.addUser(name: "ana"))
        let phone = try XCTUnwrap(log.addToken(name: "ana"))
        try await app(log).test(.router) { client in
            _ = try answer(await sync(client, token: laptop, body(first, [operation(1)])))
            XCTAssertEqual(log.revoke(name: "ana"), 2)
            for token in [laptop, phone] {
                let response = try await sync(client, token: token, body(second))
                XCTAssertEqual(response.status, .unauthorized)
                XCTAssertEqual(String(buffer: response.body), #"{"error":"bad token"}"#)
            }
            let renewed = try XCTUnwrap(log.addToken(name: "ana"))
            let kept = try answer(await sync(client, token: renewed, body(second)))
            XCTAssertEqual(kept.operations.count, 1, "the log stays")
        }
        XCTAssertNil(log.revoke(name: "bob"))
        XCTAssertNil(log.addToken(name: "bob"))
    }

    func testAHeldTokenIsConfirmedByItsSyncAndLookedUpAgainOnceRefused() async throws {
        let log = MemoryOperationLog()
        let laptop = try XCTUnwrap(log.addUser(name: "ana"))
        let store = WatchedStore(log)
        try await app(store).test(.router) { client in
            _ = try answer(await sync(client, token: laptop, body(first, [operation(1)])))
            _ = try answer(await sync(client, token: laptop, body(first, [operation(2)])))
            XCTAssertEqual(store.lookups, 1, "the second sync's token is held, not looked up")
            XCTAssertEqual(store.confirming, [nil, laptop], "the held token is confirmed by the sync")
            XCTAssertEqual(log.revoke(name: "ana"), 1)
            for expectedLookups in [1, 2] {
                let response = try await sync(client, token: laptop, body(first, [operation(3)]))
                XCTAssertEqual(response.status, .unauthorized)
                XCTAssertEqual(store.lookups, expectedLookups, "once refused, the token is looked up again")
            }
            XCTAssertEqual(store.confirming, [nil, laptop, laptop], "the looked-up refusal never reaches the sync")
        }
        XCTAssertEqual(log.operationCount(name: "ana"), 2, "nothing of the refused push is kept")
    }

    func testTheTokenCacheStartsOverWhenFull() {
        let cache = TokenCache(capacity: 2, trusted: true)
        let now = cache.generation
        cache.remember("a", as: TokenHolder(id: 1, key: nil), since: now)
        cache.remember("b", as: TokenHolder(id: 2, key: "k"), since: now)
        cache.remember("b", as: TokenHolder(id: 2, key: "k"), since: now)
        XCTAssertEqual(cache.count, 2, "a token held already takes no room")
        cache.remember("c", as: TokenHolder(id: 3, key: nil), since: now)
        XCTAssertEqual(cache.count, 1)
        XCTAssertNil(cache.holder(of: "a"))
        cache.update("c", key: "k")
        cache.update("d", key: "k")
        XCTAssertEqual(cache.holder(of: "c"), TokenHolder(id: 3, key: "k"))
        XCTAssertNil(cache.holder(of: "d"), "a key is learnt for a token held only")
        cache.forget("c")
        XCTAssertNil(cache.holder(of: "c"))
    }

    func testTheTokenCacheHoldsNothingUntrustedNorALookupOlderThanItsStartOver() {
        let cache = TokenCache(trusted: false)
        cache.remember("a", as: TokenHolder(id: 1, key: nil), since: cache.generation)
        XCTAssertNil(cache.holder(of: "a"), "not listening for tokens that go: nothing held")
        cache.trust()
        let before = cache.generation
        cache.remember("a", as: TokenHolder(id: 1, key: nil), since: before)
        XCTAssertNotNil(cache.holder(of: "a"))
        cache.startOver()
        XCTAssertNil(cache.holder(of: "a"), "a token went: every one is looked up again")
        cache.remember("b", as: TokenHolder(id: 2, key: nil), since: before)
        XCTAssertNil(cache.holder(of: "b"), "looked up before the start-over: it may be the token that went")
        cache.remember("b", as: TokenHolder(id: 2, key: nil), since: cache.generation)
        XCTAssertNotNil(cache.holder(of: "b"))
        cache.distrust()
        XCTAssertEqual(cache.count, 0)
        cache.remember("b", as: TokenHolder(id: 2, key: nil), since: cache.generation)
        XCTAssertNil(cache.holder(of: "b"), "no longer listening: nothing held")
    }

    func testAccountsAreApart() async throws {
        let log = MemoryOperationLog()
        let ana = try XCTUnwrap(log.addUser(name: "ana"))
        let bob = try XCTUnwrap(log.addUser(name: "bob"))
        XCTAssertNil(log.addUser(name: "ana"), "an account that exists is not added again")
        let again = try XCTUnwrap(log.addToken(name: "ana"))
        try await app(log).test(.router) { client in
            _ = try await sync(client, token: ana, body(first, [operation(1)]))
            let bobs = try answer(await sync(client, token: bob, body(second)))
            XCTAssertEqual(bobs.operations.count, 0)
            let anas = try answer(await sync(client, token: again, body(second)))
            XCTAssertEqual(anas.operations.count, 1)
        }
    }

    func testRefusals() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        try await app(log).test(.router) { client in
            let missing = try await sync(client, token: nil, body(first))
            XCTAssertEqual(missing.status, .unauthorized)
            XCTAssertEqual(missing.headers[.wwwAuthenticate], "Bearer")
            XCTAssertEqual(String(buffer: missing.body), #"{"error":"missing token: send Authorization: Bearer TOKEN"}"#)

            for refused in [String(repeating: "0", count: 64), "not-a-token", token.uppercased()] {
                let response = try await sync(client, token: refused, body(first))
                XCTAssertEqual(response.status, .unauthorized, refused)
                XCTAssertEqual(response.headers[.wwwAuthenticate], #"Bearer error="invalid_token""#)
                XCTAssertEqual(String(buffer: response.body), #"{"error":"bad token"}"#)
            }

            let wrongType = try await sync(client, token: token, ByteBuffer(string: #"{"replica":"\#(first)","after":"0","ops":[]}"#))
            XCTAssertEqual(wrongType.status, .badRequest)
            XCTAssertEqual(String(buffer: wrongType.body), #"{"error":"after must be a whole number from 0 to 9223372036854775807"}"#)
            let colour = #"{"seq":2,"millis":5,"counter":0,"task":"t","field":"colour","value":1}"#
            let badField = try await sync(client, token: token, body(first, [operation(1), colour]))
            XCTAssertEqual(
                String(buffer: badField.body),
                #"{"error":"ops[1].field must be one of task, title, notes, done, parent, position, due, scheduled, wait, until, priority, project, recur, tags, annotations, depends, fields, created, modified, completed"}"#
            )
            let notJSON = try await sync(client, token: token, ByteBuffer(string: #"{"replica": ""#))
            XCTAssertEqual(notJSON.status, .badRequest)
            XCTAssertTrue(String(buffer: notJSON.body).hasPrefix(#"{"error":"malformed JSON: "#), String(buffer: notJSON.body))
            XCTAssertEqual(log.operationCount(name: "ana"), 0)

            let large = try await sync(
                client, token: token, ByteBuffer(repeating: UInt8(ascii: " "), count: SyncLimits.maximumBodyBytes + 1))
            XCTAssertEqual(large.status, .contentTooLarge)
            XCTAssertEqual(String(buffer: large.body), #"{"error":"the body is larger than 8388608 bytes"}"#)

            let get = try await client.execute(uri: "/v1/sync", method: .get)
            XCTAssertEqual(get.status, .methodNotAllowed)
            XCTAssertEqual(get.headers[.allow], "POST")
            XCTAssertEqual(String(buffer: get.body), #"{"error":"method not allowed here; use POST"}"#)
            let post = try await client.execute(uri: "/health", method: .post, body: ByteBuffer(string: "{}"))
            XCTAssertEqual(post.status, .methodNotAllowed)
            XCTAssertEqual(post.headers[.allow], "GET")

            let nowhere = try await client.execute(uri: "/v2/nothing", method: .get)
            XCTAssertEqual(nowhere.status, .notFound)
            XCTAssertEqual(nowhere.headers[.contentType], "application/json")
            XCTAssertEqual(String(buffer: nowhere.body), #"{"error":"no such path"}"#)
        }
    }

    func testHealth() async throws {
        try await app(MemoryOperationLog()).test(.router) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(String(buffer: response.body), #"{"status":"ok"}"#)
        }
    }

    func testAStoreThatFailsOrDoesNotAnswerIs503() async throws {
        for store in [UnavailableStore(hangs: false), UnavailableStore(hangs: true)] {
            try await app(store, databaseDeadline: .milliseconds(50)).test(.router) { client in
                let health = try await client.execute(uri: "/health", method: .get)
                XCTAssertEqual(health.status, .serviceUnavailable)
                XCTAssertEqual(String(buffer: health.body), #"{"error":"the database did not answer"}"#)
                let synced = try await sync(client, token: String(repeating: "0", count: 64), body(first))
                XCTAssertEqual(synced.status, .serviceUnavailable)
            }
        }
    }

    func testEachRequestIsOneLogLineAndARefusalSaysWhyInWords() async throws {
        let log = MemoryOperationLog()
        let token = try XCTUnwrap(log.addUser(name: "ana"))
        let lines = LogLines()
        try await app(log, logs: lines).test(.router) { client in
            _ = try await sync(client, token: token, body(first, [operation(1)]))
            _ = try await sync(client, token: String(repeating: "0", count: 64), body(first))
            _ = try await client.execute(uri: "/v1/sync", method: .get)
        }
        let requests = lines.lines.filter { $0.metadata["path"] != nil }
        XCTAssertEqual(
            requests.map(\.message), ["request", "request refused: bad token", "request refused: method not allowed here; use POST"])
        XCTAssertEqual(requests.map { $0.metadata["status"] }, ["200", "401", "405"])
        XCTAssertEqual(requests[0].metadata["ops_in"], "1")
        XCTAssertEqual(requests[0].metadata["account"], "1")
    }
}

/// A store that counts its token lookups and records each sync's token to confirm.
private final class WatchedStore: OperationStore {
    private let store: any OperationStore
    private let seen = Mutex<(lookups: Int, confirming: [String?])>((0, []))

    init(_ store: any OperationStore) {
        self.store = store
    }

    var lookups: Int { seen.withLock { $0.lookups } }
    var confirming: [String?] { seen.withLock { $0.confirming } }

    func account(token: String, logger: Logger) async throws -> TokenHolder? {
        seen.withLock { $0.lookups += 1 }
        return try await store.account(token: token, logger: logger)
    }

    func sync(account: TokenHolder, request: SyncRequest, confirming token: String?, logger: Logger) async throws
        -> SyncOutcome
    {
        seen.withLock { $0.confirming.append(token) }
        return try await store.sync(account: account, request: request, confirming: token, logger: logger)
    }

    func ping(logger: Logger) async throws {
        try await store.ping(logger: logger)
    }
}

/// A store whose database is down: it fails at once, or never answers.
private struct UnavailableStore: OperationStore {
    struct Down: Error {}
    var hangs: Bool

    func account(token: String, logger: Logger) async throws -> TokenHolder? {
        try await ping(logger: logger)
        throw Down()
    }

    func sync(account: TokenHolder, request: SyncRequest, confirming token: String?, logger: Logger) async throws
        -> SyncOutcome
    {
        try await ping(logger: logger)
        throw Down()
    }

    func ping(logger: Logger) async throws {
        if hangs { try await Task.sleep(for: .seconds(3600)) }
        throw Down()
    }
}

/// The lines logged, for the checks.
final class LogLines: LogHandler, @unchecked Sendable {
    struct Line {
        var message: String
        var metadata: [String: String]
    }

    private let stored = Mutex<[Line]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var lines: [Line] { stored.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let values = (metadata.merging(event.metadata ?? [:]) { $1 }).mapValues { "\($0)" }
        stored.withLock { $0.append(Line(message: "\(event.message)", metadata: values)) }
    }
}
