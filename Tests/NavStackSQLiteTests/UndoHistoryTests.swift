import Foundation
import NavStackCore
import XCTest

@testable import NavStackSQLite

/// The undo history, read from the operation log: each profile's own, each process's own
/// changes first, and an import undone and redone by moving its tasks, a batch at a time.
final class UndoHistoryTests: StoreFolderTestCase {
    /// The first operations of the profile's changes in the log with `part` (0: in
    /// effect or undone; -2: undone, then forgotten).
    private func changes(_ store: SQLiteStore, _ user: String, part: OperationPart = .first) throws -> Int {
        try store.db.first(
            "SELECT count(*) FROM op WHERE part = ? AND profile_id = (SELECT id FROM profile WHERE name = ?)", [part.rawValue, user]
        ) { $0.int(0) } ?? 0
    }

    private func all(_ store: SQLiteStore, _ user: String) throws -> [TaskItem] {
        try store.page(user, ListQuery(), offset: 0, limit: 100_000)
    }

    private func positions(_ store: SQLiteStore, _ user: String) throws -> [Int] {
        try store.db.prepare("SELECT position FROM task WHERE profile_id = (SELECT id FROM profile WHERE name = ?) ORDER BY id")
            .all([user]) { $0.int(0) }
    }

    /// Two profiles change in turn, then one goes on alone: undo goes back through each
    /// profile's whole history, its own changes only. Undone changes a new change
    /// forgets are gone for good.
    func testUndoGoesBackThroughEachProfilesWholeHistory() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: false)
        try store.openProfile("bo", sample: false)
        for number in 1...300 {
            _ = try store.insertAtTop("ana", DraftFields(title: "A\(number)"), as: .add)
            _ = try store.insertAtTop("bo", DraftFields(title: "B\(number)"), as: .add)
        }
        for number in 301...1510 { _ = try store.insertAtTop("ana", DraftFields(title: "A\(number)"), as: .add) }
        XCTAssertEqual(try changes(store, "ana"), 1510)
        XCTAssertEqual(try changes(store, "bo"), 300)

        for _ in 1...1000 { XCTAssertEqual(try store.undo("ana")?.kind, .add) }
        let kept = try all(store, "ana").map(\.title)
        XCTAssertEqual(kept.count, 510)
        XCTAssertEqual(kept.first, "A510")
        for _ in 1...300 { XCTAssertEqual(try store.undo("bo")?.kind, .add) }
        XCTAssertNil(try store.undo("bo"))
        XCTAssertEqual(try store.count("bo", ListQuery()), 0)
        XCTAssertEqual(try store.count("ana", ListQuery()), 510, "bo's undo left ana's tasks alone")
        for _ in 1...510 { XCTAssertEqual(try store.undo("ana")?.kind, .add) }
        XCTAssertNil(try store.undo("ana"))
        XCTAssertEqual(try store.count("ana", ListQuery()), 0)

        // Undone changes count until a new change forgets them.
        for _ in 1...10 { XCTAssertEqual(try store.redo("ana")?.kind, .add) }
        XCTAssertEqual(try all(store, "ana").map(\.title), (1...10).reversed().map { "A\($0)" })
        _ = try store.insertAtTop("ana", DraftFields(title: "new"), as: .add)
        XCTAssertNil(try store.redo("ana"))
        XCTAssertEqual(try changes(store, "ana", part: .forgotten), 1500)
        XCTAssertEqual(try changes(store, "ana"), 11)
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone") { $0.int(0) }, 300, "bo's")
        for _ in 1...11 { XCTAssertEqual(try store.undo("ana")?.kind, .add) }
        XCTAssertNil(try store.undo("ana"))
        XCTAssertEqual(try store.count("ana", ListQuery()), 0)
    }

    /// Three processes on one store: each undoes its own newest change first, then the
    /// profile's newest; one that changed nothing takes the profile's newest at once.
    func testEachProcessUndoesItsOwnChangesFirst() throws {
        let a = try SQLiteStore(path: path)
        try a.openProfile("ana", sample: false)
        let b = try SQLiteStore(path: path)
        _ = try a.insertAtTop("ana", DraftFields(title: "A1"), as: .add)
        _ = try b.insertAtTop("ana", DraftFields(title: "B1"), as: .add)
        _ = try a.insertAtTop("ana", DraftFields(title: "A2"), as: .add)
        _ = try b.insertAtTop("ana", DraftFields(title: "B2"), as: .add)
        func titles() throws -> [String] { try all(a, "ana").map(\.title) }

        XCTAssertEqual(try a.undo("ana")?.kind, .add)
        XCTAssertEqual(try titles(), ["B2", "B1", "A1"], "A's own newest, not B's later one")
        let c = try SQLiteStore(path: path)
        XCTAssertEqual(try c.undo("ana")?.kind, .add)
        XCTAssertEqual(try titles(), ["B1", "A1"], "C changed nothing: the profile's newest")
        XCTAssertEqual(try b.undo("ana")?.kind, .add)
        XCTAssertEqual(try titles(), ["A1"], "B's own")
        XCTAssertEqual(try b.undo("ana")?.kind, .add)
        XCTAssertEqual(try titles(), [], "then the profile's")
        XCTAssertEqual(try a.redo("ana")?.kind, .add)
        XCTAssertEqual(try titles(), ["A2"], "A redoes what it undid last")
        for store in [a, b, c] { store.close() }
    }

    private struct Failure: Error {}

    /// A move among its siblings logs no `parent` (sync sends none); undo still checks
    /// the task is under the parent it moved under, as it was before undo read the log.
    func testUndoOfAMoveAmongSiblingsSeesTheParentChangedSince() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: false)
        let parent = try store.insertAtTop("ana", DraftFields(title: "P"), as: .add)
        let task = try store.insertAtTop("ana", DraftFields(title: "T"), under: parent.id, as: .add)
        _ = try store.insertAtTop("ana", DraftFields(title: "A"), under: parent.id, as: .add)
        _ = try store.move("ana", id: task.id, under: parent.id)
        XCTAssertEqual(
            try store.db.prepare("SELECT field FROM op WHERE part >= 0 ORDER BY seq DESC LIMIT 2").all { $0.text(0) },
            ["position", "under"])
        // What placing another replica's changes does to a task whose parent it deleted
        // (no operation of this store's).
        try store.db.run("UPDATE task SET parent = 0 WHERE id = ?", [task.id])
        try store.db.run("UPDATE task SET subtasks = subtasks - 1 WHERE id = ?", [parent.id])
        try store.db.run("UPDATE profile SET roots = roots + 1")
        XCTAssertThrowsError(try store.undo("ana")) { error in
            XCTAssertEqual(error as? NavError, .treeChangedSince(.undo, task: "T"))
        }
        // And with its parent as it was, the move is undone.
        try store.db.run("UPDATE task SET parent = ? WHERE id = ?", [parent.id, task.id])
        try store.db.run("UPDATE task SET subtasks = subtasks + 1 WHERE id = ?", [parent.id])
        try store.db.run("UPDATE profile SET roots = roots - 1")
        XCTAssertEqual(try store.undo("ana")?.kind, .move)
    }

    /// A transaction that began changing the profile and rolled back leaves the process
    /// finding its own changes made after it.
    func testOwnChangesAreFoundAfterARolledBackTransaction() throws {
        let a = try SQLiteStore(path: path)
        let b = try SQLiteStore(path: path)
        defer { for store in [a, b] { store.close() } }
        try a.openProfile("ana", sample: false)
        _ = try b.insertAtTop("ana", DraftFields(title: "B1"), as: .add)
        XCTAssertThrowsError(
            try a.transaction {
                _ = try a.undo("ana")
                _ = try a.insertAtTop("ana", DraftFields(title: "gone"), as: .add)
                throw Failure()
            })
        _ = try a.insertAtTop("ana", DraftFields(title: "A1"), as: .add)
        _ = try b.insertAtTop("ana", DraftFields(title: "B2"), as: .add)
        XCTAssertEqual(try a.undo("ana")?.kind, .add)
        XCTAssertEqual(try all(a, "ana").map(\.title), ["B2", "B1"], "A's own A1, not B's later B2")
    }

    /// A redo refused because the task waits under an import undone since names it.
    func testARefusedRedoNamesATaskWaitingInAnUndoneImport() throws {
        let x = try SQLiteStore(path: path)
        let y = try SQLiteStore(path: path)
        defer { for store in [x, y] { store.close() } }
        _ = try x.importTasks([ImportRecord(DraftFields(title: "T"))], user: "ana")
        let id = try XCTUnwrap(try all(x, "ana").first?.id)
        _ = try y.write("ana", id: id, [.notes], from: DraftFields(title: "T", notes: "n"), as: .save)
        XCTAssertEqual(try y.undo("ana")?.kind, .save)
        XCTAssertEqual(try x.undo("ana")?.kind, .import)
        XCTAssertThrowsError(try y.redo("ana")) { error in
            XCTAssertEqual(error as? NavError, .changedSince(.redo, task: "T", fields: []))
        }
    }

    /// An import in the history of a store made before undo read the log becomes an
    /// operation for undo alone: never an unsent change, never stamped.
    func testAMigratedImportIsNotAnUnsentChange() throws {
        do {
            let db = try Connection(path: path)
            for migration in SQLiteStore.migrations.prefix(9) { try db.execute(migration.sql) }
            try db.execute("PRAGMA user_version = 9")
            try db.run("INSERT INTO profile (name, total, roots, bottom) VALUES ('ana', 1, 1, 1)")
            try db.run("INSERT INTO task (profile_id, position, title, uuid) VALUES (1, 1, 'I', 'u-1')")
            try db.run(
                #"INSERT INTO op (profile_id, kind, task_uuid, field, new) VALUES (1, 'import', NULL, 'import', '{"first":1,"last":1}')"#)
            try db.run(#"INSERT INTO change (profile_id, kind, rows) VALUES (1, 'import', '{"first":1,"last":1}')"#)
            try db.run("INSERT INTO sync (profile_id, replica, server, token, stamped) VALUES (1, 'r', 'http://x', 't', 1)")
            db.close()
        }
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        XCTAssertEqual(try store.db.first("SELECT field FROM op ORDER BY seq DESC") { $0.text(0) }, "range")
        XCTAssertFalse(try store.hasUnsentChanges("ana"), "a `range` operation is never sent")
        XCTAssertEqual(try store.undo("ana")?.kind, .import, "and undo reads it")
        XCTAssertEqual(try store.count("ana", ListQuery()), 0)
    }

    /// A store whose history grew past the limit (as earlier versions let it) is cut to
    /// each profile's newest 1,000 when it is opened, and its changes become operations
    /// undo reads, after those the log had, in their order.
    func testAStoreWithTooLongAHistoryIsCutWhenOpened() throws {
        do {
            let db = try Connection(path: path)
            try db.execute(SQLiteStore.migrations[0].sql)
            try db.execute("PRAGMA user_version = 1")
            try db.run("INSERT INTO profile (name) VALUES ('ana'), ('bo')")
            func pair(_ title: String) -> String {
                #"{"pairs":[{"after":{"id":1,"position":0,"title":"\#(title)","notes":"","done":false}}]}"#
            }
            try db.run("BEGIN")
            for number in 1...1500 {
                try db.run("INSERT INTO change (profile_id, kind, rows) VALUES (1, 'add', ?)", [pair("A\(number)")])
                if number % 100 == 0 {
                    try db.run("INSERT INTO change (profile_id, kind, rows) VALUES (2, 'add', ?)", [pair("B\(number)")])
                }
            }
            try db.run("COMMIT")
            db.close()
        }
        let store = try SQLiteStore(path: path)
        XCTAssertEqual(try changes(store, "ana"), 1000)
        XCTAssertEqual(try changes(store, "bo"), 15)
        let titles = try store.db.prepare("SELECT json_extract(new, '$.title') FROM op WHERE profile_id = 1 ORDER BY seq").all {
            $0.text(0)
        }
        XCTAssertEqual(titles, (501...1500).map { "A\($0)" }, "the newest are kept, in their order")
        store.close()
    }

    /// An import of 5,000 tasks undone and redone 7 and 13 ids a statement: undo takes
    /// away exactly its tasks; redo brings them back with their ids and places; the
    /// profile's other tasks, another profile's and later tasks are left alone.
    func testUndoAndRedoOfAnImportMoveExactlyItsTasksInBatches() throws {
        let store = try SQLiteStore(path: path)
        try store.openProfile("ana", sample: true)
        try store.openProfile("bo", sample: true)
        _ = try store.insertAtTop("ana", DraftFields(title: "Before"), as: .add)
        let records = (0..<5000).map { ImportRecord(DraftFields(title: "T\($0)", notes: $0 % 2 == 0 ? "" : "n\($0)", done: $0 % 3 == 0)) }
        XCTAssertEqual(try store.importTasks(records, user: "ana"), 5000)
        // Another profile's task made after the import has a later id.
        _ = try store.insertAtTop("bo", DraftFields(title: "Later"), as: .add)
        // An imported task edited after the import, then the edit undone.
        let edited = try XCTUnwrap(try store.task("ana", id: 100))
        XCTAssertNotNil(try store.write("ana", id: 100, [.title], from: DraftFields(title: "Edited"), as: .save))
        let imported = try all(store, "ana")
        let importedPositions = try positions(store, "ana")
        let importedCounts = try store.counts("ana")
        let bo = try all(store, "bo")
        XCTAssertEqual(try store.undo("ana")?.kind, .save)
        XCTAssertEqual(try store.task("ana", id: 100)?.fields, edited.fields)

        let undone = try store.step("ana", undone: false, batch: 7)
        XCTAssertEqual(undone?.kind, .import)
        XCTAssertEqual(undone?.count, 5000, "the undo says how many tasks the import it took away added")
        XCTAssertEqual(try all(store, "ana").map(\.title), ["Before", "Buy fruit", "Study SwiftUI", "Go for a walk"])
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 3, done: 1))
        XCTAssertEqual(try all(store, "bo"), bo)
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone_task") { $0.int(0) }, 5000)

        XCTAssertEqual(try store.step("ana", undone: true, batch: 13)?.kind, .import)
        XCTAssertEqual(try store.redo("ana")?.kind, .save)
        XCTAssertNil(try store.redo("ana"))
        // The same tasks (the redone save is a new revision of task 100).
        let redone = try all(store, "ana")
        XCTAssertEqual(redone.map(\.id), imported.map(\.id))
        XCTAssertEqual(redone.map(\.uuid), imported.map(\.uuid))
        XCTAssertTrue(redone.map(\.fields) == imported.map(\.fields))
        XCTAssertEqual(try positions(store, "ana"), importedPositions)
        XCTAssertEqual(try store.counts("ana"), importedCounts)
        XCTAssertEqual(try all(store, "bo"), bo)
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone_task") { $0.int(0) }, 0)

        // An undone import is forgotten with its tasks when a new change is made.
        XCTAssertEqual(try store.undo("ana")?.kind, .save)
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        _ = try store.insertAtTop("ana", DraftFields(title: "New"), as: .add)
        XCTAssertNil(try store.redo("ana"))
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone_task") { $0.int(0) }, 0)
        XCTAssertEqual(try store.count("ana", ListQuery()), 5)
        store.close()
    }
}
