import Foundation
import NavStackCore
import XCTest

@testable import NavStackSQLite

/// The task tree in the store: subtasks added, read as chains, moved and deleted, every
/// change undone and redone, with the counters of every parent kept true.
final class TreeStoreTests: StoreFolderTestCase {

    /// A store in memory with ana's three sample tasks (1 Buy fruit, 2 Study SwiftUI,
    /// 3 Go for a walk, done).
    private func sampleStore() throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        return store
    }

    /// Adds a task under `parent` (the top when `nil`) and returns its id.
    @discardableResult
    private func add(_ store: SQLiteStore, _ title: String, under parent: Int?, done: Bool = false) throws -> Int {
        try store.insertAtTop("ana", DraftFields(title: title, done: done), under: parent, as: .add).id
    }

    /// Adds a chain of `levels` tasks, each under the one before, below `parent`; returns
    /// their ids from the top down.
    private func chainOf(_ levels: Int, in store: SQLiteStore, under parent: Int?) throws -> [Int] {
        var ids: [Int] = []
        for level in 1...levels { ids.append(try add(store, "L\(level)", under: ids.last ?? parent)) }
        return ids
    }

    func testASubtaskGoesAtTheTopOfItsParentsSubtasksAndIsCounted() throws {
        let store = try sampleStore()
        let first = try store.insertAtTop("ana", DraftFields(title: "Apples"), under: 1, as: .add)
        XCTAssertEqual(first.parent, 1)
        let second = try store.insertAtTop("ana", DraftFields(title: "Pears", done: true), under: 1, as: .add)
        try add(store, "Ripe ones", under: second.id)
        XCTAssertEqual(try store.page("ana", .subtasks(of: 1), offset: 0, limit: 10).map(\.title), ["Pears", "Apples"])
        XCTAssertEqual(try store.task("ana", id: 1)?.subtasks, SubtaskCounts(done: 1, total: 2))
        XCTAssertEqual(try store.task("ana", id: second.id)?.subtasks, SubtaskCounts(done: 0, total: 1))
        XCTAssertEqual(try store.count("ana", .subtasks(of: 1)), 2)
        // The list shows the top; the profile's counts are of every task.
        XCTAssertEqual(try store.count("ana", ListQuery()), 3)
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 4, done: 2))
        XCTAssertEqual(try store.wrongCounters(), [])
        XCTAssertThrowsError(try store.insertAtTop("ana", DraftFields(title: "Orphan"), under: 99, as: .add)) { error in
            XCTAssertEqual(error as? NavError, .taskVanished(99))
        }
    }

    func testAChainIsReadFromTheTopDown() throws {
        let store = try sampleStore()
        let ids = try chainOf(3, in: store, under: 2)
        XCTAssertEqual(try store.chain("ana", id: ids[2]).map(\.id), [2] + ids)
        XCTAssertEqual(try store.chain("ana", id: 2).map(\.id), [2])
        XCTAssertEqual(try store.chain("ana", id: 99), [])
        try store.openProfile("bo", sample: false)
        XCTAssertEqual(try store.chain("bo", id: ids[2]), [], "ana's task is not bo's")
        XCTAssertEqual(try store.descendantCount("ana", id: 2), 3)
        XCTAssertEqual(try store.descendantCount("ana", id: ids[1]), 1)
        XCTAssertEqual(try store.descendantCount("ana", id: ids[2]), 0)
    }

    func testAChainGoesAHundredLevelsDeepAndNoDeeper() throws {
        let store = try sampleStore()
        let ids = try chainOf(TreeLimits.depth - 1, in: store, under: 1)
        XCTAssertEqual(try store.chain("ana", id: ids.last!).count, TreeLimits.depth)
        XCTAssertThrowsError(try add(store, "Too deep", under: ids.last!)) { error in
            XCTAssertEqual(error as? NavError, .tooDeep(depth: TreeLimits.depth + 1))
        }
    }

    func testAMoveTakesTheSubtreeToAnotherParentOrToTheTopAndUndoes() throws {
        let store = try sampleStore()
        let apples = try add(store, "Apples", under: 1, done: true)
        let ripe = try add(store, "Ripe ones", under: apples)
        let moved = try XCTUnwrap(try store.move("ana", id: apples, under: 2))
        XCTAssertEqual(moved.parent, 2)
        XCTAssertEqual(try store.chain("ana", id: ripe).map(\.id), [2, apples, ripe], "the subtree moves with it")
        XCTAssertEqual(try store.task("ana", id: 1)?.subtasks, SubtaskCounts())
        XCTAssertEqual(try store.task("ana", id: 2)?.subtasks, SubtaskCounts(done: 1, total: 1))
        XCTAssertEqual(try store.wrongCounters(), [])

        XCTAssertNil(try XCTUnwrap(try store.move("ana", id: apples, under: nil)).parent)
        XCTAssertEqual(try store.page("ana", ListQuery(), offset: 0, limit: 10).map(\.id), [apples, 1, 2, 3], "at the top of the list")
        XCTAssertEqual(try store.count("ana", ListQuery()), 4)
        XCTAssertEqual(try store.wrongCounters(), [])

        XCTAssertEqual(try store.undo("ana")?.kind, .move)
        XCTAssertEqual(try store.task("ana", id: apples)?.parent, 2)
        XCTAssertEqual(try store.undo("ana")?.kind, .move)
        XCTAssertEqual(try store.task("ana", id: apples)?.parent, 1)
        XCTAssertEqual(try store.page("ana", .subtasks(of: 1), offset: 0, limit: 10).map(\.id), [apples])
        XCTAssertEqual(try store.wrongCounters(), [])
        XCTAssertEqual(try store.redo("ana")?.kind, .move)
        XCTAssertEqual(try store.redo("ana")?.kind, .move)
        XCTAssertNil(try store.task("ana", id: apples)?.parent)
        XCTAssertEqual(try store.wrongCounters(), [])
        XCTAssertNil(try store.move("ana", id: 99, under: nil), "a task that is gone")
    }

    func testAMoveUnderItselfADescendantOrPastTheLimitIsRefused() throws {
        let store = try sampleStore()
        let ids = try chainOf(3, in: store, under: 1)
        for target in [1, ids[0], ids[2]] {
            XCTAssertThrowsError(try store.move("ana", id: 1, under: target), "under \(target)") { error in
                XCTAssertEqual(error as? NavError, .moveIntoItself(task: "Buy fruit"))
            }
        }
        XCTAssertThrowsError(try store.move("ana", id: 1, under: 99)) { error in
            XCTAssertEqual(error as? NavError, .noSuchTask("99"))
        }
        // Task 1 and its chain are 4 levels; under a task 97 deep they would end at 101.
        let deep = try chainOf(TreeLimits.depth - 4, in: store, under: 2)
        XCTAssertThrowsError(try store.move("ana", id: 1, under: deep.last!)) { error in
            XCTAssertEqual(error as? NavError, .tooDeep(depth: TreeLimits.depth + 1))
        }
        XCTAssertNotNil(try store.move("ana", id: ids[0], under: deep.last!), "3 levels fit")
        XCTAssertEqual(try store.chain("ana", id: ids[2]).count, TreeLimits.depth)
        XCTAssertEqual(try store.wrongCounters(), [])
    }

    func testAMoveIsLoggedAsItsParentsUUIDs() throws {
        let store = try sampleStore()
        let apples = try add(store, "Apples", under: 1)
        _ = try store.move("ana", id: apples, under: 2)
        _ = try store.move("ana", id: apples, under: nil)
        let uuids = try [1, 2, apples].map { try XCTUnwrap(try store.task("ana", id: $0)).uuid }
        let ops = try store.db.prepare("SELECT kind, task_uuid, old, new FROM op WHERE field = 'parent' ORDER BY seq").all {
            [$0.text(0), $0.text(1), $0.optionalText(2) ?? "NULL", $0.optionalText(3) ?? "NULL"]
        }
        XCTAssertEqual(
            ops,
            [
                ["move", uuids[2], #""\#(uuids[0])""#, #""\#(uuids[1])""#],
                ["move", uuids[2], #""\#(uuids[1])""#, "null"],
            ])
        XCTAssertEqual(try store.undo("ana")?.kind, .move)
        XCTAssertEqual(
            try store.db.first("SELECT kind, old, new FROM op WHERE field = 'parent' ORDER BY seq DESC LIMIT 1") {
                [$0.text(0), $0.text(1), $0.text(2)]
            }, ["undo", "null", #""\#(uuids[1])""#])
        // Each move also logs the task's place among its new siblings, and undo its old one.
        let places = try store.db.prepare("SELECT kind, old, new FROM op WHERE field = 'position' ORDER BY seq").all {
            [$0.text(0), $0.text(1), $0.text(2)]
        }
        XCTAssertEqual(places.map { $0[0] }, ["move", "move", "undo"])
        XCTAssertEqual(places[2][1], places[1][2], "undo starts where the last move left it")
        XCTAssertEqual(places[2][2], places[1][1], "and puts it back where it was")
        XCTAssertLessThan(Int(places[0][2])!, Int(places[0][1])!, "a move puts the task at the top of its new siblings")
    }

    func testDeletingASubtreeIsOneChangeThatUndoBringsBackWhole() throws {
        let store = try sampleStore()
        let apples = try add(store, "Apples", under: 1)
        let ripe = try add(store, "Ripe ones", under: apples, done: true)
        let green = try add(store, "Green ones", under: apples)
        try add(store, "Kiwis", under: 1)
        let before = try store.storedTasks()
        let changes = try store.db.first("SELECT count(*) FROM op WHERE part = 0") { $0.int(0) }
        XCTAssertEqual(try store.descendantCount("ana", id: 1), 4)

        XCTAssertTrue(try store.delete("ana", id: 1))
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM op WHERE part = 0") { $0.int(0) }, changes.map { $0 + 1 }, "one change")
        XCTAssertEqual(try store.storedTasks().map(\.id), [2, 3])
        XCTAssertNil(try store.task("ana", id: ripe))
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 1, done: 1))
        XCTAssertEqual(try store.wrongCounters(), [])

        XCTAssertEqual(try store.undo("ana")?.kind, .delete)
        // Every task with its id, uuid, parent, place and counts.
        XCTAssertEqual(try store.storedTasks().map(\.withoutRevision), before.map(\.withoutRevision))
        XCTAssertEqual(try store.page("ana", .subtasks(of: apples), offset: 0, limit: 10).map(\.id), [green, ripe])
        XCTAssertEqual(try store.task("ana", id: apples)?.subtasks, SubtaskCounts(done: 1, total: 2))
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 5, done: 2))
        XCTAssertEqual(try store.wrongCounters(), [])
        XCTAssertEqual(try store.redo("ana")?.kind, .delete)
        XCTAssertEqual(try store.storedTasks().map(\.id), [2, 3])
        XCTAssertEqual(try store.wrongCounters(), [])
    }

    /// Two processes on one store: undo never leaves a task without its parent, nor
    /// puts one back where it no longer was.
    func testUndoThatWouldBreakTheTreeIsRefused() throws {
        let mine = try SQLiteStore(path: path)
        try mine.openProfile("ana", sample: true)
        let other = try SQLiteStore(path: path)
        defer {
            mine.close()
            other.close()
        }
        // The add of a task that got a subtask since.
        let list = try mine.insertAtTop("ana", DraftFields(title: "Shopping list"), as: .add)
        _ = try other.insertAtTop("ana", DraftFields(title: "Milk"), under: list.id, as: .add)
        XCTAssertThrowsError(try mine.undo("ana")) { error in
            XCTAssertEqual(error as? NavError, .treeChangedSince(.undo, task: "Shopping list"))
        }
        XCTAssertNotNil(try mine.task("ana", id: list.id), "nothing changed")

        // A move of a task moved again since.
        _ = try mine.move("ana", id: 3, under: 1)
        _ = try other.move("ana", id: 3, under: 2)
        XCTAssertThrowsError(try mine.undo("ana")) { error in
            XCTAssertEqual(error as? NavError, .treeChangedSince(.undo, task: "Go for a walk"))
        }
        XCTAssertEqual(try mine.task("ana", id: 3)?.parent, 2)
        XCTAssertEqual(try mine.wrongCounters(), [])
    }
}

