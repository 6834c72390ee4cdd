import NavStackCore
import XCTest

@testable import NavStackSync

/// The server's answer as both ends see it: written in the protocol's order, read back
/// strictly, anything else refused with the member that failed.
final class SyncAnswerTests: XCTestCase {
    private let r1 = "0123456789abcdef0123456789abcdef"
    private let r2 = "fedcba9876543210fedcba9876543210"

    private func answer(_ text: String) throws(SyncWireError) -> SyncAnswer {
        try SyncAnswer(json: Array(text.utf8))
    }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let read = try answer(text)
            XCTFail("accepted: \(read)", file: file, line: line)
            return nil
        } catch {
            return error.message(in: .english)
        }
    }

    func testTheAnswerIsCompactJSONInTheProtocolsOrder() {
        let page = SyncAnswer(
            operations: [
                SyncOperation(
                    serverSeq: 7, replica: r1, seq: 3, millis: 5, counter: 1, task: "t\"1", field: .title,
                    value: #""x""#, old: "null"),
                SyncOperation(
                    serverSeq: 9, replica: r2, seq: 1, millis: 6, counter: 0, task: "t2", field: .done, value: "true",
                    old: "false"),
            ], last: 9, more: true)
        XCTAssertEqual(
            String(decoding: page.json(), as: UTF8.self),
            #"{"ops":[{"server_seq":7,"replica":"\#(r1)","seq":3,"millis":5,"counter":1,"task":"t\"1","field":"title","value":"x","old":null},"#
                + #"{"server_seq":9,"replica":"\#(r2)","seq":1,"millis":6,"counter":0,"task":"t2","field":"done","value":true,"old":false}],"#
                + #""last":9,"more":true}"#)
        XCTAssertEqual(
            String(decoding: SyncAnswer(operations: [], last: 0, more: false).json(), as: UTF8.self),
            #"{"ops":[],"last":0,"more":false}"#)
        XCTAssertEqual(try SyncAnswer(json: page.json()), page)
    }

    /// What the server stored of the request, and the replicas gone: written last, read
    /// back, and refused when they are not what they must be.
    func testAnAnswerNamesWhatWasStoredAndTheReplicasGone() throws {
        var page = SyncAnswer(operations: [], last: 4, more: false)
        page.stored = SyncStored(replica: r1, first: 3, last: 5)
        page.gone = [r2]
        XCTAssertEqual(
            String(decoding: page.json(), as: UTF8.self),
            #"{"ops":[],"last":4,"more":false,"stored":{"replica":"\#(r1)","first":3,"last":5},"gone":["\#(r2)"]}"#)
        XCTAssertEqual(try SyncAnswer(json: page.json()), page)
        XCTAssertTrue(SyncStored(replica: r1, first: 3, last: 5).answers(page))
        XCTAssertFalse(SyncStored(replica: r1, first: 6, last: 7).answers(page), "another request's range")
        XCTAssertFalse(SyncStored(replica: r2, first: 3, last: 5).answers(page), "another replica's")
        XCTAssertFalse(SyncStored(replica: r1, first: 0, last: 0).answers(SyncAnswer(operations: [], last: 0, more: false)), "none named")
        XCTAssertEqual(
            failure(#"{"ops":[],"last":0,"more":false,"stored":{"replica":"\#(r1)","first":3}}"#), "stored.last is missing")
        XCTAssertEqual(failure(#"{"ops":[],"last":0,"more":false,"gone":"x"}"#), "gone must be an array")
    }

    func testAnAnswerIsReadWithItsOperationsInOrderAndUnknownMembersSkipped() throws {
        let read = try answer(
            """
             { "ops" : [ {"server_seq": 7, "replica": "\(r1)", "seq": 3, "millis": 1700000000000, "counter": 2, "task": "u1",
              "field": "task", "value": {"title": "A \\"b\\"", "notes": "", "done": false, "parent": null, "position": -4},
              "old": null, "later": [1, {"x": 2}]},
             {"server_seq": 8, "replica":"\(r2)","seq":1,"millis":5,"counter":0,"task":"u2","field":"done","value":true,"old":false} ],
              "last": 12, "more": true, "note": "skipped" }
            """)
        XCTAssertEqual(read.last, 12)
        XCTAssertTrue(read.more)
        XCTAssertEqual(
            read.operations,
            [
                SyncOperation(
                    serverSeq: 7, replica: r1, seq: 3, millis: 1_700_000_000_000, counter: 2, task: "u1", field: .task,
                    value: #"{"title":"A \"b\"","notes":"","done":false,"parent":null,"position":-4}"#, old: "null"),
                SyncOperation(
                    serverSeq: 8, replica: r2, seq: 1, millis: 5, counter: 0, task: "u2", field: .done, value: "true",
                    old: "false"),
            ])
        XCTAssertEqual(try answer(#"{"ops":[],"last":0,"more":false}"#).operations, [])
    }

    func testAnythingButAnAnswerIsRefusedNamingTheMember() {
        let op = #""server_seq":1,"replica":"\#(r1)","seq":1,"millis":1,"counter":0,"task":"u","field":"done""#
        XCTAssertEqual(failure(""), "malformed JSON: unexpected end of input")
        XCTAssertEqual(failure("[]"), "the body must be a JSON object")
        XCTAssertEqual(failure("null"), "the body must be a JSON object")
        XCTAssertEqual(failure(#"{"ops":[],"last":1}"#), "more is missing")
        XCTAssertEqual(failure(#"{"ops":{},"last":1,"more":false}"#), "ops must be an array")
        XCTAssertEqual(failure(#"{"ops":[],"last":1.5,"more":false}"#), "last must be a whole number from 0 to 9223372036854775807")
        XCTAssertEqual(failure(#"{"ops":[],"last":1,"more":"no"}"#), "more must be true or false")
        XCTAssertEqual(failure(#"{"ops":[],"last":1,"more":false} x"#), "malformed JSON: unexpected 'x' at byte 33")
        XCTAssertEqual(failure(#"{"ops":[],"last":1,"more":false"#), "malformed JSON: unexpected end of input")
        XCTAssertEqual(
            failure("{\"ops\":[],\"last\":1,\"more\":false,\"x\":\"\u{1}\"}"),
            "malformed JSON: a control character in a string at byte 37")
        XCTAssertEqual(failure(#"{"ops":[{\#(op),"value":true}],"last":1,"more":false,"more":true}"#), "more is given twice")
        XCTAssertEqual(
            failure(
                #"{"ops":[{"replica":"\#(r1)","seq":1,"millis":1,"counter":0,"task":"u","field":"done","value":true}],"#
                    + #""last":1,"more":false}"#), "ops[0].server_seq is missing")
        XCTAssertEqual(failure(#"{"ops":[{\#(op)}],"last":4,"more":false}"#), "ops[0].value is missing")
        XCTAssertEqual(
            failure(
                #"{"ops":[{"server_seq":1,"replica":"r","seq":1,"millis":1,"counter":0,"task":"u","field":"done","#
                    + #""value":true}],"last":1,"more":false}"#), "ops[0].replica must be 32 lowercase hexadecimal digits")
    }

    func testAMessageStopsAtItsByteBudgetButCarriesOneOperationAlways() {
        func operations(_ count: Int, valueBytes: Int) -> [SyncOperation] {
            let value = "\"" + String(repeating: "v", count: valueBytes) + "\""
            return (1...count).map {
                SyncOperation(
                    serverSeq: Int64($0), replica: r1, seq: Int64($0), millis: 1, counter: 0, task: "t", field: .notes,
                    value: value)
            }
        }
        func fitting(_ operations: [SyncOperation]) -> Int {
            SyncLimits.fitting(operations, count: SyncLimits.pageSize, bytes: SyncLimits.maximumAnswerBytes)
        }
        XCTAssertEqual(fitting(operations(12_000, valueBytes: 10)), SyncLimits.pageSize)
        XCTAssertEqual(fitting(operations(3, valueBytes: 10)), 3)
        XCTAssertEqual(fitting([]), 0)
        let large = operations(5_000, valueBytes: 4_000)
        let fits = fitting(large)
        XCTAssertLessThan(fits, 5_000)
        XCTAssertGreaterThan(fits, 1_000)
        // The bound is a bound: what fits is never larger when written.
        XCTAssertLessThanOrEqual(
            SyncAnswer(operations: Array(large.prefix(fits)), last: 1, more: true).json().count,
            SyncLimits.maximumAnswerBytes + 64)
        XCTAssertEqual(fitting(operations(2, valueBytes: SyncLimits.maximumAnswerBytes)), 1)
    }
}
