import NavStackSQLite
import XCTest

@testable import NavStackCore

/// Subtasks and deep stacks: each move on the tree, what it leaves (path, sheet, question,
/// screen, URL, store) and what it refuses.
///
/// Most tests start from the sample tasks with a small tree under task 1 (newest first,
/// as the store keeps them):
///
///     1 Buy fruit
///       7 Pears
///       4 Apples
///         6 Red apples
///         5 Green apples
///     2 Study SwiftUI
///     3 Go for a walk
final class SubtaskRouterTests: XCTestCase {
    /// A router over the tree above, on the list.
    private func makeTree(pageSize: Int = 20) throws -> Router {
        let router = try makeRouter(pageSize: pageSize)
        for (title, parent) in [("Apples", 1), ("Green apples", 4), ("Red apples", 4), ("Pears", 1)] {
            _ = try router.store.insertAtTop("ana", DraftFields(title: title), under: parent, as: .add)
        }
        return router
    }

    /// A screen's URL as its text line writes it (from the path, for a task's screen) is
    /// its link's URL, on every kind of screen: the list in any state, a task deep in the
    /// tree and a page of its subtasks, its edit screen, the sheet, a question, the account
    /// tab, signed out.
    func testTheURLWrittenIsTheLinksOnEveryScreen() throws {
        var urls: Set<String> = []
        var router = try makeTree(pageSize: 1)
        func check(_ line: String) {
            if !line.isEmpty, let error = router.failure(line) { return XCTFail("\(line): \(error)") }
            let screen = router.shown
            XCTAssertEqual(screen.withURLBytes { String(decoding: $0, as: UTF8.self) }, screen.link?.url, line)
            urls.insert(screen.link?.url ?? "signed out")
        }
        for line in [
            "", "filter open", "find apple", "find", "filter all", "page 2", "page 1", "open 1", "next", "open 1", "edit",
            "title X", "cancel", "back", "new", "cancel", "delete", "no", "root", "go tasks/1/4/6/edit", "tab account",
            "settings", "back", "about", "tab tasks", "tab account", "back", "logout",
        ] {
            check(line)
        }
        XCTAssertTrue(urls.isSuperset(of: ["navstack://tasks/1?page=2", "navstack://tasks/1/new", "signed out"]))
        XCTAssertGreaterThanOrEqual(urls.count, 14)
    }

    // MARK: The detail screen's subtasks