/// A store as it was at schema version 3, before subtasks, migrated.
final class StoreBeforeSubtasksTests: XCTestCase {
    func testAVersion3StoreKeepsItsTasksAllAtTheTop() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-v3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("navstack.sqlite").path
        let db = try Connection(path: path)
        try SQLiteStore.migrate(db, path: path, with: Array(SQLiteStore.migrations[..<3]))
        try db.execute(
            """
            INSERT INTO profile (name, total, done, top, bottom) VALUES ('ana', 3, 1, 1, 3), ('bo', 1, 0, 1, 1);
            INSERT INTO task (profile_id, position, title, done, uuid) VALUES
                (1, 1, 'One', 0, '018cc251-f400-7000-8000-000000000001'),
                (1, 2, 'Two', 1, '018cc251-f400-7000-8000-000000000002'),
                (1, 3, 'Three', 0, '018cc251-f400-7000-8000-000000000003'),
                (2, 1, 'Bo''s', 0, '018cc251-f400-7000-8000-000000000004');
            """)
        db.close()

        let store = try SQLiteStore(path: path)
        defer { store.close() }
        XCTAssertEqual(try SQLiteStore.userVersion(store.db), SQLiteStore.migrations.count)
        XCTAssertEqual(
            try store.db.prepare("SELECT name, roots, roots_done FROM profile ORDER BY id").all {
                "\($0.text(0)) \($0.int(1)) \($0.int(2))"
            }, ["ana 3 1", "bo 1 0"])
        let tasks = try store.page("ana", ListQuery(), offset: 0, limit: 10)
        XCTAssertEqual(tasks.map(\.title), ["One", "Two", "Three"])
        XCTAssertTrue(tasks.allSatisfy { $0.parent == nil && $0.subtasks == SubtaskCounts() })
        XCTAssertEqual(try store.count("ana", ListQuery(filter: .open)), 2)
        XCTAssertEqual(try store.wrongCounters(), [])
        // The tree works on what was kept.
        _ = try store.move("ana", id: 3, under: 1)
        XCTAssertEqual(try store.count("ana", ListQuery()), 2)
        XCTAssertEqual(try store.wrongCounters(), [])
    }
}

