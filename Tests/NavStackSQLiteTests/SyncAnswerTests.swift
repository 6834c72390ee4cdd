import NavStackCore
@testable import NavStackSQLite
import XCTest

/// Reading the server's answer.
final class SyncAnswerTests: XCTestCase {
    private func answer(_ text: String) throws -> SyncAnswer {
        try SyncAnswer(Array(text.utf8))
    }

    func testAnAnswerIsReadWithItsOperationsInOrder() throws {
        let read = try answer("""
             { "ops" : [ {"server_seq": 7, "replica": "r1", "seq": 3, "millis": 1700000000000, "counter": 2, "task": "u1",
              "field": "task", "value": {"title": "A \\"b\\"", "notes": "", "done": false, "parent": null, "position": -4},
              "old": null, "later": [1, {"x": 2}]},
             {"replica":"r2","millis":5,"counter":0,"task":"u2","field":"done","value":true,"old":false} ],
              "last": 12, "more": true, "note": "skipped" }
            """)
        XCTAssertEqual(read.last, 12)
        XCTAssertTrue(read.more)
        XCTAssertEqual(read.ops.count, 2)
        let first = read.ops[0]
        XCTAssertEqual(first["replica"]?.string, "r1")
        XCTAssertEqual(first["millis"]?.number, 1_700_000_000_000)
        XCTAssertEqual(first["counter"]?.number, 2)
        XCTAssertEqual(first["task"]?.string, "u1")
        XCTAssertEqual(first["field"]?.string, "task")
        XCTAssertEqual(first["value"]?["title"]?.string, "A \"b\"")
        XCTAssertEqual(first["value"]?["position"]?.number, -4)
        XCTAssertEqual(first["old"], .null)
        XCTAssertEqual(read.ops[1]["value"], .bool(true))
        XCTAssertEqual(read.ops[1]["old"], .bool(false))
        XCTAssertEqual(try answer(#"{"ops":[],"last":0,"more":false}"#).ops.count, 0)
    }

    func testAnythingButAnAnswerIsRefused() {
        for text in ["", "[]", "null", #"{"ops":[],"last":1}"#, #"{"ops":{},"last":1,"more":false}"#,
                     #"{"ops":[],"last":1.5,"more":false}"#, #"{"ops":[],"last":1,"more":"no"}"#,
                     #"{"ops":[],"last":1,"more":false} x"#, #"{"ops":[{"replica":"r"],"last":1,"more":false}"#,
                     #"{"ops":[],"last":1,"more":false"#, "{\"ops\":[],\"last\":1,\"more\":false,\"x\":\"\u{1}\"}"] {
            XCTAssertThrowsError(try answer(text), text) { error in
                XCTAssertEqual(error as? SyncFailure, .malformedAnswer(SyncAnswer.expected), text)
            }
        }
    }

    func testAnOperationLackingAMemberFailsTheAnswerAndChangesNothing() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: false)
        try store.configureSync("ana", server: "http://server", token: "t")
        let request = try store.syncRequest("ana")
        let lacking = Array(#"{"ops":[{"replica":"r","millis":1,"counter":0,"task":"u","value":true}],"last":4,"more":false}"#.utf8)
        XCTAssertThrowsError(try store.applySyncAnswer("ana", SyncAnswer(lacking), to: request)) { error in
            XCTAssertEqual(error as? SyncFailure,
                           .malformedAnswer("an operation lacks replica, millis, counter, task, field or value"))
        }
        XCTAssertEqual(try store.syncRequest("ana").after, 0)
    }
}
