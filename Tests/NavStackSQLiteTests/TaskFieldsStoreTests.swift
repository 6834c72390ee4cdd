import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// What a task holds beyond its title, notes and done: kept, read back, stamped, and
/// taken back by undo like the first fields.
final class TaskFieldsStoreTests: XCTestCase {
    private let user = "ana"

    private func instant(_ text: String) -> Instant { Instant(iso8601: text)! }

    private func store(at now: String = "2026-11-27T09:00:00Z") throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: .utc, fixedNow: instant(now))
        try store.openProfile(user, sample: false)
        return store
    }

    /// Every field set at once.
    private var everything: DraftFields {
        DraftFields(
            title: "Pay rent", notes: "line one\nline two", done: false, due: instant("2026-12-01T00:00:00Z"),
            scheduled: instant("2026-11-30T08:00:00Z"), wait: instant("2026-11-29T00:00:00Z"), until: instant("2027-01-01T00:00:00Z"),
            priority: .high, project: "home.bills", recur: "monthly", tags: ["bills", "Home"],
            annotations: [
                Annotation(entry: instant("2026-11-20T10:00:00Z"), text: "asked"),
                Annotation(entry: instant("2026-11-21T10:00:00Z"), text: "paid \"half\""),
            ],
            depends: ["01a2b3c4-0000-7000-8000-000000000001"],
            custom: [CustomField(name: "estimate", value: "3h"), CustomField(name: "ünits", value: "")])
    }

    func testEveryFieldIsKeptAndReadBackOnEveryRead() throws {
        let store = try store()
        let added = try store.insertAtTop(user, everything, under: nil, as: .add)
        XCTAssertEqual(added.fields, everything)
        XCTAssertEqual(try store.task(user, id: added.id)?.fields, everything)
        XCTAssertEqual(try store.task(user, uuid: added.uuid)?.fields, everything)
        XCTAssertEqual(try store.page(user, ListQuery(filter: .every), offset: 0, limit: 10).first?.fields, everything)
        XCTAssertEqual(
            try store.page(user, ListQuery(clock: store.clock), offset: 0, limit: 10), [], "waiting until the 29th: hidden by default")
        let stamps = try XCTUnwrap(store.task(user, id: added.id)?.stamps)
        XCTAssertEqual(stamps, TaskStamps(created: instant("2026-11-27T09:00:00Z"), modified: instant("2026-11-27T09:00:00Z")))
    }

    func testStampsFollowTheClock() throws {
        let store = try store()
        let task = try store.insertAtTop(user, DraftFields(title: "T"), under: nil, as: .add)
        store.clock.fixedNow = instant("2026-11-28T10:00:00Z")
        let done = try XCTUnwrap(store.toggle(user, id: task.id))
        XCTAssertEqual(done.stamps.created, instant("2026-11-27T09:00:00Z"))
        XCTAssertEqual(done.stamps.modified, instant("2026-11-28T10:00:00Z"))
        XCTAssertEqual(done.stamps.completed, instant("2026-11-28T10:00:00Z"))
        store.clock.fixedNow = instant("2026-11-29T10:00:00Z")
        var fields = done.fields
        fields.title = "Renamed"
        let renamed = try XCTUnwrap(store.write(user, id: task.id, [.title], from: fields, as: .save))
        XCTAssertEqual(renamed.stamps.completed, instant("2026-11-28T10:00:00Z"), "still done since then")
        XCTAssertEqual(renamed.stamps.modified, instant("2026-11-29T10:00:00Z"))
        let reopened = try XCTUnwrap(store.toggle(user, id: task.id))
        XCTAssertNil(reopened.stamps.completed)
        XCTAssertEqual(try store.task(user, id: task.id)?.stamps, reopened.stamps)
    }

    func testUndoAndRedoTakeEachFieldBack() throws {
        let store = try store()
        let task = try store.insertAtTop(user, DraftFields(title: "T"), under: nil, as: .add)
        for field in TaskField.allCases.dropFirst(3) {
            _ = try store.write(user, id: task.id, [field], from: everything, as: .save)
            XCTAssertEqual(try store.task(user, id: task.id)?.fields[field], everything[field], "\(field)")
            XCTAssertEqual(try store.undo(user)?.kind, .save)
            XCTAssertEqual(try store.task(user, id: task.id)?.fields[field], DraftFields()[field], "\(field) undone")
            XCTAssertEqual(try store.redo(user)?.kind, .save)
            XCTAssertEqual(try store.task(user, id: task.id)?.fields[field], everything[field], "\(field) redone")
        }
        XCTAssertEqual(try store.task(user, id: task.id)?.fields, DraftFields(title: "T").with(everything, beyondTheFirst: true))
    }

    /// navstack's own export, imported into another store, gives every field and stamp
    /// back, at the top of the list and under a parent alike.
    func testTheExportImportsBackWithoutLoss() throws {
        let store = try store()
        store.clock.fixedNow = instant("2026-11-20T08:00:00Z")
        let top = try store.insertAtTop(user, everything, under: nil, as: .add)
        var child = everything
        child.title = "Child"
        child.done = true
        let under = try store.insertAtTop(user, child, under: top.id, as: .add)
        var text = ""
        try store.exportTasks(user: user) { text += $0 }
        let other = try self.store(at: "2026-12-24T00:00:00Z")
        XCTAssertEqual(try other.importTasks(try SQLiteStore.parseImport(Array(text.utf8)), user: user), 2)
        for original in [top, under] {
            let read = try XCTUnwrap(other.task(user, uuid: original.uuid))
            XCTAssertEqual(read.fields, original.fields, original.title)
            XCTAssertEqual(read.stamps, try store.task(user, id: original.id)?.stamps, original.title)
        }
        // A flat file (no subtasks) goes through the batched insert: the same.
        let single = try self.store(at: "2026-11-20T08:00:00Z")
        let alone = try single.insertAtTop(user, everything, under: nil, as: .add)
        var flatText = ""
        try single.exportTasks(user: user) { flatText += $0 }
        let flat = try self.store(at: "2026-12-24T00:00:00Z")
        XCTAssertEqual(try flat.importTasks(try SQLiteStore.parseImport(Array(flatText.utf8)), user: user), 1)
        XCTAssertEqual(try flat.task(user, uuid: alone.uuid)?.fields, everything)
        XCTAssertEqual(try flat.task(user, uuid: alone.uuid)?.stamps.created, instant("2026-11-20T08:00:00Z"))
    }

    func testADeletedTaskComesBackWholeWithUndo() throws {
        let store = try store()
        let task = try store.insertAtTop(user, everything, under: nil, as: .add)
        XCTAssertTrue(try store.delete(user, id: task.id))
        XCTAssertEqual(try store.undo(user)?.kind, .delete)
        XCTAssertEqual(try store.task(user, id: task.id)?.fields, everything)
    }
}

extension DraftFields {
    /// These fields with the others of `other` (every field but the title, the notes and
    /// done).
    fileprivate func with(_ other: DraftFields, beyondTheFirst: Bool) -> DraftFields {
        var result = self
        for field in TaskField.allCases.dropFirst(3) { result[field] = other[field] }
        return result
    }
}