extension SQLiteStore {
    /// The counters that disagree with the tasks: each task's counts of its subtasks, and
    /// each profile's counts of its tasks and of those at the top.
    func wrongCounters() throws -> [String] {
        try db.prepare(
            """
            SELECT 'task ' || t.id FROM task AS t
            WHERE t.subtasks != (SELECT count(*) FROM task AS s WHERE s.parent = t.id)
                OR t.subtasks_done != (SELECT count(*) FROM task AS s WHERE s.parent = t.id AND s.done)
            UNION ALL
            SELECT 'profile ' || p.name FROM profile AS p
            WHERE p.total != (SELECT count(*) FROM task WHERE profile_id = p.id)
                OR p.done != (SELECT count(*) FROM task WHERE profile_id = p.id AND done)
                OR p.roots != (SELECT count(*) FROM task WHERE profile_id = p.id AND parent = 0)
                OR p.roots_done != (SELECT count(*) FROM task WHERE profile_id = p.id AND parent = 0 AND done)
            """
        ).all { $0.text(0) }
    }

    /// Every task as stored (id, position, uuid, revision, fields, parent, counts), by id.
    func storedTasks() throws -> [StoredTask] {
        try db.prepare("SELECT \(Self.storedColumns) FROM task ORDER BY id").all([], Self.storedTask)
    }

