import NavStackSQLite
import XCTest

@testable import NavStackCore

/// The real store in memory, with another process that deletes one task the moment after
/// it is read. A read snapshot or a transaction keeps the delete out of sight until it
/// ends, as SQLite keeps another process's commit out of a transaction under way.
final class RacingStore: TaskStore {
    let base: SQLiteStore
    /// The task the other process deletes, once, just after it is read.
    var victim: (user: String, id: Int)?
    /// How many times a task was read.
    var taskReads = 0
    private var isolated = 0
    private var deleteWaiting = false

    init(_ base: SQLiteStore) { self.base = base }

    private func isolating(_ body: () throws -> Void) throws {
        isolated += 1
        defer {
            isolated -= 1
            if isolated == 0 { deleteNowIfWaiting() }
        }
        try body()
    }

    private func deleteNowIfWaiting() {
        guard deleteWaiting, let victim else { return }
        deleteWaiting = false
        self.victim = nil
        _ = try? base.delete(victim.user, id: victim.id)
    }

    func transaction(_ body: () throws -> Void) throws {
        try isolating { try base.transaction(body) }
    }

    func names(_ user: String, _ kind: NameKind, prefix: String, limit: Int) throws -> [String] {
        try base.names(user, kind, prefix: prefix, limit: limit)
    }

    func snapshot<T>(_ body: () throws -> T) throws -> T {
        var value: T?
        try isolating { value = try base.snapshot(body) }
        return value!
    }

    func task(_ user: String, id: Int) throws -> TaskItem? {
        let task = try base.task(user, id: id)
        read(user, id: id)
        return task
    }

    func chain(_ user: String, id: Int) throws -> [TaskItem] {
        let chain = try base.chain(user, id: id)
        read(user, id: id)
        return chain
    }

    /// Counts a read of a task, and sets off the delete when it is the victim.
    private func read(_ user: String, id: Int) {
        taskReads += 1
        if let victim, victim.user == user, victim.id == id {
            deleteWaiting = true
            if isolated == 0 { deleteNowIfWaiting() }
        }
    }

    func openProfile(_ user: String, sample: Bool) throws { try base.openProfile(user, sample: sample) }
    func count(_ user: String, _ query: ListQuery) throws -> Int { try base.count(user, query) }
    func page(_ user: String, _ query: ListQuery, offset: Int, limit: Int) throws -> [TaskItem] {
        try base.page(user, query, offset: offset, limit: limit)
    }
    func counts(_ user: String) throws -> TaskCounts { try base.counts(user) }
    func insertAtTop(_ user: String, _ fields: DraftFields, under parent: Int?, as kind: ChangeKind) throws -> TaskItem {
        try base.insertAtTop(user, fields, under: parent, as: kind)
    }
    func descendantCount(_ user: String, id: Int) throws -> Int { try base.descendantCount(user, id: id) }
    func move(_ user: String, id: Int, under parent: Int?) throws -> TaskItem? { try base.move(user, id: id, under: parent) }
    func task(_ user: String, uuid: String) throws -> TaskItem? { try base.task(user, uuid: uuid) }
    func tasks(_ user: String, uuidPrefix prefix: String, limit: Int) throws -> [TaskItem] {
        try base.tasks(user, uuidPrefix: prefix, limit: limit)
    }
    func write(_ user: String, id: Int, _ fields: [TaskField], from values: DraftFields, as kind: ChangeKind) throws -> TaskItem? {
        try base.write(user, id: id, fields, from: values, as: kind)
    }
    func toggle(_ user: String, id: Int) throws -> TaskItem? { try base.toggle(user, id: id) }
    func recreate(_ user: String, id: Int, uuid: String?, _ fields: DraftFields, as kind: ChangeKind) throws -> TaskItem {
        try base.recreate(user, id: id, uuid: uuid, fields, as: kind)
    }
    func delete(_ user: String, id: Int) throws -> Bool { try base.delete(user, id: id) }
    func undo(_ user: String) throws -> ChangeSummary? { try base.undo(user) }
    func redo(_ user: String) throws -> ChangeSummary? { try base.redo(user) }
    func loadPhase() throws -> Phase { try base.loadPhase() }
    /// Set: the next `savePhase` fails, as a full disk would make it fail.
    var phaseSaveFails = false
    struct DiskFull: Error {}

    func savePhase(_ phase: Phase) throws {
        if phaseSaveFails {
            phaseSaveFails = false
            throw DiskFull()
        }
        try base.savePhase(phase)
    }
}

