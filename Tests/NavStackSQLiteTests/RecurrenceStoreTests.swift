import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// Marking a recurring instance done makes the next in the same change: in its place, with
/// a uuid derived from the instance done, taken back by undo.
final class RecurrenceStoreTests: XCTestCase {
    private let user = "ana"

    private func instant(_ text: String) -> Instant { Instant(iso8601: text)! }

    private func store() throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: .utc, fixedNow: instant("2026-11-27T09:00:00Z"))
        try store.openProfile(user, sample: true)
        return store
    }

    private func monthly(_ store: SQLiteStore, under parent: Int? = nil) throws -> TaskItem {
        try store.insertAtTop(
            user, DraftFields(title: "Pay rent", due: instant("2027-01-31T10:00:00Z"), recur: "monthly", tags: ["home"]),
            under: parent, as: .add)
    }

    private func open(_ store: SQLiteStore) throws -> [TaskItem] {
        try store.page(user, ListQuery(filter: .open, search: "Pay rent"), offset: 0, limit: 100)
    }

    func testToggleMakesTheNextInstanceInItsPlaceAndUndoTakesItBack() throws {
        let store = try store()
        let first = try monthly(store)
        _ = try store.toggle(user, id: first.id)
        let next = try XCTUnwrap(try open(store).first)
        XCTAssertEqual(next.due, instant("2027-02-28T10:00:00Z"))
        XCTAssertEqual(next.uuid, SQLiteStore.nextInstanceUUID(after: first.uuid))
        XCTAssertEqual(next.tags, ["home"])
        XCTAssertEqual(next.recur, "monthly")
        // In the place of the one done: the top of the list, beside it.
        let top = try store.page(user, ListQuery(), offset: 0, limit: 2).map(\.id)
        XCTAssertEqual(Set(top), [first.id, next.id])
        XCTAssertEqual(try store.counts(user), TaskCounts(open: 3, done: 2))
        // Undo takes both back: the first is open again and the next is gone.
        XCTAssertEqual(try store.undo(user)?.kind, .toggle)
        XCTAssertEqual(try open(store).map(\.id), [first.id])
        XCTAssertNil(try store.task(user, uuid: next.uuid))
        // Done again: the same next instance, by its uuid.
        _ = try store.toggle(user, id: first.id)
        XCTAssertEqual(try open(store).map(\.uuid), [next.uuid])
        // Redo after undo brings it back too.
        _ = try store.undo(user)
        _ = try store.redo(user)
        XCTAssertEqual(try open(store).map(\.uuid), [next.uuid])
        // Reopening an instance makes nothing; marking it done again finds its next there.
        _ = try store.toggle(user, id: first.id)
        _ = try store.toggle(user, id: first.id)
        XCTAssertEqual(try open(store).map(\.uuid), [next.uuid])
    }

    /// Marking an instance open again takes back the next one while that is still open
    /// with no subtasks: the series has one open instance either way.
    func testReopeningAnInstanceTakesItsNextBack() throws {
        let store = try store()
        let first = try monthly(store)
        _ = try store.toggle(user, id: first.id)
        _ = try store.toggle(user, id: first.id)
        XCTAssertEqual(try open(store).map(\.id), [first.id])
        // A next instance given a subtask stays.
        _ = try store.toggle(user, id: first.id)
        let next = try XCTUnwrap(try open(store).first)
        _ = try store.insertAtTop(user, DraftFields(title: "Find the bill"), under: next.id, as: .add)
        _ = try store.toggle(user, id: first.id)
        XCTAssertEqual(Set(try open(store).map(\.id)), [first.id, next.id])
        // Undo of the reopening brings the instance done back, and the next one was never gone.
        _ = try store.undo(user)
        XCTAssertEqual(try open(store).map(\.id), [next.id])
    }

    /// Two open instances of one series (replicas that completed and undid concurrently):
    /// the later stays open, the earlier is marked done, as a change of this replica's.
    func testOneOpenInstanceIsLeftInASeries() throws {
        let store = try store()
        let first = try monthly(store)
        _ = try store.toggle(user, id: first.id)
        let next = try XCTUnwrap(try open(store).first)
        try store.db.run("UPDATE task SET done = 0 WHERE id = ?", [first.id])
        let settled = try store.writing { db in try SQLiteStore.settleSeries(db, user, profile: try store.profileID(db, user)) }
        XCTAssertEqual(settled, 1)
        XCTAssertEqual(try open(store).map(\.id), [next.id])
        XCTAssertEqual(SQLiteStore.seriesKey(of: first.uuid), SQLiteStore.seriesKey(of: next.uuid))
        XCTAssertEqual(SQLiteStore.seriesKey(of: next.uuid), SQLiteStore.seriesKey(of: SQLiteStore.nextInstanceUUID(after: next.uuid)))
    }

    func testDoneSavedFromADraftMakesTheNextInstanceToo() throws {
        let store = try store()
        let first = try monthly(store)
        var fields = first.fields
        fields.done = true
        _ = try store.write(user, id: first.id, [.done], from: fields, as: .save)
        XCTAssertEqual(try open(store).map(\.due), [instant("2027-02-28T10:00:00Z")])
    }

    func testTheSeriesEndsWithItsRuleItsEndOrTheInstanceDeleted() throws {
        let store = try store()
        // `recur none`: this instance is the last.
        var fields = try monthly(store).fields
        let id = try XCTUnwrap(try open(store).first).id
        fields.recur = nil
        _ = try store.write(user, id: id, [.recur], from: fields, as: .save)
        _ = try store.toggle(user, id: id)
        XCTAssertEqual(try open(store), [])
        // `until` before the next due date.
        let ending = try store.insertAtTop(
            user,
            DraftFields(title: "Pay rent", due: instant("2027-01-31T10:00:00Z"), until: instant("2027-02-15T00:00:00Z"), recur: "monthly"),
            under: nil, as: .add)
        _ = try store.toggle(user, id: ending.id)
        XCTAssertEqual(try open(store), [])
        // Deleted: nothing comes after it.
        let deleted = try monthly(store)
        XCTAssertTrue(try store.delete(user, id: deleted.id))
        XCTAssertEqual(try open(store), [])
    }

    /// A recurring task with subtasks: the subtasks stay with the instance done; the next
    /// instance starts with none, under the same parent.
    func testSubtasksStayWithTheInstanceDone() throws {
        let store = try store()
        let parent = try store.insertAtTop(user, DraftFields(title: "Chores"), under: nil, as: .add)
        let first = try monthly(store, under: parent.id)
        let step = try store.insertAtTop(user, DraftFields(title: "Find the bill"), under: first.id, as: .add)
        _ = try store.toggle(user, id: first.id)
        let next = try XCTUnwrap(try open(store).first)
        XCTAssertEqual(next.parent, parent.id)
        XCTAssertEqual(next.subtasks.total, 0)
        XCTAssertEqual(try store.task(user, id: step.id)?.parent, first.id)
        XCTAssertEqual(try store.task(user, id: parent.id)?.subtasks.total, 2)
    }

    func testTheNextInstancesUUIDIsAVersion8UUIDOfTheOneDone() {
        let uuid = SQLiteStore.nextInstanceUUID(after: "018cc251-f400-7000-b516-f52548da1785")
        XCTAssertTrue(uuid.isUUID, uuid)
        let characters = Array(uuid)
        XCTAssertEqual(characters[14], "8", "version 8")
        XCTAssertTrue("89ab".contains(characters[19]), "RFC 9562's variant")
        XCTAssertEqual(uuid, SQLiteStore.nextInstanceUUID(after: "018CC251-F400-7000-B516-F52548DA1785"), "case does not matter")
        XCTAssertNotEqual(uuid, SQLiteStore.nextInstanceUUID(after: uuid))
        // Instances count down: a series' later instances sort first.
        XCTAssertEqual(SQLiteStore.instanceNumber(of: "018cc251-f400-7000-b516-f52548da1785"), 0)
        XCTAssertEqual(SQLiteStore.instanceNumber(of: uuid), 1)
        let third = SQLiteStore.nextInstanceUUID(after: uuid)
        XCTAssertEqual(SQLiteStore.instanceNumber(of: third), 2)
        XCTAssertLessThan(third, uuid)
        XCTAssertEqual(SQLiteStore.seriesKey(of: third), SQLiteStore.seriesKey(of: uuid))
        XCTAssertTrue(third.isUUID, third)
    }

    /// Each instance takes the place of the one done: the open one lists above them.
    func testTheOpenInstanceListsAboveTheOnesDoneInItsPlace() throws {
        let store = try store()
        let first = try monthly(store)
        var id = first.id
        for _ in 0..<5 {
            _ = try store.toggle(user, id: id)
            id = try XCTUnwrap(try open(store).first).id
        }
        // The first instance's own uuid sorts before or after the others; those the store
        // derived list the open one first, then those done, the newest first.
        let listed = try store.page(user, ListQuery(), offset: 0, limit: 10).filter { $0.title == "Pay rent" && $0.id != first.id }
        XCTAssertEqual(listed.count, 5)
        XCTAssertFalse(listed[0].done, "the open instance first")
        XCTAssertEqual(listed.dropFirst().filter { !$0.done }.count, 0)
        let dues = listed.compactMap(\.due)
        XCTAssertEqual(dues, dues.sorted(by: >))
    }
}