    /// Each task of a profile by uuid, with its parent's uuid ("" at the top).
    func tree(_ user: String) throws -> [String: String] {
        var tree: [String: String] = [:]
        try db.prepare(
            """
            SELECT t.uuid, coalesce(p.uuid, '') FROM task AS t LEFT JOIN task AS p ON p.id = t.parent
            WHERE t.profile_id = (SELECT id FROM profile WHERE name = ?)
            """
        ).each([user]) { tree[$0.text(0)] = $0.text(1) }
        return tree
    }

    /// A profile's tree, one line a task in list order, subtasks indented under their
    /// parent: the title, ✓ when done, and the counts the store keeps of its subtasks.
    func shape(_ user: String) throws -> [String] {
        var lines: [String] = []
        func walk(_ query: ListQuery, depth: Int) throws {
            for task in try page(user, query, offset: 0, limit: 10_000) {
                lines.append(
                    String(repeating: "  ", count: depth) + task.title + (task.done ? " ✓" : "")
                        + " [\(task.subtasks.done)/\(task.subtasks.total)]")
                try walk(.subtasks(of: task.id), depth: depth + 1)
            }
        }
        try walk(ListQuery(), depth: 0)
        return lines
    }
}

extension StoredTask {
    /// The task but for its revision, which undo and redo move on.
    var withoutRevision: StoredTask {
        var task = self
        task.rev = 0
        return task
    }

    /// The task's identity and place: id, uuid, parent, position.
    var placed: String {
        "\(id ?? 0) \(uuid) \(parent) \(position)"
    }
}