/// A router on the real store in memory, signed in as ana with the sample tasks, on the
/// detail of task 2.
private func onTask2() throws -> (Router, RacingStore) {
    let store = RacingStore(try SQLiteStore(path: nil))
    var router = Router(store: store, configuration: .init(sampleForNewProfiles: true))
    _ = try router.apply(.login("ana"))
    _ = try router.apply(.open(row: 2))
    return (router, store)
}

final class ScreenRaceTests: XCTestCase {
    /// A router resumed on the detail of task 2, as a launch that loaded the saved state.
    private func resumedOnTask2() throws -> (Router, RacingStore) {
        let (router, store) = try onTask2()
        return (Router(store: store, configuration: .init(sampleForNewProfiles: true), phase: router.phase), store)
    }

    func testALaunchScreenWhoseTaskIsDeletedWhileItIsReadShowsOneConsistentScreen() throws {
        let (router, store) = try resumedOnTask2()
        store.victim = ("ana", 2)
        let screen = try router.screen()
        XCTAssertEqual(screen.kind, .detail, "the task was there when the screen was read")
        XCTAssertEqual(screen.title, "Study SwiftUI")
        XCTAssertEqual(screen.breadcrumb, ["My Tasks", "Study SwiftUI"])
        XCTAssertNil(store.victim, "the other process deleted it")
        let next = try router.screen()
        XCTAssertEqual(next.kind, .notFound)
        XCTAssertEqual(next.title, "Task not found")
    }

    func testCompletingARowCommandWhileTheShownTaskIsDeletedDoesNotCrash() throws {
        let (router, store) = try resumedOnTask2()
        store.victim = ("ana", 2)
        XCTAssertEqual(router.completions(for: "toggle ").candidates, [], "the detail screen has no rows")
        XCTAssertNil(store.victim, "the other process deleted it")
        XCTAssertEqual(try router.screenKind(), .notFound)
    }
}

/// `title`, `notes` and `done` change the draft where the session keeps it: a failure
/// after the change puts it back, and with it what settling the path changed.
final class DraftFieldFailureTests: XCTestCase {
    private func editingTask2() throws -> (Router, RacingStore) {
        var (router, store) = try onTask2()
        _ = try router.apply(.edit)
        _ = try router.apply(.title("Study Swift"))
        return (router, store)
    }

    func testAFieldWhoseSavedPlaceFailsToBeWrittenLeavesTheDraftAsItWas() throws {
        var (router, store) = try editingTask2()
        let before = router.session
        for command: Command in [.title("Lost"), .notes("lost"), .done(true)] {
            store.phaseSaveFails = true
            XCTAssertThrowsError(try router.apply(command)) { error in
                guard case NavError.store = error else { return XCTFail("\(command): \(error)") }
            }
            XCTAssertEqual(router.session, before, "\(command) failed: the session is as it was")
        }
        guard case .screen(let screen) = try router.apply(.notes("kept")),
            case .draft(let draft, _, _) = screen.content
        else { return XCTFail("the edit screen") }
        XCTAssertEqual(draft.fields.title, "Study Swift")
        XCTAssertEqual(draft.fields.notes, "kept")
        XCTAssertEqual(try store.loadPhase(), router.phase, "the field that succeeded is saved with the draft")
    }

    func testAFieldThatFailsAfterThePathWasSettledPutsThePathBack() throws {
        var (router, store) = try editingTask2()
        // Another process moves the task under task 1: its chain is now 1, 2.
        _ = try store.base.move("ana", id: 2, under: 1)
        let before = router.session
        XCTAssertThrowsError(try router.apply(.title("  "))) { error in
            XCTAssertEqual(error as? NavError, .blankTitle)
        }
        XCTAssertEqual(router.session, before, "settled for nothing: put back")
        XCTAssertEqual(router.session?.tasksPath, [.detail(2), .edit(2)])
        store.phaseSaveFails = true
        XCTAssertThrowsError(try router.apply(.title("Moved")))
        XCTAssertEqual(router.session, before, "a failed save of the place puts the settled path back too")
        _ = try router.apply(.title("Moved"))
        XCTAssertEqual(router.session?.tasksPath, [.detail(1), .detail(2), .edit(2)], "kept when the command is")
        XCTAssertEqual(router.session?.drafts[.edit(2)]?.fields.title, "Moved")
    }
}
