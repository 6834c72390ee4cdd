import NavStackBytes
import NavStackCore
import XCTest

@testable import NavStackSync

/// The request body as the protocol writes it, and every way a body is refused, with the
/// exact reason the client reads (the server answers with it).
final class SyncRequestTests: XCTestCase {
    private let replica = "0123456789abcdef0123456789abcdef"

    private func decode(_ text: String) throws -> SyncRequest {
        try text.withUTF8Bytes { try SyncRequest(json: $0) }
    }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let request = try decode(text)
            XCTFail("accepted: \(request)", file: file, line: line)
            return nil
        } catch let failure as SyncWireError {
            return failure.message(in: .english)
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func testARequestIsReadWithItsValuesAsCompactJSONText() throws {
        let request = try decode(
            """
            { "replica": "\(replica)", "after": 12, "unknown": [1, {"x": null}],
              "ops": [ {"seq": 1, "millis": 1700000000000, "counter": 0, "task": "a-b", "field": "task",
                        "value": { "title" : "Buy \\"fruit\\"", "tags": [ 1, 2.5e3, true ] }, "old": null},
                       {"seq": 2, "millis": 0, "counter": 2147483647, "task": "a-b", "field": "title", "value": " x y "} ] }
            """)
        XCTAssertEqual(request.replica, replica)
        XCTAssertEqual(request.after, 12)
        XCTAssertEqual(
            request.operations,
            [
                SyncOperation(
                    seq: 1, millis: 1_700_000_000_000, counter: 0, task: "a-b", field: .task,
                    value: #"{"title":"Buy \"fruit\"","tags":[1,2.5e3,true]}"#, old: "null"),
                SyncOperation(seq: 2, millis: 0, counter: 2_147_483_647, task: "a-b", field: .title, value: #"" x y ""#),
            ])
    }

    /// The format: absent is 1 (every earlier navstack's request), written only past 1,
    /// read back as it was, and refused outside its bounds; the write key likewise.
    func testTheFormatAndTheWriteKeyAreReadBackAndBounded() throws {
        var plain = SyncRequest(replica: replica, after: 0, operations: [])
        XCTAssertEqual(plain.format, SyncFormat.current)
        plain.format = 1
        XCTAssertEqual(try decode(#"{"replica":"\#(replica)","after":0,"ops":[]}"#).format, 1)
        XCTAssertFalse(String(decoding: plain.json(), as: UTF8.self).contains("format"), "format 1 is not written")
        var newer = plain
        newer.format = 2
        newer.writeKey = Base64.encode([UInt8](repeating: 7, count: 32))
        let text = String(decoding: newer.json(), as: UTF8.self)
        XCTAssertTrue(text.contains(#""format":2"#), text)
        XCTAssertEqual(try decode(text), newer)
        XCTAssertEqual(
            failure(#"{"replica":"\#(replica)","after":0,"ops":[],"format":0}"#),
            "format must be a whole number from 1 to 1000000")
        XCTAssertEqual(
            failure(#"{"replica":"\#(replica)","after":0,"ops":[],"format":1000000}"#),
            "format 1000000 is not one this server knows (it knows 1 to \(SyncFormat.current)): update navstack-server")
        var unknown = plain
        unknown.format = SyncFormat.current + 1
        XCTAssertThrowsError(try unknown.format(accountFormat: 1), "the logs' rule") { error in
            XCTAssertEqual(error as? SyncLogError, .malformed(.unknownFormat(format: SyncFormat.current + 1)))
        }
        XCTAssertEqual(
            failure(#"{"replica":"\#(replica)","after":0,"ops":[],"write_key":"c2hvcnQ="}"#),
            "write_key must be base64 text of 32 bytes")
    }

    /// The replicas set aside: written only when there are some, read back, at most 64.
    func testTheReplicasSetAsideAreReadBackAndBounded() throws {
        var request = SyncRequest(replica: replica, after: 0, operations: [])
        XCTAssertFalse(String(decoding: request.json(), as: UTF8.self).contains("aside"))
        request.aside = [String(repeating: "5e", count: 16), String(repeating: "6f", count: 16)]
        XCTAssertEqual(try decode(String(decoding: request.json(), as: UTF8.self)), request)
        let many = (0...SyncLimits.maximumAsideReplicas).map { _ in "\"\(String(repeating: "ab", count: 16))\"" }
        XCTAssertEqual(
            failure(#"{"replica":"\#(replica)","after":0,"ops":[],"aside":[\#(many.joined(separator: ","))]}"#),
            "aside names more than 64 replicas")
        XCTAssertEqual(failure(#"{"replica":"\#(replica)","after":0,"ops":[],"aside":["x"]}"#)?.hasPrefix("aside[0]"), true)
    }

    func testAPullOnlyRequestHasNoOperations() throws {
        XCTAssertEqual(try decode(#"{"replica":"\#(replica)","after":0,"ops":[]}"#).operations, [])
    }

    func testEachRefusalNamesThePartAndWhy() {
        let start = #"{"replica":"\#(replica)","after":0,"ops":["#
        let op = #""seq":1,"millis":2,"counter":3,"task":"t","field":"done""#
        XCTAssertEqual(failure(""), "malformed JSON: unexpected end of input")
        XCTAssertEqual(failure(#"{"replica":"#), "malformed JSON: unexpected end of input")
        XCTAssertEqual(failure(#"{"after":0}x"#), "malformed JSON: unexpected 'x' at byte 11")
        XCTAssertEqual(failure("[]"), "the body must be a JSON object")
        XCTAssertEqual(failure(#"{"after":0,"ops":[]}"#), "replica is missing")
        XCTAssertEqual(failure(#"{"replica":"\#(replica)","ops":[]}"#), "after is missing")
        XCTAssertEqual(failure(#"{"replica":"\#(replica)","after":0}"#), "ops is missing")
        XCTAssertEqual(
            failure(#"{"replica":"ABCDEF0123456789abcdef0123456789","after":0,"ops":[]}"#),
            "replica must be 32 lowercase hexadecimal digits")
        XCTAssertEqual(
            failure(#"{"replica":"\u0030123456789abcdef0123456789abcdef","after":0,"ops":[]}"#),
            "replica must be 32 lowercase hexadecimal digits")
        XCTAssertEqual(
            failure(#"{"replica":"\#(replica)","after":"1","ops":[]}"#),
            "after must be a whole number from 0 to 9223372036854775807")
        XCTAssertEqual(
            failure(#"{"replica":"\#(replica)","after":1.0,"ops":[]}"#),
            "after must be a whole number from 0 to 9223372036854775807")
        XCTAssertEqual(
            failure(#"{"replica":"\#(replica)","after":9223372036854775808,"ops":[]}"#),
            "after must be a whole number from 0 to 9223372036854775807")
        XCTAssertEqual(failure(#"{"replica":"\#(replica)","after":0,"after":1,"ops":[]}"#), "after is given twice")
        XCTAssertEqual(failure(#"{"replica":"\#(replica)","after":0,"ops":{}}"#), "ops must be an array")
        XCTAssertEqual(failure(start + "1]}"), "ops[0] must be a JSON object")
        XCTAssertEqual(failure(start + "{" + op + "}]}"), "ops[0].value is missing")
        XCTAssertEqual(
            failure(start + #"{"seq":0,"millis":2,"counter":3,"task":"t","field":"done","value":1}]}"#),
            "ops[0].seq must be a whole number from 1 to 9223372036854775807")
        XCTAssertEqual(
            failure(start + #"{"seq":1,"millis":2,"counter":2147483648,"task":"t","field":"done","value":1}]}"#),
            "ops[0].counter must be a whole number from 0 to 2147483647")
        XCTAssertEqual(
            failure(start + #"{"seq":1,"millis":2,"counter":3,"task":"","field":"done","value":1}]}"#),
            "ops[0].task must be a string of 1 to 64 characters without control characters")
        XCTAssertEqual(
            failure(start + #"{"seq":1,"millis":2,"counter":3,"task":"a\u0000","field":"done","value":1}]}"#),
            "ops[0].task must be a string of 1 to 64 characters without control characters")
        XCTAssertEqual(
            failure(start + #"{"seq":1,"millis":2,"counter":3,"task":"\#(String(repeating: "é", count: 65))","field":"done","value":1}]}"#),
            "ops[0].task must be a string of 1 to 64 characters without control characters")
        XCTAssertEqual(
            failure(start + "{" + op + #","value":1},{"seq":2,"millis":2,"counter":3,"task":"t","field":"color","value":1}]}"#),
            "ops[1].field must be one of task, title, notes, done, parent, position, due, scheduled, wait, until, priority, project, recur, tags, annotations, depends, fields, created, modified, completed"
        )
        XCTAssertEqual(
            failure(start + #"{"seq":1,"millis":2,"counter":3,"task":"t","field":5,"value":1}]}"#),
            "ops[0].field must be one of task, title, notes, done, parent, position, due, scheduled, wait, until, priority, project, recur, tags, annotations, depends, fields, created, modified, completed"
        )
        XCTAssertEqual(failure(start + "{" + op + #","value":[1,}]}"#), "malformed JSON: unexpected '}' at byte 132")
    }

    func testMoreThanAPageOfOperationsIsRefused() {
        let op = #"{"seq":1,"millis":2,"counter":3,"task":"t","field":"done","value":true}"#
        let ops = Array(repeating: op, count: SyncLimits.maximumOperationsPerRequest)
        let body = { (ops: [String]) in #"{"replica":"\#(self.replica)","after":0,"ops":[\#(ops.joined(separator: ","))]}"# }
        XCTAssertEqual(try decode(body(ops)).operations.count, 10_000)
        XCTAssertEqual(failure(body(ops + [op])), "more than 10000 ops in one request")
    }

    func testCompactingLeavesStringsAlone() {
        func compact(_ text: String) -> String {
            text.withUTF8Bytes { compactJSON($0) }
        }
        XCTAssertEqual(compact(#"{"a":[1,2]}"#), #"{"a":[1,2]}"#)
        XCTAssertEqual(compact("{ \"a b\" :\t[ 1 ,\n2 ] , \"c\\\" d\": \" \" }"), #"{"a b":[1,2],"c\" d":" "}"#)
    }

    func testARequestWrittenIsReadAsItWas() throws {
        var request = SyncRequest(
            replica: replica, after: 41,
            operations: [
                SyncOperation(
                    seq: 7, millis: 1_700_000_000_123, counter: 3, task: "t\"1", field: .notes,
                    value: #""line\nnext""#, old: #""was""#),
                SyncOperation(seq: 8, millis: 1_700_000_000_124, counter: 0, task: "t2", field: .task, value: "null"),
            ])
        // Format 1's layout (a later format adds `"format"`, checked above).
        request.format = 1
        let bytes = request.json()
        XCTAssertEqual(
            String(decoding: bytes, as: UTF8.self),
            #"{"replica":"\#(replica)","after":41,"ops":[{"seq":7,"millis":1700000000123,"counter":3,"task":"t\"1","#
                + #""field":"notes","value":"line\nnext","old":"was"},{"seq":8,"millis":1700000000124,"counter":0,"#
                + #""task":"t2","field":"task","value":null,"old":null}],"snapshots":true}"#)
        XCTAssertEqual(try SyncRequest(json: bytes), request)
    }
}

/// What the server refuses of what it can see: stamps ahead of its clock, values the app
/// would not take.
final class SyncRequestCheckTests: XCTestCase {
    private let replica = "0123456789abcdef0123456789abcdef"
    private let task = "7c1e9a52-0b1d-4c5e-9f3a-2d4b6c8e0f11"
    private let now: Int64 = 1_700_000_000_000

    private func refusal(_ operations: [(millis: Int64, field: SyncField, value: String)]) -> String? {
        let request = SyncRequest(
            replica: replica, after: 0,
            operations: operations.enumerated().map { index, op in
                SyncOperation(seq: Int64(index + 1), millis: op.millis, counter: 0, task: task, field: op.field, value: op.value)
            })
        return request.refusal(now: now)?.message(in: .english)
    }

    func testStampsWithinAMinuteAheadAndValuesTheAppTakesPass() {
        XCTAssertNil(refusal([(now + 60_000, .title, #""Fine""#), (now - 86_400_000, .done, "true"), (now, .task, "null")]))
    }

    func testAStampPastAMinuteAheadIsRefusedNamingHowFar() {
        XCTAssertEqual(
            refusal([(now, .done, "true"), (now + 3 * 3_600_000, .done, "false")]),
            "ops[1].millis is 3 h ahead of the server's clock (it allows 60 s): the sending machine's clock is wrong")
    }

    func testAValueTheAppRefusesIsRefused() {
        XCTAssertEqual(refusal([(now, .title, #""  ""#)]), "ops[0] sets a task id or a title that navstack does not take")
        XCTAssertEqual(refusal([(now, .done, "1")]), "ops[0] sets a task id or a done that navstack does not take")
    }
}
