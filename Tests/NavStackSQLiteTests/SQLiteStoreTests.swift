import Foundation
import NavStackCore
import XCTest

@testable import NavStackSQLite

final class SQLiteStoreTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-store-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        try? FileManager.default.removeItem(at: folder)
    }

    private var path: String { folder.appendingPathComponent("deep/er/navstack.sqlite").path }

    private func router(_ store: SQLiteStore, sample: Bool = true) throws -> Router {
        Router(store: store, configuration: .init(sampleForNewProfiles: sample), phase: try store.loadPhase())
    }

    private func titles(_ store: SQLiteStore, _ user: String = "ana") throws -> [String] {
        try store.page(user, ListQuery(), offset: 0, limit: 100).map(\.title)
    }

    /// Text bound to a statement is copied into its own buffer, which grows when a
    /// statement binds more than it holds: every text arrives whole, short or long, in
    /// the task and in the log's old and new values, in memory and in a file.
    func testTextsOfEverySizeAreBoundWhole() throws {
        for store in [try SQLiteStore(path: nil), try SQLiteStore(path: path)] {
            try store.openProfile("ana", sample: true)
            let sizes = [0, 1, 15, 16, 255, 256, 300, 4_000, 7, 20_000, 3]
            for (index, size) in sizes.enumerated() {
                let title = "T\(index)" + String(repeating: "é", count: size / 2)
                let notes = String(repeating: "n", count: size)
                let written = try XCTUnwrap(
                    store.write("ana", id: 1, [.title, .notes], from: DraftFields(title: title, notes: notes), as: .save))
                XCTAssertEqual(written.title, title)
                let read = try XCTUnwrap(store.task("ana", id: 1))
                XCTAssertTrue(read.title.hasSameBytes(as: title), "size \(size)")
                XCTAssertTrue(read.notes.hasSameBytes(as: notes), "size \(size)")
            }
            // Undone one by one, each value comes back from the log whole.
            for (index, size) in sizes.enumerated().reversed().dropFirst() {
                XCTAssertEqual(try store.undo("ana")?.kind, .save)
                let read = try XCTUnwrap(store.task("ana", id: 1))
                XCTAssertTrue(read.title.hasSameBytes(as: "T\(index)" + String(repeating: "é", count: size / 2)))
                XCTAssertEqual(read.notes.utf8.count, size)
            }
            store.close()
        }
    }

    func testAStoreIsCreatedWithItsFoldersAndIsPrivate() throws {
        _ = try SQLiteStore(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let parent = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("deep/er").path)
        XCTAssertEqual((parent[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testARelaunchResumesExactlyWhereTheLastRunStopped() throws {
        do {
            var router = try router(try SQLiteStore(path: path))
            try router.run(
                "login ana", "filter open", "find u", "open 1", "tab account", "settings",
                "tab tasks", "edit", "title Half typed", "notes and notes")
        }
        let store = try SQLiteStore(path: path)
        let restored = try router(store)
        let session = try XCTUnwrap(restored.session)
        XCTAssertEqual(session.tab, .tasks)
        XCTAssertEqual(session.tasksPath, [.detail(1), .edit(1)])
        XCTAssertEqual(session.accountPath, [.settings])
        XCTAssertEqual(session.list, ListState(filter: .open, search: "u", page: 1))
        let draft = try XCTUnwrap(session.drafts[.edit(1)])
        XCTAssertEqual(draft.fields, DraftFields(title: "Half typed", notes: "and notes", done: false))
        XCTAssertEqual(draft.original.title, "Buy fruit")
        XCTAssertTrue(draft.isDirty)
    }

    func testTheSheetAndItsDraftAreRestored() throws {
        do {
            var router = try router(try SQLiteStore(path: path))
            try router.run("login ana", "new", "title Not yet saved")
        }
        let session = try XCTUnwrap(try router(try SQLiteStore(path: path)).session)
        XCTAssertEqual(session.sheet, .newTask)
        XCTAssertEqual(session.drafts[.sheet]?.fields.title, "Not yet saved")
    }

    func testAPendingLinkIsRestoredAndLogoutForgetsTheStacks() throws {
        do {
            var router = try router(try SQLiteStore(path: path))
            try router.run("go tasks/2")
        }
        do {
            var router = try router(try SQLiteStore(path: path))
            XCTAssertEqual(router.phase, .signedOut(pending: .task(2)))
            try router.run("login ana", "tab account", "logout")
        }
        var router = try router(try SQLiteStore(path: path))
        XCTAssertEqual(router.phase, .signedOut(pending: nil))
        try router.run("login ana")
        XCTAssertEqual(router.session, Session(user: "ana"))
    }

    func testProfilesHaveTheirOwnTasksAndIdsAreUniqueInTheStore() throws {
        let store = try SQLiteStore(path: path)
        try store.openProfile("ana", sample: true)
        try store.openProfile("bob", sample: true)
        try store.openProfile("cy", sample: false)
        XCTAssertEqual(try store.page("bob", ListQuery(), offset: 0, limit: 10).map(\.id), [4, 5, 6])
        XCTAssertEqual(try titles(store, "cy"), [])
        XCTAssertNil(try store.task("bob", id: 1), "ana's task is not bob's")
        XCTAssertFalse(try store.delete("bob", id: 1))
        XCTAssertEqual(try store.count("ana", ListQuery()), 3)
    }

    func testIdsAreNeverReused() throws {
        let store = try SQLiteStore(path: path)
        try store.openProfile("ana", sample: true)
        XCTAssertTrue(try store.delete("ana", id: 3))
        XCTAssertEqual(try store.insertAtTop("ana", DraftFields(title: "New"), as: .add).id, 4)
    }

    func testCountsFiltersSearchAndPages() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        _ = try store.insertAtTop("ana", DraftFields(title: "Café CRÈME", notes: "", done: true), as: .add)
        XCTAssertEqual(try store.count("ana", ListQuery(filter: .done)), 2)
        XCTAssertEqual(try store.count("ana", ListQuery(filter: .open)), 2)
        XCTAssertEqual(try store.count("ana", ListQuery(search: "crème")), 1, "search ignores case beyond ASCII")
        XCTAssertEqual(try store.count("ana", ListQuery(filter: .open, search: "A")), 2)
        XCTAssertEqual(try store.page("ana", ListQuery(), offset: 1, limit: 2).map(\.id), [1, 2])
        XCTAssertEqual(try store.page("ana", ListQuery(filter: .done), offset: 0, limit: 5).map(\.id), [4, 3])
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 2, done: 2))
    }

    func testUndoAndRedoSurviveARelaunch() throws {
        do {
            let store = try SQLiteStore(path: path)
            var router = try router(store)
            try router.run("login ana", "delete 2", "add Later", "back", "toggle 1")
        }
        do {
            let store = try SQLiteStore(path: path)
            XCTAssertEqual(try store.undo("ana")?.kind, .toggle)
            XCTAssertEqual(try store.undo("ana")?.kind, .add)
        }
        let store = try SQLiteStore(path: path)
        XCTAssertEqual(try store.undo("ana")?.kind, .delete)
        XCTAssertEqual(try store.page("ana", ListQuery(), offset: 0, limit: 10).map(\.id), [1, 2, 3])
        XCTAssertNil(try store.undo("ana"))
        XCTAssertEqual(try store.redo("ana")?.kind, .delete)
        XCTAssertEqual(try store.redo("ana")?.kind, .add)
        XCTAssertEqual(try titles(store), ["Later", "Buy fruit", "Go for a walk"])
        XCTAssertEqual(try store.redo("ana")?.kind, .toggle)
        XCTAssertNil(try store.redo("ana"))
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 1, done: 2), "counters follow undo and redo")
    }

    func testUndoKeepsAtLeastAHundredSteps() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: false)
        for number in 1...250 { _ = try store.insertAtTop("ana", DraftFields(title: "T\(number)"), as: .add) }
        for _ in 1...250 { XCTAssertEqual(try store.undo("ana")?.kind, .add) }
        XCTAssertEqual(try store.count("ana", ListQuery()), 0)
    }

    func testImportAddsAfterTheTasksInOrderAsOneUndoableChange() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        let records = try SQLiteStore.parseImport(Array(#"[{"title":"A"},{"title":" B ","notes":"n","done":true,"id":99}]"#.utf8))
        XCTAssertEqual(try store.importTasks(records, user: "ana"), 2)
        // A title is kept as given, blanks around it too (as Taskwarrior's and todo.txt's are).
        XCTAssertEqual(try titles(store), ["Buy fruit", "Study SwiftUI", "Go for a walk", "A", " B "])
        XCTAssertEqual(try store.task("ana", id: 5)?.fields, DraftFields(title: " B ", notes: "n", done: true))
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertEqual(try store.count("ana", ListQuery()), 3)
        XCTAssertEqual(try store.redo("ana")?.kind, .import)
        XCTAssertEqual(try titles(store).suffix(2), ["A", " B "])
        XCTAssertEqual(
            try store.importTasks(
                try SQLiteStore.parseImport(Array("{\"title\":\"C\"}\n\n{\"title\":\"D\"}\n".utf8)),
                user: "new"), 2, "JSON Lines; a missing profile is created")
    }

    func testImportKeepsGivenUUIDsAndRefusesOnesTheStoreHas() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        let kept = "018cc251-f400-7fff-8000-000000000001"
        let records = try SQLiteStore.parseImport(Array(#"[{"title":"Kept","uuid":"\#(kept)"},{"title":"New"}]"#.utf8))
        XCTAssertEqual(try store.importTasks(records, user: "ana"), 2)
        XCTAssertEqual(try store.task("ana", uuid: kept)?.title, "Kept")
        let made = try XCTUnwrap(try store.task("ana", id: 5)).uuid
        XCTAssertTrue(made.isUUID && made != kept)
        let sample = try XCTUnwrap(try store.task("ana", id: 2)).uuid
        let again = try SQLiteStore.parseImport(Array(#"[{"title":"Other"},{"title":"Clash","uuid":"\#(sample)"}]"#.utf8))
        XCTAssertThrowsError(try store.importTasks(again, user: "ana")) { error in
            XCTAssertEqual(error as? ImportError, .badRecord(index: 1, .uuidInStore(sample)))
        }
        XCTAssertEqual(try store.count("ana", ListQuery()), 5, "nothing added")
        // A task an undone import took away keeps its uuid for the redo.
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertThrowsError(
            try store.importTasks(try SQLiteStore.parseImport(Array(#"{"title":"K","uuid":"\#(kept)"}"#.utf8)), user: "ana")
        ) { error in
            XCTAssertEqual(error as? ImportError, .badRecord(index: 0, .uuidInStore(kept)))
        }
    }

    func testImportReadsEveryJSONForm() throws {
        let text = #"""
            [ {"title": "a\"b\\c\u00e9\ud83d\ude00\t", "notes": null, "done": null, "id": 7, "labels": ["x", {"y": [1.5e3, -2, true]}]},
              {"done": true, "title": "  padded  ", "notes": "n/\/"} ]
            """#
        XCTAssertEqual(
            try SQLiteStore.parseImport(Array(text.utf8)).map(\.fields),
            [
                DraftFields(title: "a\"b\\cé😀\t", notes: "", done: false),
                DraftFields(title: "  padded  ", notes: "n//", done: true),
            ])
        XCTAssertEqual(try SQLiteStore.parseImport(Array("[]".utf8)).records, [])
        XCTAssertThrowsError(try SQLiteStore.parseImport(Array(#"[{"title":"\u00g1"}]"#.utf8)))
        XCTAssertThrowsError(try SQLiteStore.parseImport(Array("{\"title\":\"a\\\n\"}\n".utf8)))
    }

    func testALargeImportKeepsOrderIdsAndCountersAcrossBatches() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        let records = (0..<1234).map { ImportRecord(DraftFields(title: "T\($0)", notes: $0 % 2 == 0 ? "" : "n", done: $0 % 3 == 0)) }
        XCTAssertEqual(try store.importTasks(records, user: "ana"), 1234)
        let all = try store.page("ana", ListQuery(), offset: 0, limit: 2000)
        XCTAssertEqual(all.map(\.id), Array(1...1237))
        XCTAssertEqual(all.dropFirst(3).map(\.title), records.map(\.fields.title))
        XCTAssertEqual(
            try store.counts("ana"),
            TaskCounts(
                open: 2 + records.filter { !$0.fields.done }.count,
                done: 1 + records.filter(\.fields.done).count))
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertEqual(try store.count("ana", ListQuery()), 3)
        XCTAssertEqual(try store.redo("ana")?.kind, .import)
        XCTAssertEqual(try store.page("ana", ListQuery(), offset: 0, limit: 2000).map(\.id), Array(1...1237))
    }

    func testABadRecordFailsTheWholeImportNamingItsIndex() throws {
        let cases: [(String, ImportError, String)] = [
            (#"[{"title":"A"},{"notes":"x"}]"#, .badRecord(index: 1, .noTitle), "record 1: no title; nothing was imported"),
            (
                #"[{"title":"A"},{"title":"B"},{"title":"  "}]"#, .badRecord(index: 2, .value(.blank(.title))),
                "record 2: the title is blank; nothing was imported"
            ),
            (
                #"[{"title":"A","done":"yes"}]"#, .badRecord(index: 0, .wrongType("done")),
                "record 0: done has the wrong type; nothing was imported"
            ),
            (#"[{"title":"A"}, 7]"#, .badRecord(index: 1, .notAnObject), "record 1: not an object; nothing was imported"),
            (
                "{\"title\":\"A\"}\nnot json\n", .badRecord(index: 1, .notJSON(.unexpected("n", at: 14))),
                "record 1: not JSON (unexpected 'n' at byte 14); nothing was imported"
            ),
            ("[{", .badRecord(index: 0, .notJSON(.unexpectedEnd)), "record 0: not JSON (unexpected end of input); nothing was imported"),
            (
                #"[{"title":"A"} {"title":"B"}]"#, .notJSON(.unexpected("{", at: 15)),
                "the input is not a JSON array or JSON Lines: unexpected '{' at byte 15"
            ),
        ]
        for (text, expected, message) in cases {
            XCTAssertThrowsError(try SQLiteStore.parseImport(Array(text.utf8)), text) { error in
                XCTAssertEqual((error as? ImportError)?.single, expected, text)
                XCTAssertEqual((error as? ImportError)?.description, message, text)
            }
        }
    }

    func testExportOfAnEmptyProfileIsAnEmptyArray() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: false)
        var text = ""
        try store.exportTasks(user: "ana") { text += $0 }
        XCTAssertEqual(text, "[]\n")
    }

    func testExportWritesTheListInOrder() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        _ = try store.insertAtTop("ana", DraftFields(title: "Top \"quoted\""), as: .add)
        var text = ""
        try store.exportTasks(user: "ana") { text += $0 }
        let tasks = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        XCTAssertEqual(tasks?.map { $0["id"] as? Int }, [4, 1, 2, 3])
        XCTAssertEqual(tasks?.first?["title"] as? String, "Top \"quoted\"")
        XCTAssertTrue(
            text.hasPrefix(
                #"[\#n{"id":4,"uuid":"\#(try XCTUnwrap(try store.task("ana", id: 4)).uuid)","title":"Top \"quoted\"","notes":"","done":false,"parent":null,"due":null,"#
            ), text)
    }

    // MARK: - Importing and exporting a tree

    /// A tree under a new top-level task, and subtasks for task 1 (Buy fruit), which
    /// already has one: records 0 Trip, 1 Pack, 2 Book, 3 Train, 4 Pears, 5 Plums,
    /// 6 Tickets.
    private func treeRecords(under parent: String) -> String {
        """
        [{"title":"Trip","subtasks":[{"title":"Pack","done":true},{"title":"Book","subtasks":[{"title":"Train"}]}]},
         {"title":"Pears","parent":"\(parent)","done":true},
         {"title":"Plums","parent":"\(parent.uppercased())"},
         {"title":"Tickets","parent":2}]
        """
    }

    private let treeShape = [
        "Buy fruit [1/3]", "  Apples [0/0]", "  Pears ✓ [0/0]", "  Plums [0/0]",
        "Study SwiftUI [0/0]", "Go for a walk ✓ [0/0]",
        "Trip [1/2]", "  Pack ✓ [0/0]", "  Book [0/2]", "    Train [0/0]", "    Tickets [0/0]",
    ]

    func testATreeImportGoesUnderItsParentsWithEveryCounter() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        _ = try store.insertAtTop("ana", DraftFields(title: "Apples"), under: 1, as: .add)
        let fruit = try XCTUnwrap(try store.task("ana", id: 1)).uuid
        XCTAssertEqual(try store.importTasks(try SQLiteStore.parseImport(Array(treeRecords(under: fruit).utf8)), user: "ana"), 7)
        // Subtasks after a parent's own, in file order; new top-level tasks after the list.
        XCTAssertEqual(try store.shape("ana"), treeShape)
        XCTAssertEqual(
            (5...11).map { try? store.task("ana", id: $0)?.title },
            ["Trip", "Pack", "Book", "Train", "Pears", "Plums", "Tickets"], "ids in record order")
        XCTAssertEqual(try store.task("ana", id: 11)?.parent, 7)
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 8, done: 3))
        XCTAssertEqual(try store.count("ana", ListQuery()), 4)
        XCTAssertEqual(try store.count("ana", ListQuery(filter: .done)), 1)
        XCTAssertEqual(try store.wrongCounters(), [])
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM op WHERE kind = 'import' AND part = 0") { $0.int(0) }, 1)
        XCTAssertEqual(try store.db.first("SELECT new FROM op WHERE field = 'import'") { $0.text(0) }, #"{"first":5,"last":11}"#)
    }

    func testATreeImportRefusesAParentTheProfileLacksOrTooDeep() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        try store.openProfile("bo", sample: true)
        let bos = try XCTUnwrap(try store.task("bo", id: 4)).uuid
        let unknown = "018cc251-f400-7fff-8000-00000000abcd"
        for (uuid, index) in [(bos, 1), (unknown, 1)] {
            let records = try SQLiteStore.parseImport(Array(#"[{"title":"A"},{"title":"B","parent":"\#(uuid)"}]"#.utf8))
            XCTAssertThrowsError(try store.importTasks(records, user: "ana")) { error in
                XCTAssertEqual(error as? ImportError, .badRecord(index: index, .parentNotFound(uuid)))
                XCTAssertEqual(
                    (error as? ImportError)?.description,
                    #"record 1: "parent" \#(uuid) is neither a task of the profile nor a record of the input; nothing was imported"#)
            }
        }
        // Under a task 98 deep: two more levels fit, three do not.
        var deepest = 1
        for level in 2...98 { deepest = try store.insertAtTop("ana", DraftFields(title: "L\(level)"), under: deepest, as: .add).id }
        let under = try XCTUnwrap(try store.task("ana", id: deepest)).uuid
        let tooDeep = try SQLiteStore.parseImport(
            Array(
                #"[{"title":"x"},{"title":"y","parent":"\#(under)","subtasks":[{"title":"z","subtasks":[{"title":"zz"}]}]}]"#.utf8))
        let total = try store.counts("ana")
        XCTAssertThrowsError(try store.importTasks(tooDeep, user: "ana")) { error in
            XCTAssertEqual(error as? ImportError, .badRecord(index: 3, .tooDeep(depth: 101)))
        }
        XCTAssertEqual(try store.counts("ana"), total, "nothing imported")
        let fits = try SQLiteStore.parseImport(Array(#"[{"title":"y","parent":"\#(under)","subtasks":[{"title":"z"}]}]"#.utf8))
        XCTAssertEqual(try store.importTasks(fits, user: "ana"), 2)
        XCTAssertEqual(try store.chain("ana", id: deepest + 2).count, TreeLimits.depth)
        XCTAssertEqual(try store.wrongCounters(), [])
    }

    func testUndoAndRedoOfATreeImport() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        _ = try store.insertAtTop("ana", DraftFields(title: "Apples"), under: 1, as: .add)
        let before = try store.shape("ana")
        let fruit = try XCTUnwrap(try store.task("ana", id: 1)).uuid
        _ = try store.importTasks(try SQLiteStore.parseImport(Array(treeRecords(under: fruit).utf8)), user: "ana")
        let imported = try store.storedTasks()
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertEqual(try store.shape("ana"), before)
        XCTAssertEqual(try store.wrongCounters(), [])
        XCTAssertEqual(try store.redo("ana")?.kind, .import)
        XCTAssertEqual(try store.storedTasks().map(\.placed), imported.map(\.placed), "the same ids, uuids, parents and places")
        XCTAssertEqual(try store.task("ana", id: 1)?.subtasks, SubtaskCounts(done: 1, total: 3))
        XCTAssertEqual(try store.count("ana", ListQuery()), 4)
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 8, done: 3))
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertEqual(try store.shape("ana"), before)
        XCTAssertEqual(try store.wrongCounters(), [])
    }

    /// The imported tasks that have subtasks among the import's count them again when the
    /// import is redone, as the tasks outside it do.
    func testRedoOfATreeImportKeepsTheCountsOfItsParents() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        _ = try store.insertAtTop("ana", DraftFields(title: "Apples"), under: 1, as: .add)
        let fruit = try XCTUnwrap(try store.task("ana", id: 1)).uuid
        _ = try store.importTasks(try SQLiteStore.parseImport(Array(treeRecords(under: fruit).utf8)), user: "ana")
        XCTAssertEqual(try store.undo("ana")?.kind, .import)
        XCTAssertEqual(try store.redo("ana")?.kind, .import)
        XCTAssertEqual(try store.shape("ana"), treeShape)
        XCTAssertEqual(try store.wrongCounters(), [])
    }

    func testATreeExportsNestedAndImportsAsTheSameTree() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        let apples = try store.insertAtTop("ana", DraftFields(title: "Apples"), under: 1, as: .add).id
        _ = try store.insertAtTop("ana", DraftFields(title: "Ripe \"ones\"", done: true), under: apples, as: .add)
        _ = try store.insertAtTop("ana", DraftFields(title: "Pears", notes: "two"), under: 1, as: .add)
        _ = try store.move("ana", id: 2, under: 3)
        var text = ""
        try store.exportTasks(user: "ana") { text += $0 }
        let tasks = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        XCTAssertEqual(tasks.map { $0["id"] as? Int }, [1, 3], "the top of the list, in order")
        XCTAssertTrue(tasks.allSatisfy { $0["parent"] is NSNull })
        let fruit = try XCTUnwrap(tasks[0]["subtasks"] as? [[String: Any]])
        XCTAssertEqual(fruit.map { $0["title"] as? String }, ["Pears", "Apples"])
        XCTAssertEqual(fruit.map { $0["parent"] as? Int }, [1, 1])
        XCTAssertNil(fruit[0]["subtasks"], "only a task with subtasks has the key")
        XCTAssertEqual((fruit[1]["subtasks"] as? [[String: Any]])?.map { $0["parent"] as? Int }, [apples])
        XCTAssertEqual((tasks[1]["subtasks"] as? [[String: Any]])?.map { $0["title"] as? String }, ["Study SwiftUI"])

        // Into an empty profile of another store: the same tree, the same uuids.
        let other = try SQLiteStore(path: nil)
        try other.openProfile("bo", sample: false)
        XCTAssertEqual(try other.importTasks(try SQLiteStore.parseImport(Array(text.utf8)), user: "bo"), 6)
        XCTAssertEqual(try other.shape("bo"), try store.shape("ana"))
        XCTAssertEqual(
            try other.shape("bo"),
            [
                "Buy fruit [0/2]", "  Pears [0/0]", "  Apples [1/1]", "    Ripe \"ones\" ✓ [0/0]",
                "Go for a walk ✓ [0/1]", "  Study SwiftUI [0/0]",
            ])
        XCTAssertEqual(try other.tree("bo"), try store.tree("ana"), "each task under the same parent, by uuid")
        XCTAssertEqual(try other.wrongCounters(), [])
        var again = ""
        try other.exportTasks(user: "bo") { again += $0 }
        XCTAssertEqual(
            again.replacing(/"id":\d+/, with: "").replacing(/"parent":\d+/, with: ""),
            text.replacing(/"id":\d+/, with: "").replacing(/"parent":\d+/, with: ""))
    }

    /// A store in memory answers reads from its cache until it writes; a transaction that
    /// fails takes its writes back, and the cache with them.
    func testAStoreInMemoryReadsWhatItLastWrote() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        let query = ListQuery(filter: .open)
        XCTAssertEqual(try store.count("ana", query), 2)
        XCTAssertEqual(try store.task("ana", id: 1)?.done, false)
        XCTAssertNil(try store.task("ana", id: 9))
        XCTAssertEqual(try store.toggle("ana", id: 1)?.done, true)
        XCTAssertEqual(try store.count("ana", query), 1)
        XCTAssertEqual(try store.task("ana", id: 1)?.done, true)
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 1, done: 2))

        struct Refused: Error {}
        XCTAssertThrowsError(
            try store.transaction {
                _ = try store.delete("ana", id: 2)
                XCTAssertEqual(try store.page("ana", ListQuery(), offset: 0, limit: 10).map(\.id), [1, 3])
                throw Refused()
            })
        XCTAssertEqual(try store.page("ana", ListQuery(), offset: 0, limit: 10).map(\.id), [1, 2, 3])
        XCTAssertEqual(try store.counts("ana"), TaskCounts(open: 1, done: 2))
        XCTAssertEqual(try store.undo("ana")?.kind, .toggle)
        XCTAssertEqual(try store.task("ana", id: 1)?.done, false)
        XCTAssertEqual(try store.count("ana", query), 2)
    }

    /// A task changed in place mends what a store in memory read: counts, the pages it
    /// stays on, and the pages it leaves or joins.
    func testAStoreInMemoryMendsItsReadsWhenATaskChanges() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        let (all, open, fruit) = (ListQuery(), ListQuery(filter: .open), ListQuery(search: "fruit"))
        func read() throws -> [String] {
            try [all, open, fruit].map { query in
                "\(try store.count("ana", query)): "
                    + (try store.page("ana", query, offset: 0, limit: 2)).map {
                        "\($0.id)\($0.done ? "x" : "")"
                    }.joined(separator: " ")
            } + ["\(try store.counts("ana"))"]
        }
        XCTAssertEqual(try read(), ["3: 1 2", "2: 1 2", "1: 1", "TaskCounts(open: 2, done: 1)"])
        XCTAssertEqual(try store.toggle("ana", id: 1)?.done, true)
        XCTAssertEqual(try read(), ["3: 1x 2", "1: 2", "1: 1x", "TaskCounts(open: 1, done: 2)"])
        XCTAssertNotNil(try store.write("ana", id: 1, [.title], from: DraftFields(title: "Buy bread"), as: .save))
        XCTAssertEqual(try read(), ["3: 1x 2", "1: 2", "0: ", "TaskCounts(open: 1, done: 2)"])
        XCTAssertEqual(try store.task("ana", id: 1)?.title, "Buy bread")
    }

    func testAnotherConnectionsChangesShowOnTheNextScreen() throws {
        var router = try router(try SQLiteStore(path: path))
        try router.run("login ana", "open 2")
        let other = try SQLiteStore(path: path)
        XCTAssertTrue(try other.delete("ana", id: 2))
        XCTAssertEqual(router.shown.kind, .notFound)
        try router.run("back")
        guard case .list(let page) = router.shown.content else { return XCTFail("not the list") }
        XCTAssertEqual(page.rows.map(\.task.id), [1, 3])
    }

    /// Every page is read in list order from the index, never sorted: equal positions
    /// (two replicas' tasks) come in uuid order all the same.
    func testAPageOfAnyListIsReadInOrderFromTheIndex() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile("ana", sample: true)
        // Waiting tasks are few: they are read by the index of `wait`, then sorted.
        let queries = ListFilter.allCases.filter { $0 != .waiting }.flatMap { filter in
            [
                ListQuery(filter: filter), ListQuery(filter: filter, search: "a"),
                {
                    var query = ListQuery.subtasks(of: 1)
                    query.filter = filter
                    return query
                }(),
            ]
        }
        for query in queries {
            let (sql, arguments) = SQLiteStore.pageQuery(query, "ana")
            let plan = try store.db.prepare("EXPLAIN QUERY PLAN " + sql).all(arguments + [10, 0]) { $0.text(3) }
            XCTAssertTrue(plan.contains { $0.contains("INDEX task_in_order") }, "\(query): \(plan)")
            XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "\(query): \(plan)")
        }
        // Three tasks at one position: the page gives them in uuid order.
        try store.db.run("UPDATE task SET position = 0")
        let uuids = try store.page("ana", ListQuery(), offset: 0, limit: 10).map(\.uuid)
        XCTAssertEqual(uuids.count, 3)
        XCTAssertEqual(uuids, uuids.sorted())
    }

    func testTheMigrationsRunInOrderOnMemoryAndFileDatabases() throws {
        for store in [try SQLiteStore(path: nil), try SQLiteStore(path: path)] {
            XCTAssertEqual(try SQLiteStore.schemaVersion(store.db), SQLiteStore.migrations.count)
            XCTAssertEqual(try store.db.first("PRAGMA user_version") { $0.int(0) }, SQLiteStore.migrations.count)
            XCTAssertEqual(try store.db.first("SELECT count(*) FROM sqlite_master WHERE name = 'task'") { $0.int(0) }, 1)
            store.close()
        }
    }

    /// A store made when the schema's migrations were listed in a `grdb_migrations`
    /// table opens as it is, and one listing a migration this navstack does not know is
    /// from a newer navstack.
    func testAStoreThatListsItsMigrationsInATable() throws {
        func makeLegacyStore(listing names: [String]) throws {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            let db = try Connection(path: path)
            try db.execute(SQLiteStore.migrations[0].sql)
            try db.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for name in names { try db.run("INSERT INTO grdb_migrations (identifier) VALUES (?)", [name]) }
            try db.run("INSERT INTO profile (name) VALUES ('ana')")
            db.close()
        }
        try makeLegacyStore(listing: [SQLiteStore.migrations[0].name])
        let store = try SQLiteStore(path: path)
        XCTAssertEqual(
            try store.db.first("PRAGMA user_version") { $0.int(0) }, SQLiteStore.migrations.count,
            "the migrations after the listed one are applied")
        XCTAssertEqual(try store.db.first("SELECT count(*) FROM profile") { $0.int(0) }, 1)
        store.close()

        try makeLegacyStore(listing: [SQLiteStore.migrations[0].name, "v2: from the future"])
        XCTAssertThrowsError(try SQLiteStore(path: path)) { error in
            XCTAssertEqual(error as? StoreError, .newerSchema(path: self.path, version: SQLiteStore.migrations.count + 1))
        }
    }
}

extension Router {
    mutating func run(_ lines: String...) throws {
        for line in lines { _ = try apply(XCTUnwrap(Command.parse(line))) }
    }

    var shown: Screen { try! screen() }
}
