import NavStackSQLite
import XCTest

@testable import NavStackCore

final class RouterTests: XCTestCase {
    func testLaunchShowsTheLoginScreen() throws {
        let router = try makeRouter(signedIn: false)
        XCTAssertEqual(router.shown.kind, .login)
        XCTAssertNil(router.shown.tab)
        XCTAssertNil(router.shown.link)
        XCTAssertEqual(router.shown.actions, [.login, .go, .help, .quit, .exit])
    }

    func testLoginShowsTheTaskListWithTheSamples() throws {
        let router = try makeRouter()
        guard case .list(let page) = router.shown.content else { return XCTFail("not the list") }
        XCTAssertEqual(page.rows.map(\.task.title), ["Buy fruit", "Study SwiftUI", "Go for a walk"])
        XCTAssertEqual(page.rows.map(\.row), [1, 2, 3])
        XCTAssertEqual(page.total, 3)
        XCTAssertEqual(router.shown.link, .tasks)
    }

    func testOpenPushesAndBackPops() throws {
        var router = try makeRouter()
        try router.run("open 2")
        XCTAssertEqual(router.shown.path, [.detail(2)])
        XCTAssertEqual(router.shown.title, "Study SwiftUI")
        try router.run("edit")
        XCTAssertEqual(router.shown.path, [.detail(2), .edit(2)])
        try router.run("back")
        XCTAssertEqual(router.shown.path, [.detail(2)])
        try router.run("back")
        XCTAssertEqual(router.shown.path, [])
    }