    func testAddOnADetailCreatesASubtaskAndOpensIt() throws {
        var router = try makeRouter()
        try router.run("open 1", "add Apples")
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        XCTAssertEqual(router.shown.title, "Apples")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4")
        XCTAssertEqual(router.shown.breadcrumb, ["My Tasks", "Buy fruit", "Apples"])
        XCTAssertEqual(try router.store.task("ana", id: 4)?.parent, 1)
        XCTAssertEqual(try router.store.task("ana", id: 1)?.subtasks, SubtaskCounts(done: 0, total: 1))
        try router.run("add")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)])
        XCTAssertEqual(router.shown.title, "New task")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/5")
        XCTAssertEqual(try router.store.task("ana", id: 5)?.parent, 4)
        XCTAssertEqual(try router.store.count("ana", ListQuery()), 3, "subtasks are not on the list")
    }

    func testNewOnADetailSavesASubtaskOfThatTask() throws {
        var router = try makeTree()
        try router.run("open 1", "open 2")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        try router.run("new")
        XCTAssertEqual(router.shown.kind, .newTask)
        XCTAssertEqual(router.shown.sheet, .newTask)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)], "the sheet is over the detail, not on the path")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/new")
        try router.run("title Yellow apples", "save")
        XCTAssertNil(router.shown.sheet)
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        XCTAssertEqual(subtasks(router).rows.map(\.task.title), ["Yellow apples", "Red apples", "Green apples"])
        XCTAssertEqual(try router.store.task("ana", id: 8)?.parent, 4)
        try router.run("root", "new", "title Top", "save")
        XCTAssertNil(try router.store.task("ana", id: 9)?.parent, "the sheet over the list adds a top-level task")
    }

    func testOpenOnADetailPushesTheSubtask() throws {
        var router = try makeTree()
        try router.run("open 1")
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [7, 4])
        XCTAssertEqual(subtasks(router).rows.map(\.row), [1, 2])
        try router.run("open 2")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        try router.run("open 1")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(6)])
        XCTAssertEqual(router.shown.title, "Red apples")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/6")
        let before = router.phase
        XCTAssertEqual(router.failure("open 1"), .noSuchRow(1, rows: 0))
        XCTAssertEqual(router.phase, before)
        try router.run("back")
        XCTAssertEqual(router.failure("open 3"), .noSuchRow(3, rows: 2))
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
    }

    func testToggleAndDeleteWithARowActOnSubtasks() throws {
        var router = try makeTree()
        try router.run("go tasks/4")
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [6, 5])
        try router.run("toggle 2")
        XCTAssertEqual(try router.store.task("ana", id: 5)?.done, true)
        XCTAssertEqual(try router.store.task("ana", id: 4)?.done, false, "the task shown is not toggled")
        XCTAssertEqual(shownTask(router)?.subtasks, SubtaskCounts(done: 1, total: 2))
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        try router.run("delete 1")
        XCTAssertNil(try router.store.task("ana", id: 6))
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)], "deleting a row does not leave the detail")
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [5])
        XCTAssertEqual(subtasks(router).total, 1)
        let before = router.phase
        XCTAssertEqual(router.failure("toggle 3"), .noSuchRow(3, rows: 1))
        XCTAssertEqual(router.failure("delete 2"), .noSuchRow(2, rows: 1))
        XCTAssertEqual(router.phase, before)
        XCTAssertEqual(try router.store.task("ana", id: 5)?.done, true)
    }

    func testToggleAndDeleteWithoutARowActOnTheTaskShown() throws {
        var router = try makeTree()
        try router.run("go tasks/5", "toggle")
        XCTAssertEqual(try router.store.task("ana", id: 5)?.done, true)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)])
        try router.run("delete")
        XCTAssertNil(try router.store.task("ana", id: 5))
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)], "delete pops to the parent's detail")
        XCTAssertEqual(router.shown.title, "Apples")
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [6])
    }

    func testNextPrevAndPagePageTheSubtasks() throws {
        var router = try makeRouter(pageSize: 2)
        for title in ["S1", "S2", "S3", "S4", "S5"] {
            _ = try router.store.insertAtTop("ana", DraftFields(title: title), under: 1, as: .add)
        }
        try router.run("open 1")
        XCTAssertEqual(subtasks(router).page, 1)
        XCTAssertEqual(subtasks(router).pages, 3)
        XCTAssertEqual(subtasks(router).total, 5)
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [8, 7])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1")
        try router.run("next")
        XCTAssertEqual(subtasks(router).page, 2)
        XCTAssertEqual(subtasks(router).rows.map(\.row), [3, 4])
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [6, 5])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1?page=2")
        XCTAssertEqual(router.session?.list.page, 1, "the list keeps its own page")
        try router.run("open 3")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(6)], "rows count across the pages")
        try router.run("back")
        XCTAssertEqual(subtasks(router).page, 2, "the detail keeps its page while you go deeper")
        try router.run("page 3")
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [4])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1?page=3")
        let before = router.phase
        XCTAssertEqual(router.failure("next"), .alreadyLastPage(pages: 3))
        XCTAssertEqual(router.failure("page 4"), .noSuchPage(4, pages: 3))
        XCTAssertEqual(router.phase, before)
        try router.run("prev", "prev")
        XCTAssertEqual(subtasks(router).page, 1)
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1")
        XCTAssertEqual(router.failure("prev"), .alreadyFirstPage)

        try router.run("page 2")
        var other = Router(store: router.store, configuration: router.configuration, phase: .signedIn(Session(user: "ana")))
        try other.run("go navstack://tasks/1?page=2")
        XCTAssertEqual(subtasks(other).page, 2, "go restores the page of subtasks")
        XCTAssertEqual(other.shown.link?.url, "navstack://tasks/1?page=2")
        try router.run("back", "open 1")
        XCTAssertEqual(subtasks(router).page, 1, "a closed detail forgets its page")
    }

    func testRowsShowSubtaskProgress() throws {
        var router = try makeTree()
        _ = try router.store.toggle("ana", id: 5)
        XCTAssertEqual(
            listPage(router).rows.first?.task.subtasks, SubtaskCounts(done: 0, total: 2),
            "a task counts its own subtasks, not theirs")
        XCTAssertEqual(listPage(router).rows.last?.task.subtasks, SubtaskCounts())
        XCTAssertTrue(text(router).contains("Buy fruit [0/2]"), text(router))
        XCTAssertFalse(text(router).contains("Study SwiftUI ["), text(router))
        try router.run("open 1")
        XCTAssertEqual(subtasks(router).rows.map(\.task.subtasks), [SubtaskCounts(), SubtaskCounts(done: 1, total: 2)])
        XCTAssertTrue(text(router).contains("Apples [1/2]"), text(router))
        try router.run("toggle 1", "back")
        XCTAssertEqual(listPage(router).rows.first?.task.subtasks, SubtaskCounts(done: 1, total: 2))
        XCTAssertTrue(text(router).contains("Buy fruit [1/2]"), text(router))
    }

    // MARK: The path is the chain

    func testThePathIsRebuiltWhenAnotherWriterMovesATaskOnIt() throws {
        var router = try makeTree()
        try router.run("go tasks/5")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)])
        _ = try router.store.move("ana", id: 4, under: 2)
        try router.run("page 1")
        XCTAssertEqual(router.shown.path, [.detail(2), .detail(4), .detail(5)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/2/4/5")
        XCTAssertEqual(router.shown.breadcrumb, ["My Tasks", "Study SwiftUI", "Apples", "Green apples"])
        XCTAssertEqual(router.shown.title, "Green apples")
        try router.run("back")
        XCTAssertEqual(router.shown.path, [.detail(2), .detail(4)])

        _ = try router.store.move("ana", id: 4, under: nil)
        try router.run("edit")
        XCTAssertEqual(router.shown.path, [.detail(4), .edit(4)], "a task moved to the top is its own chain")
        _ = try router.store.move("ana", id: 4, under: 3)
        try router.run("title Apples, all kinds")
        XCTAssertEqual(router.shown.path, [.detail(3), .detail(4), .edit(4)], "an edit screen follows its task too")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/3/4/edit")
    }

    func testATaskOnThePathDeletedElsewhereShowsNotFound() throws {
        var router = try makeTree()
        try router.run("go tasks/5")
        XCTAssertTrue(try router.store.delete("ana", id: 4))
        XCTAssertEqual(router.shown.kind, .notFound)
        XCTAssertEqual(router.shown.content, .notFound(5))
        XCTAssertEqual(router.shown.title, "Task not found")
        XCTAssertEqual(router.failure("edit")?.isNotAvailable, true)
        try router.run("back")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        XCTAssertEqual(router.shown.content, .notFound(4))
        try router.run("back")
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [7])
    }

    /// `where` answers with the chain as the tree has it, as the next screen would: a URL
    /// that `go` takes.
    func testWhereAfterAnotherWriterMovedATaskNamesTheChain() throws {
        var router = try makeTree()
        try router.run("go tasks/5")
        _ = try router.store.move("ana", id: 4, under: 2)
        XCTAssertEqual(
            try router.run("where"),
            .location(
                url: "navstack://tasks/2/4/5",
                breadcrumb: ["My Tasks", "Study SwiftUI", "Apples", "Green apples"]))
    }

    /// A command that moves a task on the path itself (`undo`, `redo` of a move) shows the
    /// chain as it leaves the tree.
    func testUndoAndRedoOfAMoveOnThePathShowTheChain() throws {
        var router = try makeTree()
        try router.run("move 3 to 4", "go tasks/3")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(3)])
        try router.run("undo")
        XCTAssertNil(try router.store.task("ana", id: 3)?.parent)
        XCTAssertEqual(router.shown.path, [.detail(3)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/3")
        try router.run("redo")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(3)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/3")
    }

    /// The tasks path follows the tree when its tab is shown again, though the task moved
    /// while the other tab was.
    func testTheTasksTabShowsTheChainWhenSelectedAgain() throws {
        var router = try makeTree()
        try router.run("move 3 to 4", "go tasks/3", "tab account", "undo", "tab tasks")
        XCTAssertNil(try router.store.task("ana", id: 3)?.parent)
        XCTAssertEqual(router.shown.path, [.detail(3)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/3")
    }

    /// `save!` of a draft whose subtask was deleted elsewhere brings it back in its place:
    /// under its parent.
    func testSaveBangRecreatesADeletedSubtaskUnderItsParent() throws {
        var router = try makeTree()
        try router.run("go tasks/5/edit", "title Green ones")
        XCTAssertTrue(try router.store.delete("ana", id: 5))
        try router.run("save!")
        XCTAssertEqual(try router.store.task("ana", id: 5)?.title, "Green ones")
        XCTAssertEqual(try router.store.task("ana", id: 5)?.parent, 4)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/5")
    }

    // MARK: Links

    func testGoBuildsTheChainFromTheShortForm() throws {
        var router = try makeTree()
        try router.run("go tasks/5")
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)])
        XCTAssertEqual(router.shown.link, .detail(chain: [1, 4, 5], page: 1))
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/5")
        try router.run("root", "go navstack://tasks/1/4/5")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)], "the full chain works too")
        try router.run("go tasks/5/edit")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5), .edit(5)])
    }

    func testALongFormThatContradictsTheTreeFailsAndChangesNothing() throws {
        var router = try makeTree()
        try router.run("go tasks/7")
        let before = router.phase
        for (link, id, actual) in [
            ("tasks/2/5", 5, "tasks/1/4/5"), ("navstack://tasks/4/5", 5, "tasks/1/4/5"),
            ("tasks/1/5", 5, "tasks/1/4/5"), ("tasks/7/4/5", 5, "tasks/1/4/5"),
            ("tasks/2/5?page=2", 5, "tasks/1/4/5?page=2"), ("tasks/2/4/edit", 4, "tasks/1/4/edit"),
            ("tasks/2/4/new", 4, "tasks/1/4/new"),
        ] {
            let url = link.hasPrefix("navstack://") ? link : "navstack://" + link
            XCTAssertEqual(router.failure("go " + link), .chainMismatch(url: url, id: id, actual: actual), link)
            XCTAssertEqual(router.phase, before, link)
        }
        XCTAssertEqual(router.failure("go tasks/1/99"), .noSuchTask("99"))
        XCTAssertEqual(
            NavError.chainMismatch(url: "navstack://tasks/2/5", id: 5, actual: "tasks/1/4/5").message,
            "navstack://tasks/2/5 does not match the tasks: task 5 is at navstack://tasks/1/4/5")
    }

    func testGoOpensTheSheetOverADetailAndADeepEditScreen() throws {
        var router = try makeTree()
        try router.run("go tasks/1/4/new")
        XCTAssertEqual(router.shown.kind, .newTask)
        XCTAssertEqual(router.shown.sheet, .newTask)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/new")
        try router.run("title Yellow apples", "save")
        XCTAssertEqual(try router.store.task("ana", id: 8)?.parent, 4)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])

        try router.run("go tasks/1/4/5/edit")
        XCTAssertEqual(router.shown.kind, .edit)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5), .edit(5)])
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/5/edit")
        guard case .draft(let draft, _, _) = router.shown.content else { return XCTFail("not a draft") }
        XCTAssertEqual(draft.fields.title, "Green apples")
        try router.run("back")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)])
    }

    // MARK: Search

    func testFindOnTheListSearchesEveryLevelAndOpenPushesTheChain() throws {
        var router = try makeTree()
        try router.run("find apples")
        // Task 1 by its notes ("Apples, bananas, grapes"), the others by their titles.
        XCTAssertEqual(Set(listPage(router).rows.map(\.task.id)), [1, 4, 5, 6])
        XCTAssertEqual(listPage(router).total, 4)
        try router.run("find green")
        XCTAssertEqual(listPage(router).rows.map(\.task.id), [5])
        try router.run("open 1")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4), .detail(5)], "a deep result opens with its whole chain")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/1/4/5")
        try router.run("back")
        XCTAssertEqual(router.shown.title, "Apples")
        try router.run("root")
        XCTAssertEqual(listPage(router).search, "green", "the list keeps its search")
        try router.run("find")
        XCTAssertEqual(listPage(router).rows.map(\.task.id), [1, 2, 3], "without a search the list is the top level")
    }

    // MARK: Move

    func testMoveOnTheListAndOnADetail() throws {
        var router = try makeTree()
        try router.run("move 3 to 1")
        XCTAssertEqual(router.shown.kind, .list)
        XCTAssertEqual(router.shown.path, [])
        XCTAssertEqual(try router.store.task("ana", id: 3)?.parent, 1)
        XCTAssertEqual(listPage(router).rows.map(\.task.id), [1, 2])
        XCTAssertEqual(listPage(router).rows.first?.task.subtasks, SubtaskCounts(done: 1, total: 3))
        try router.run("open 1")
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [3, 7, 4], "a moved task goes to the top of its new place")
        try router.run("move 1 to top")
        XCTAssertEqual(router.shown.path, [.detail(1)])
        XCTAssertNil(try router.store.task("ana", id: 3)?.parent)
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [7, 4])
        try router.run("move 2 to 7")
        XCTAssertEqual(try router.store.chain("ana", id: 5).map(\.id), [1, 7, 4, 5], "a task moves with its subtasks")
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [7])
        XCTAssertEqual(subtasks(router).rows.first?.task.subtasks, SubtaskCounts(done: 0, total: 1))
        try router.run("back")
        XCTAssertEqual(listPage(router).rows.map(\.task.id), [3, 1, 2])
    }

    func testMoveRefusesWhatWouldBreakTheTree() throws {
        var router = try makeTree()
        let tasks = try everyTask(router)
        var before = router.phase
        let refusals: [(String, NavError)] = [
            ("move 1 to 1", .moveIntoItself(task: "Buy fruit")),
            ("move 1 to 4", .moveIntoItself(task: "Buy fruit")),
            ("move 1 to 5", .moveIntoItself(task: "Buy fruit")),
            ("move 1 to 99", .noSuchTask("99")),
            ("move 9 to 1", .noSuchRow(9, rows: 3)),
        ]
        for (line, error) in refusals {
            XCTAssertEqual(router.failure(line), error, line)
            XCTAssertEqual(router.phase, before, line)
            XCTAssertEqual(try everyTask(router), tasks, line)
        }
        try router.run("go tasks/4")
        before = router.phase
        for (line, error) in [
            ("move 1 to 6", NavError.moveIntoItself(task: "Red apples")), ("move 2 to 99", .noSuchTask("99")),
            ("move 3 to top", .noSuchRow(3, rows: 2)),
        ] {
            XCTAssertEqual(router.failure(line), error, line)
            XCTAssertEqual(router.phase, before, line)
            XCTAssertEqual(try everyTask(router), tasks, line)
        }
    }

    func testMovePastTheDepthLimitIsRefused() throws {
        var router = try makeTree()
        // Task 2 and 98 tasks under it: 99 levels. Task 1's tree is 3 levels deep.
        var deepest = 2
        for level in 2...99 {
            deepest = try router.store.insertAtTop("ana", DraftFields(title: "Level \(level)"), under: deepest, as: .add).id
        }
        XCTAssertEqual(try router.store.chain("ana", id: deepest).count, 99)
        let tasks = try everyTask(router)
        let before = router.phase
        XCTAssertEqual(router.failure("move 1 to \(deepest)"), .tooDeep(depth: 102))
        XCTAssertEqual(router.phase, before)
        XCTAssertEqual(try everyTask(router), tasks)
        try router.run("move 3 to \(deepest)")
        XCTAssertEqual(try router.store.chain("ana", id: 3).count, 100, "a leaf fits at level 100")
    }

    func testUndoAndRedoOfAMove() throws {
        var router = try makeTree()
        let tasks = try everyTask(router)
        try router.run("move 3 to 4")
        XCTAssertEqual(try router.store.chain("ana", id: 3).map(\.id), [1, 4, 3])
        let moved = try everyTask(router)
        try router.run("undo")
        XCTAssertEqual(try everyTask(router), tasks, "undo puts the task back in its place")
        XCTAssertEqual(listPage(router).rows.map(\.task.id), [1, 2, 3])
        try router.run("redo")
        XCTAssertEqual(try everyTask(router), moved)
        XCTAssertEqual(try router.store.task("ana", id: 4)?.subtasks, SubtaskCounts(done: 1, total: 3))
        XCTAssertEqual(router.shown.kind, .list, "undo and redo change data, not where you are")
    }

    // MARK: Delete with a question

    func testDeletingATaskWithSubtasksAsksFirst() throws {
        var router = try makeTree()
        let tasks = try everyTask(router)
        try router.run("delete 1")
        XCTAssertEqual(router.shown.kind, .confirm)
        XCTAssertEqual(router.session?.confirm, .delete(1, popping: false))
        XCTAssertEqual(router.shown.path, [], "the question is not on the path")
        XCTAssertNil(router.shown.sheet)
        XCTAssertEqual(router.shown.link, .tasks)
        XCTAssertEqual(Array(router.shown.actions.prefix(2)), [.yes, .no])
        guard case .confirm(let task, let count, let message) = router.shown.content else { return XCTFail("not the question") }
        XCTAssertEqual(task.id, 1)
        XCTAssertEqual(count, 4, "every level counts")
        XCTAssertEqual(message, "Delete 'Buy fruit' and its 4 subtasks? yes deletes them all (undo brings them back); no keeps them.")
        XCTAssertEqual(try everyTask(router), tasks, "nothing is deleted yet")

        try router.run("no")
        XCTAssertEqual(router.shown.kind, .list)
        XCTAssertNil(router.session?.confirm)
        XCTAssertEqual(try everyTask(router), tasks)

        try router.run("delete 1", "back")
        XCTAssertEqual(router.shown.kind, .list, "back dismisses the question")
        XCTAssertNil(router.session?.confirm)
        XCTAssertEqual(try everyTask(router), tasks)

        try router.run("delete 1", "yes")
        XCTAssertEqual(router.shown.kind, .list)
        XCTAssertNil(router.session?.confirm)
        XCTAssertEqual(listPage(router).rows.map(\.task.id), [2, 3])
        for id in [1, 4, 5, 6, 7] { XCTAssertNil(try router.store.task("ana", id: id), "task \(id)") }

        try router.run("undo")
        XCTAssertEqual(try everyTask(router), tasks, "undo brings every task back with its id and its place")
        XCTAssertEqual(try router.store.chain("ana", id: 5).map(\.id), [1, 4, 5])
        try router.run("redo")
        XCTAssertEqual(try everyTask(router).map(\.id), [2, 3])
    }

    func testTheQuestionRefusesWhatItDoesNotTake() throws {
        var router = try makeTree()
        try router.run("delete 1")
        let before = router.phase
        for line in [
            "open 1", "delete 1", "toggle 1", "root", "tab account", "undo", "redo", "add", "new", "find x",
            "move 1 to top", "edit",
        ] {
            XCTAssertEqual(router.failure(line)?.isNotAvailable, true, line)
            XCTAssertEqual(router.phase, before, line)
        }
        XCTAssertEqual(
            router.failure("delete 1"),
            .notAvailable(.delete, screen: .confirm, available: [.yes, .no, .back, .go, .where, .help, .quit, .exit]))
        try router.run("go tasks/2")
        XCTAssertNil(router.session?.confirm, "go leaves the question")
        XCTAssertEqual(router.shown.path, [.detail(2)])
        XCTAssertNotNil(try router.store.task("ana", id: 1))
        XCTAssertEqual(router.failure("yes")?.isNotAvailable, true, "no question, no answer")
        XCTAssertEqual(router.failure("no")?.isNotAvailable, true)
    }

    func testDeletingTheShownTaskWithSubtasksPopsToItsParentOnYes() throws {
        var router = try makeTree()
        try router.run("go tasks/4", "delete")
        XCTAssertEqual(router.shown.kind, .confirm)
        XCTAssertEqual(router.session?.confirm, .delete(4, popping: true))
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        try router.run("no")
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        try router.run("delete", "yes")
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(router.shown.path, [.detail(1)])
        XCTAssertEqual(subtasks(router).rows.map(\.task.id), [7])
        for id in [4, 5, 6] { XCTAssertNil(try router.store.task("ana", id: id), "task \(id)") }

        try router.run("undo", "delete 2")
        XCTAssertEqual(router.session?.confirm, .delete(4, popping: false), "a row of the detail")
        try router.run("yes")
        XCTAssertEqual(router.shown.path, [.detail(1)], "deleting a row stays on the detail")
        XCTAssertNil(try router.store.task("ana", id: 4))
    }

    // MARK: Back to

    func testBackToPopsToATaskOrTheList() throws {
        var router = try makeTree()
        try router.run("go tasks/5", "back to 4")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        try router.run("go tasks/5", "back to 1")
        XCTAssertEqual(router.shown.path, [.detail(1)])
        try router.run("go tasks/5/edit", "back to list")
        XCTAssertEqual(router.shown.path, [])
        XCTAssertEqual(router.shown.kind, .list)
        XCTAssertEqual(router.session?.drafts, [:], "a clean draft goes quietly")

        try router.run("go tasks/5")
        let before = router.phase
        XCTAssertEqual(router.failure("back to 99"), .notOnPath(99))
        XCTAssertEqual(router.failure("back to 2"), .notOnPath(2), "a task that exists but is not on the path")
        XCTAssertEqual(router.failure("back to 7"), .notOnPath(7))
        XCTAssertEqual(router.phase, before)
        XCTAssertEqual(NavError.notOnPath(2).message, "task 2 is not open on this path (back to list goes to the list)")
        try router.run("go tasks/1/4/new", "back to 1")
        XCTAssertNil(router.shown.sheet, "back to closes the sheet too")
        XCTAssertEqual(router.shown.path, [.detail(1)])
    }

    func testTheDraftGuardAppliesToEveryPop() throws {
        var router = try makeTree()
        try router.run("go tasks/5/edit", "title Green ones")
        let before = router.phase
        for line in ["back to 4", "back to 1", "back to list", "root", "back", "back 2", "back 4"] {
            XCTAssertEqual(router.failure(line), .unsavedDraft(try Command.parse(line)!.word), line)
            XCTAssertEqual(router.phase, before, line)
        }
        try router.run("back! to 4")
        XCTAssertEqual(router.shown.path, [.detail(1), .detail(4)])
        XCTAssertEqual(router.session?.drafts, [:])
        XCTAssertEqual(try router.store.task("ana", id: 5)?.title, "Green apples", "nothing saved")

        try router.run("new", "title Half")
        XCTAssertEqual(router.failure("back to 1"), .unsavedDraft(.back))
        try router.run("back! to list")
        XCTAssertEqual(router.shown.path, [])
        XCTAssertNil(router.shown.sheet)
        XCTAssertEqual(router.session?.drafts, [:])
    }

    // MARK: Depth

    func testAHundredLevelsAreTheLimit() throws {
        var router = try makeRouter()
        var chain = [1]
        for level in 2...100 {
            chain.append(try router.store.insertAtTop("ana", DraftFields(title: "Level \(level)"), under: chain.last!, as: .add).id)
        }
        try router.run("go tasks/\(chain.last!)")
        XCTAssertEqual(router.shown.kind, .detail)
        XCTAssertEqual(router.shown.path, chain.map(Route.detail))
        XCTAssertEqual(router.shown.path.count, 100)
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks/" + chain.map(String.init).joined(separator: "/"))
        var text = ""
        TextRenderer(width: 40).render(.screen(router.shown), to: &text)
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.displayWidth, 40, String(line)) }

        let tasks = try everyTask(router)
        let before = router.phase
        XCTAssertEqual(router.failure("add"), .tooDeep(depth: 101))
        XCTAssertEqual(router.failure("add Deeper"), .tooDeep(depth: 101))
        XCTAssertEqual(router.phase, before)
        try router.run("new", "title Deeper")
        XCTAssertEqual(router.failure("save"), .tooDeep(depth: 101))
        XCTAssertEqual(router.shown.kind, .newTask, "the sheet stays with its draft")
        XCTAssertEqual(try everyTask(router), tasks)
        XCTAssertEqual(NavError.tooDeep(depth: 101).message, "subtasks go 100 levels deep at most; this would make 101")
        try router.run("back!", "back")
        XCTAssertEqual(router.shown.path.count, 99)
        try router.run("add Level 100 too")
        XCTAssertEqual(router.shown.path.count, 100)
        try router.run("go navstack://" + DeepLink.detail(chain: chain, page: 1).path)
        XCTAssertEqual(router.shown.path, chain.map(Route.detail), "the long form of a chain of 100")
    }

    // MARK: The list's state in its URL

    func testTheListStateIsInItsURL() throws {
        var router = try makeRouter(pageSize: 1)
        _ = try router.store.insertAtTop("ana", DraftFields(title: "Dried fruit"), under: nil, as: .add)
        _ = try router.store.insertAtTop("ana", DraftFields(title: "Fruit salad"), under: 2, as: .add)
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks")
        try router.run("filter open")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=open")
        try router.run("find fruit")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=open&q=fruit")
        XCTAssertEqual(listPage(router).total, 3)
        try router.run("next")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=open&q=fruit&page=2")
        XCTAssertEqual(try router.run("where"), .location(url: "navstack://tasks?filter=open&q=fruit&page=2", breadcrumb: ["My Tasks"]))
        let rows = listPage(router).rows

        var other = Router(store: router.store, configuration: router.configuration, phase: .signedIn(Session(user: "ana")))
        try other.run("go navstack://tasks?filter=open&q=fruit&page=2")
        XCTAssertEqual(other.session?.list, ListState(filter: .open, search: "fruit", page: 2))
        XCTAssertEqual(listPage(other).rows, rows)
        XCTAssertEqual(other.shown.link?.url, "navstack://tasks?filter=open&q=fruit&page=2")

        try router.run("find buy fruit")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=open&q=buy%20fruit", "a new search starts at page 1")
        try router.run("find café & co")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=open&q=caf%C3%A9%20%26%20co")
        try other.run("go " + router.shown.link!.url)
        XCTAssertEqual(other.session?.list.search, "café & co")
        try other.run("go tasks?q=buy+fruit")
        XCTAssertEqual(other.session?.list, ListState(search: "buy fruit"), "+ is a space")
        try router.run("filter all", "find", "page 2")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=all&page=2", "all, waiting tasks too, is not the default")
        try router.run("page 1")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=all")
        try router.run("go tasks?page=2")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?page=2")
        try router.run("page 1")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks", "only what differs from the default")
    }

    func testMalformedListQueriesAreRefused() throws {
        var router = try makeRouter()
        try router.run("open 1")
        let before = router.phase
        for link in [
            "tasks?color=red", "tasks?filter=maybe", "tasks?page=0", "tasks?page=-1",
            "tasks?page=two", "tasks?page=", "tasks?q=", "tasks?q=%zz", "tasks?q=%4", "tasks?q=%FF",
            "tasks?q=%20", "tasks?q=a%0Ab", "tasks?page=1&page=2", "tasks?filter=open&filter=done", "tasks?filter",
            "tasks?&", "navstack://tasks?q=fruit&", "tasks/1?filter=open", "tasks/1/edit?page=2", "tasks/new?page=2",
            "account?page=2",
        ] {
            XCTAssertEqual(router.failure("go " + link), .malformedLink(link), link)
            XCTAssertEqual(router.phase, before, link)
        }
    }

    // MARK: Helpers

    /// Every task of `ana` at every level, in the store's order (parents, then places).
    private func everyTask(_ router: Router) throws -> [TaskItem] {
        var query = ListQuery()
        query.scope = .everywhere
        return try router.store.page("ana", query, offset: 0, limit: 10_000)
    }

    /// The page of the list shown.
    private func listPage(_ router: Router) -> ListPage {
        guard case .list(let page) = router.shown.content else {
            XCTFail("not the list: \(router.shown.kind)")
            return ListPage(rows: [], total: 0, filter: .all, page: 0, pages: 0)
        }
        return page
    }

    /// The page of subtasks of the detail shown.
    private func subtasks(_ router: Router) -> ListPage {
        guard case .detail(_, let page) = router.shown.content else {
            XCTFail("not a detail: \(router.shown.kind)")
            return ListPage(rows: [], total: 0, filter: .all, page: 0, pages: 0)
        }
        return page
    }

    /// The task of the detail shown.
    private func shownTask(_ router: Router) -> TaskItem? {
        guard case .detail(let task, _) = router.shown.content else { return nil }
        return task
    }

    /// The screen shown, as text 60 columns wide.
    private func text(_ router: Router) -> String {
        var text = ""
        TextRenderer(width: 60).render(.screen(router.shown), to: &text)
        return text
    }
}
