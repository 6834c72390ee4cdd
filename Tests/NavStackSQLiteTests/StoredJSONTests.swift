import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// The JSON the store keeps for navigation state and undo history reads back, including
/// what earlier versions wrote (with `/` escaped and absent optionals).
final class StoredJSONTests: XCTestCase {
    func testASessionReadsBackAsItWas() throws {
        var session = Session(user: "ana")
        session.tab = .account
        session.tasksPath = [.detail(2), .edit(2)]
        session.accountPath = [.settings]
        session.sheet = .newTask
        var draft = Draft(editing: DraftFields(title: "Old \"t\"", notes: "n\n2", done: false))
        draft.fields = DraftFields(title: "New ☕", notes: "", done: true)
        // Every field a draft edits comes back, those of the base too.
        draft.fields.due = Instant(secondsSinceEpoch: 1_764_547_200)
        draft.fields.wait = Instant(secondsSinceEpoch: -86_400)
        draft.fields.priority = .high
        draft.fields.project = "home.garden"
        draft.fields.recur = "2w"
        draft.fields.tags = ["errand", "Home"]
        session.drafts[.edit(2)] = draft
        var based = Draft(editing: DraftFields(title: "Base", scheduled: Instant(secondsSinceEpoch: 5), tags: ["x"]))
        based.fields.tags = []
        session.drafts[.edit(3)] = based
        session.drafts[.sheet] = Draft(editing: DraftFields())
        session.list = ListState(filter: .done, search: "caf", page: 3)
        let saved = SavedSession(session)
        let read = try XCTUnwrap(SavedSession(json: saved.json))
        XCTAssertEqual(read, saved)
        XCTAssertEqual(read.session(user: "ana"), session)
        XCTAssertEqual(SavedSession(json: SavedSession(Session(user: "bo")).json)?.session(user: "bo"), Session(user: "bo"))
    }

    func testStateWrittenByEarlierVersionsReadsBack() throws {
        let earlier =
            #"{"tab":"tasks","tasks":["detail\/2","edit\/2"],"account":[],"drafts":[{"owner":"edit\/2","title":"X","notes":"","done":false,"original":{"title":"Study SwiftUI","notes":"","done":false}}],"filter":"all","page":1}"#
        let session = try XCTUnwrap(SavedSession(json: earlier)?.session(user: "ana"))
        XCTAssertEqual(session.tasksPath, [.detail(2), .edit(2)])
        XCTAssertNil(session.sheet)
        XCTAssertNil(session.list.search)
        XCTAssertEqual(session.drafts[.edit(2)]?.fields.title, "X")
        XCTAssertEqual(session.drafts[.edit(2)]?.original.title, "Study SwiftUI")
    }

    func testBrokenStateDoesNotReadBack() {
        for text in [
            "", "{}", #"{"tab":"tasks"}"#, #"{"tab":"tasks","tasks":[],"account":[],"drafts":[{"owner":"sheet"}],"filter":"all","page":1}"#,
        ] {
            XCTAssertNil(SavedSession(json: text), text)
        }
    }

    /// A task as the operation log keeps it (a create's or a delete's, and what undo
    /// reads back).
    func testStoredTasksReadBack() {
        var task = StoredTask(
            id: 7, position: -2, uuid: "0b1c2d3e-4f50-4a61-8b72-8c9d0e1f2a3b", DraftFields(title: "T \"q\"", notes: "n", done: true))
        task.rev = 3
        var subtask = task
        subtask.parent = 4
        for task in [task, subtask] {
            XCTAssertEqual(JSONValue(parsing: task.json).flatMap(StoredTask.init(json:)), task)
        }
        let earlier = #"{"id":4,"position":0,"title":"A","notes":"","done":false}"#
        XCTAssertEqual(
            JSONValue(parsing: earlier).flatMap(StoredTask.init(json:)),
            StoredTask(id: 4, position: 0, uuid: "", DraftFields(title: "A", notes: "", done: false)),
            "a record made before tasks had uuids reads back without one")
        XCTAssertNil(JSONValue(parsing: #"{"id":4}"#).flatMap(StoredTask.init(json:)))
        XCTAssertNil(JSONValue(parsing: "{}").flatMap(StoredTask.init(json:)))
    }
}
