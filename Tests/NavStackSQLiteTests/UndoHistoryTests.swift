import Foundation
import NavStackCore
import XCTest

@testable import NavStackSQLite

/// The undo history: each profile keeps its own newest changes, and an import is undone
/// and redone by moving its tasks, a batch at a time.
final class UndoHistoryTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-undo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var path: String { folder.appendingPathComponent("navstack.sqlite").path }

    private func changes(_ store: SQLiteStore, _ user: String) throws -> Int {
        try store.db.first("SELECT count(*) FROM change WHERE profile_id = (SELECT id FROM profile WHERE name = ?)", [user]) { $0.int(0) }
            ?? 0
    }

    private func all(_ store: SQLiteStore, _ user: String) throws -> [TaskItem] {
        try store.page(user, ListQuery(), offset: 0, limit: 100_000)
    }

    private func positions(_ store: SQLiteStore, _ user: String) throws -> [Int] {
        try store.db.prepare("SELECT position FROM task WHERE profile_id = (SELECT id FROM profile WHERE name = ?) ORDER BY id")
            .all([user]) { $0.int(0) }
    }

    /// Two profiles change in turn, then one goes on alone past the limit: it keeps its
    /// newest 1,000 changes, and the other keeps all of its own.
    func testEachProfileKeepsItsOwnNewestThousandChanges() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: false)
        try store.openProfile("bo", sample: false)
        for number in 1...300 {
            _ = try store.insertAtTop("ana", DraftFields(title: "A\(number)"), as: .add)
            _ = try store.insertAtTop("bo", DraftFields(title: "B\(number)"), as: .add)
        }
        for number in 301...1510 { _ = try store.insertAtTop("ana", DraftFields(title: "A\(number)"), as: .add) }
        XCTAssertEqual(try changes(store, "ana"), SQLiteStore.undoLimit)
        XCTAssertEqual(try changes(store, "bo"), 300)

        for _ in 1...SQLiteStore.undoLimit { XCTAssertEqual(try store.undo("ana"), .add) }
        XCTAssertNil(try store.undo("ana"), "only the newest 1,000 are kept")
        let kept = try all(store, "ana").map(\.title)
        XCTAssertEqual(kept.count, 510)
        XCTAssertEqual(kept.first, "A510")
        for _ in 1...300 { XCTAssertEqual(try store.undo("bo"), .add) }
        XCTAssertNil(try store.undo("bo"))
        XCTAssertEqual(try store.count("bo", ListQuery()), 0)

        // Undone changes count until a new change forgets them.
        for _ in 1...10 { XCTAssertEqual(try store.redo("ana"), .add) }
        _ = try store.insertAtTop("ana", DraftFields(title: "new"), as: .add)
        XCTAssertEqual(try changes(store, "ana"), 11)
    }

    /// A store whose history grew past the limit (as earlier versions let it) is cut to
    /// each profile's newest 1,000 when it is opened.
    func testAStoreWithTooLongAHistoryIsCutWhenOpened() throws {
        do {
            let db = try Connection(path: path)
            try db.execute(SQLiteStore.migrations[0].sql)
            try db.execute("PRAGMA user_version = 1")
            try db.run("INSERT INTO profile (name) VALUES ('ana'), ('bo')")
            let pair = ChangeRecord.pairs([]).json
            try db.run("BEGIN")
            for number in 1...1500 {
                try db.run("INSERT INTO change (profile_id, kind, rows) VALUES (1, 'add', ?)", [pair])
                if number % 100 == 0 { try db.run("INSERT INTO change (profile_id, kind, rows) VALUES (2, 'add', ?)", [pair]) }
            }
            try db.run("COMMIT")
            db.close()
        }
        let store = try SQLiteStore(path: path)
        XCTAssertEqual(try changes(store, "ana"), 1000)
        XCTAssertEqual(try changes(store, "bo"), 15)
        XCTAssertEqual(
            try store.db.first("SELECT min(seq) FROM change WHERE profile_id = 1") { $0.int(0) }, 1500 + 15 - 1000 - 10 + 1,
            "the newest are kept")
        XCTAssertEqual(try store.db.first("SELECT changes FROM profile WHERE name = 'ana'") { $0.int(0) }, 1000)
        XCTAssertEqual(try store.db.first("SELECT changes FROM profile WHERE name = 'bo'") { $0.int(0) }, 15)
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
        XCTAssertEqual(try store.undo("ana"), .save)
        XCTAssertEqual(try store.task("ana", id: 100)?.fields, edited.fields)

        XCTAssertEqual(try store.step("ana", undone: false, batch: 7), .import)
        XCTAssertEqual(try all(store, "ana").map(\.title), ["Before", "Buy fruit", "Study SwiftUI", "Go for a walk"])
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 3, done: 1))
        XCTAssertEqual(try all(store, "bo"), bo)
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone_task") { $0.int(0) }, 5000)

        XCTAssertEqual(try store.step("ana", undone: true, batch: 13), .import)
        XCTAssertEqual(try store.redo("ana"), .save)
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
        XCTAssertEqual(try store.undo("ana"), .save)
        XCTAssertEqual(try store.undo("ana"), .import)
        _ = try store.insertAtTop("ana", DraftFields(title: "New"), as: .add)
        XCTAssertNil(try store.redo("ana"))
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM undone_task") { $0.int(0) }, 0)
        XCTAssertEqual(try store.count("ana", ListQuery()), 5)
        store.close()
    }
}