    func testBackNPopsSeveralAndRefusesMoreThanThePathHolds() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit")
        XCTAssertEqual(router.failure("back 3"), .cannotGoBack(3, depth: 2))
        XCTAssertEqual(router.shown.path, [.detail(1), .edit(1)])
        try router.run("back 2")
        XCTAssertEqual(router.shown.path, [])
        XCTAssertEqual(router.failure("back"), .nothingToGoBack)
    }

    func testRootPopsToTheRootOfTheTab() throws {
        var router = try makeRouter()
        try router.run("open 3", "edit", "root")
        XCTAssertEqual(router.shown.kind, .list)
        XCTAssertEqual(router.shown.path, [])
    }

    func testTabsKeepTheirOwnStacks() throws {
        var router = try makeRouter()
        try router.run("open 1", "tab account", "settings")
        XCTAssertEqual(router.shown.path, [.settings])
        try router.run("tab tasks")
        XCTAssertEqual(router.shown.path, [.detail(1)])
        try router.run("tab account")
        XCTAssertEqual(router.shown.kind, .settings)
    }

    func testSelectingTheShownTabPopsItToItsRoot() throws {
        var router = try makeRouter()
        try router.run("open 1", "tab tasks")
        XCTAssertEqual(router.shown.kind, .list)
    }

    func testTheSheetIsNotPartOfThePath() throws {
        var router = try makeRouter()
        try router.run("new")
        XCTAssertEqual(router.shown.kind, .newTask)
        XCTAssertEqual(router.shown.sheet, .newTask)
        XCTAssertEqual(router.shown.path, [])
        XCTAssertEqual(router.shown.link, .newTask)
        XCTAssertEqual(router.failure("tab account"), .notAvailable(.tab, screen: .newTask, available: router.shown.actions))
        XCTAssertEqual(router.failure("root")?.isNotAvailable, true)
        try router.run("back")
        XCTAssertNil(router.shown.sheet)
    }

    func testSavingTheSheetPutsTheTaskAtTheTop() throws {
        var router = try makeRouter()
        try router.run("new", "title Water the plants", "notes Twice a week", "done on", "save")
        guard case .list(let page) = router.shown.content else { return XCTFail("not the list") }
        XCTAssertEqual(page.rows.first?.task.id, 4)
        XCTAssertEqual(page.rows.first?.task.fields, DraftFields(title: "Water the plants", notes: "Twice a week", done: true))
        XCTAssertEqual(page.total, 4)
        XCTAssertNil(router.shown.sheet)
    }

    func testAddInsertsAtTheTopAndPushesItsDetail() throws {
        var router = try makeRouter()
        try router.run("add Call mum")
        XCTAssertEqual(router.shown.path, [.detail(4)])
        XCTAssertEqual(router.shown.title, "Call mum")
        try router.run("back", "add")
        XCTAssertEqual(router.shown.title, "New task")
        try router.run("back")
        guard case .list(let page) = router.shown.content else { return XCTFail("not the list") }
        XCTAssertEqual(page.rows.map(\.task.id), [5, 4, 1, 2, 3])
    }

    func testEditSaveWritesTheStoreAndPops() throws {
        var router = try makeRouter()
        try router.run("open 2", "edit", "title Study NavigationStack", "done on", "save")
        XCTAssertEqual(router.shown.path, [.detail(2)])
        guard case .detail(let task, _) = router.shown.content else { return XCTFail("not the detail") }
        XCTAssertEqual(task.id, 2)
        XCTAssertEqual(task.fields, DraftFields(title: "Study NavigationStack", notes: "NavigationStack and routes", done: true))
    }

    func testCancelDiscardsTheDraft() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit", "title Something else", "cancel")
        XCTAssertEqual(router.shown.title, "Buy fruit")
        try router.run("edit")
        guard case .draft(let draft, _, _) = router.shown.content else { return XCTFail("not a draft") }
        XCTAssertFalse(draft.isDirty)
        XCTAssertEqual(draft.fields.title, "Buy fruit")
    }

    func testTheGuardRefusesToDropADirtyDraft() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit", "notes changed")
        let before = router.phase
        for line in ["back", "root", "tab tasks", "go tasks", "go tasks/2", "go tasks/new", "go tasks/1"] {
            XCTAssertEqual(router.failure(line), .unsavedDraft(try Command.parse(line)!.word), line)
            XCTAssertEqual(router.phase, before, line)
        }
        try router.run("back!")
        XCTAssertEqual(router.shown.path, [.detail(1)])
        guard case .detail(let task, _) = router.shown.content else { return XCTFail("not the detail") }
        XCTAssertEqual(task.notes, "Apples, bananas, grapes")
    }

    func testTheGuardFollowsADraftIntoTheOtherTab() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit", "notes changed", "go account/about")
        XCTAssertEqual(router.shown.kind, .about, "the other tab's path is replaced; the draft stays in its own")
        try router.run("tab account")
        XCTAssertEqual(router.failure("go tasks"), .unsavedDraft(.go))
        try router.run("tab tasks")
        XCTAssertEqual(router.shown.kind, .edit)
        guard case .draft(let draft, _, _) = router.shown.content else { return XCTFail("not a draft") }
        XCTAssertEqual(draft.fields.notes, "changed")
    }

    func testACleanDraftIsDroppedQuietly() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit", "back", "back")
        XCTAssertEqual(router.session?.drafts, [:])
    }

    func testGoingToTheLinkOfTheShownEditScreenKeepsItsDraft() throws {
        var router = try makeRouter()
        try router.run("open 2", "edit", "title Typed", "go tasks/2/edit")
        guard case .draft(let draft, _, _) = router.shown.content else { return XCTFail("not a draft") }
        XCTAssertEqual(draft.fields.title, "Typed")
    }

    func testTheSheetGuardsItsDraftToo() throws {
        var router = try makeRouter()
        try router.run("new", "title Half")
        XCTAssertEqual(router.failure("back"), .unsavedDraft(.back))
        XCTAssertEqual(router.failure("go account"), .unsavedDraft(.go))
        try router.run("back!")
        XCTAssertNil(router.shown.sheet)
    }

    func testLogoutDiscardsEverything() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit", "notes typed", "tab account", "settings", "back", "logout")
        XCTAssertEqual(router.phase, .signedOut(pending: nil))
        try router.run("login ana")
        XCTAssertEqual(router.session, Session(user: "ana"))
    }

    func testLogoutIsOnlyOnTheAccountRoot() throws {
        var router = try makeRouter()
        XCTAssertEqual(router.failure("logout")?.isNotAvailable, true)
        try router.run("tab account", "about")
        XCTAssertEqual(router.failure("logout")?.isNotAvailable, true)
    }

    func testAGoWhileSignedOutIsOpenedByLogin() throws {
        var router = try makeRouter(signedIn: false)
        try router.run("go tasks/2/edit")
        XCTAssertEqual(router.shown.content, .login(pending: .editTask(2)))
        try router.run("login ana")
        XCTAssertEqual(router.shown.kind, .edit)
        XCTAssertEqual(router.shown.path, [.detail(2), .edit(2)])
    }

    /// As `go` would fail signed in, the link fails; `login` itself still signs in, at
    /// the link's tab root, and hands the failure on once.
    func testAPendingLinkToAMissingTaskIsNotOpenedAndItsFailureHandedOn() throws {
        var router = try makeRouter(signedIn: false)
        try router.run("go tasks/99/edit", "login ana")
        XCTAssertEqual(router.shown.kind, .list)
        XCTAssertEqual(router.shown.path, [])
        XCTAssertEqual(router.takeLinkFailure(), .linkNotOpened(url: "navstack://tasks/99/edit", id: "99"))
        XCTAssertNil(router.takeLinkFailure())
        XCTAssertEqual(
            NavError.linkNotOpened(url: "navstack://tasks/99", id: "99").message,
            "signed in, but navstack://tasks/99 was not opened: there is no task 99")
        try router.run("open 1")
        XCTAssertNil(router.takeLinkFailure())
    }

    func testAddWithoutATitleNamesTheTaskInTheSessionsLanguage() throws {
        for (language, title) in [(Language.en, "New task"), (.pt, "Nova tarefa"), (.es, "Nueva tarea")] {
            var router = Router(store: try SQLiteStore(path: nil), configuration: .init(catalog: Catalog(language)))
            try router.run("login ana", "add")
            XCTAssertEqual(router.shown.title, title, "\(language)")
        }
    }

    func testSignedOutOnlyLoginGoHelpAndQuitAreAvailable() throws {
        var router = try makeRouter(signedIn: false)
        for line in ["open 1", "where", "back", "tab tasks", "logout", "undo"] {
            XCTAssertEqual(router.failure(line)?.isNotAvailable, true, line)
        }
    }

    func testDeleteFromTheDetailPopsToTheList() throws {
        var router = try makeRouter()
        try router.run("open 2", "delete")
        XCTAssertEqual(router.shown.kind, .list)
        XCTAssertEqual(router.failure("go tasks/2"), .noSuchTask("2"))
    }

    func testARouteWhoseTaskVanishedShowsNotFound() throws {
        var router = try makeRouter()
        try router.run("open 2")
        _ = try router.store.delete("ana", id: 2)
        XCTAssertEqual(router.shown.kind, .notFound)
        XCTAssertEqual(router.shown.title, "Task not found")
        XCTAssertEqual(router.shown.content, .notFound(2))
        XCTAssertTrue(router.shown.actions.contains(.back))
        XCTAssertTrue(router.shown.actions.contains(.root))
        XCTAssertEqual(router.failure("edit")?.isNotAvailable, true)
        try router.run("root")
        XCTAssertEqual(router.shown.kind, .list)
    }

    func testRowCommandsOnTheListAndTheDetail() throws {
        var router = try makeRouter()
        try router.run("toggle 1")
        XCTAssertEqual(try router.store.task("ana", id: 1)?.done, true)
        XCTAssertEqual(router.failure("toggle"), .needsRow(.toggle))
        XCTAssertEqual(router.failure("toggle 9"), .noSuchRow(9, rows: 3))
        try router.run("open 1")
        // On a detail screen a row is one of the task's subtasks; it has none yet.
        XCTAssertEqual(router.failure("toggle 1"), .noSuchRow(1, rows: 0))
        try router.run("toggle")
        XCTAssertEqual(try router.store.task("ana", id: 1)?.done, false)
        try router.run("back", "delete 3")
        XCTAssertNil(try router.store.task("ana", id: 3))
    }

    func testFiltersFindAndPages() throws {
        var router = try makeRouter(pageSize: 2)
        func page() -> ListPage {
            guard case .list(let page) = router.shown.content else {
                XCTFail("not the list"); return ListPage(rows: [], total: 0, filter: .all, page: 0, pages: 0)
            }
            return page
        }
        XCTAssertEqual(page().pages, 2)
        try router.run("next")
        XCTAssertEqual(page().page, 2)
        XCTAssertEqual(page().rows.map(\.row), [3])
        XCTAssertEqual(router.failure("next"), .alreadyLastPage(pages: 2))
        try router.run("open 3", "back")
        XCTAssertEqual(page().page, 2, "the list keeps its page while you go deeper")
        try router.run("prev")
        XCTAssertEqual(router.failure("prev"), .alreadyFirstPage)
        XCTAssertEqual(router.failure("page 3"), .noSuchPage(3, pages: 2))
        try router.run("page 2", "filter done")
        XCTAssertEqual(page().page, 1)
        XCTAssertEqual(page().rows.map(\.task.id), [3])
        try router.run("filter open", "find SWIFT")
        XCTAssertEqual(page().rows.map(\.task.id), [2])
        XCTAssertEqual(page().rows.map(\.row), [1])
        try router.run("open 1")
        XCTAssertEqual(router.shown.path, [.detail(2)], "rows count over the filtered list")
        try router.run("back", "find")
        XCTAssertEqual(page().search, nil)
        XCTAssertEqual(page().filter, .open)
        XCTAssertEqual(page().total, 2)
    }

    func testUndoAndRedoWalkTheDataChanges() throws {
        var router = try makeRouter()
        XCTAssertEqual(router.failure("undo"), .nothingToUndo)
        XCTAssertEqual(router.failure("redo"), .nothingToRedo)
        try router.run("toggle 1", "delete 2", "add Third", "edit", "title Renamed", "save", "back")
        func titles() throws -> [String] { try router.store.page("ana", ListQuery(), offset: 0, limit: 10).map(\.title) }
        XCTAssertEqual(try titles(), ["Renamed", "Buy fruit", "Go for a walk"])
        try router.run("undo")
        XCTAssertEqual(try titles(), ["Third", "Buy fruit", "Go for a walk"], "undo the save")
        try router.run("undo")
        XCTAssertEqual(try titles(), ["Buy fruit", "Go for a walk"], "undo the add")
        try router.run("undo")
        XCTAssertEqual(
            try router.store.page("ana", ListQuery(), offset: 0, limit: 10).map(\.id), [1, 2, 3],
            "an undone delete brings the task back with its id and its place")
        try router.run("undo")
        XCTAssertEqual(try router.store.task("ana", id: 1)?.done, false)
        XCTAssertEqual(router.failure("undo"), .nothingToUndo)
        try router.run("redo", "redo")
        XCTAssertEqual(try titles(), ["Buy fruit", "Go for a walk"])
        try router.run("toggle 2")
        XCTAssertEqual(router.failure("redo"), .nothingToRedo, "a new change clears what could be redone")
        XCTAssertEqual(router.shown.kind, .list, "undo changes data, not where you are")
    }

    func testProfilesHaveTheirOwnTasks() throws {
        var router = try makeRouter()
        try router.run("add Only ana's", "tab account", "logout", "login bob")
        guard case .list(let page) = router.shown.content else { return XCTFail("not the list") }
        XCTAssertEqual(page.total, 3)
        XCTAssertFalse(page.rows.contains { $0.task.title == "Only ana's" })
        XCTAssertEqual(router.failure("go tasks/4"), .noSuchTask("4"))
    }

    func testAFailedCommandChangesNothing() throws {
        var router = try makeRouter()
        try router.run("open 1", "edit", "title X")
        let before = router.phase
        for line in [
            "open 1", "title    ", "done maybe", "back 0", "back -1", "back 99999999999999999999", "go nowhere",
            "go navstack://tasks/9", "tab nowhere", "edit 2",
        ] {
            XCTAssertNotNil(router.failure(line), line)
            XCTAssertEqual(router.phase, before, line)
        }
    }
}

extension NavError {
    var isNotAvailable: Bool {
        if case .notAvailable = self { return true }
        return false
    }
}
