import NavStackCore
import NavStackTime
import XCTest

/// The agenda tab as the router runs it (the clock of the tests: 2026-11-27T09:00:00Z, UTC).
final class AgendaRouterTests: XCTestCase {
    private func agenda(_ router: Router) throws -> AgendaPage {
        guard case .agenda(let page) = router.shown.content else {
            XCTFail("not the agenda: \(router.shown.kind)")
            throw NavError.nothingToGoBack
        }
        return page
    }

    func testSectionsAreTheDaysOfTheEarlierDateAndRowsAreNumberedAcrossThem() throws {
        var router = try makeRouter(pageSize: 4)
        try router.run(
            "add Later due:2026-12-20", "root", "add Soon scheduled:2026-11-29T08:00 due:2026-12-25", "root",
            "add Today due:2026-11-27T23:00", "root", "add Late due:2026-11-26T23:59", "root",
            "add Waiting due:2026-11-28 wait:2026-11-28", "root", "add Done due:2026-11-27", "toggle", "root",
            "add Sixth day due:2026-12-03", "root", "tab agenda")
        let first = try agenda(router)
        XCTAssertEqual(first.sections.map(\.label.key), ["overdue", "today", "2026-11-29", "2026-12-03"])
        XCTAssertEqual(first.sections.flatMap(\.rows).map(\.row), [1, 2, 3, 4])
        XCTAssertEqual(first.sections.flatMap(\.rows).map(\.task.title), ["Late", "Today", "Soon", "Sixth day"])
        XCTAssertTrue(first.more)
        try router.run("next")
        let second = try agenda(router)
        XCTAssertEqual(second.sections.map(\.label), [.later])
        XCTAssertEqual(second.sections.flatMap(\.rows).map(\.row), [5])
        XCTAssertFalse(second.more)
        XCTAssertEqual(router.failure("next"), .alreadyLastPage(pages: 2))
        XCTAssertEqual(router.failure("page 3"), .noSuchPage(3, pages: 2))
        // Row 5 is on the page shown.
        try router.run("open 5")
        XCTAssertEqual(router.shown.title, "Later")
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/4")
    }

    func testADayShowsDoneTasksAndNextAndPrevReplaceIt() throws {
        var router = try makeRouter()
        try router.run("add Done due:2026-11-28", "toggle", "root", "add Open scheduled:2026-11-28T10:00", "root", "tab agenda")
        try router.run("day tomorrow")
        XCTAssertEqual(router.session?.agendaPath, [.day(CivilDate(year: 2026, month: 11, day: 28)!)])
        guard case .day(_, let page) = router.shown.content else { return XCTFail("not a day") }
        XCTAssertEqual(page.rows.map(\.task.title), ["Done", "Open"])
        try router.run("next", "next", "prev")
        XCTAssertEqual(router.session?.agendaPath, [.day(CivilDate(year: 2026, month: 11, day: 29)!)])
        try router.run("day 2026-02-28", "next")
        XCTAssertEqual(router.session?.agendaPath, [.day(CivilDate(year: 2026, month: 3, day: 1)!)])
        try router.run("back")
        XCTAssertEqual(router.shown.kind, .agenda)
        XCTAssertEqual(router.failure("day 2026-02-30"), .badDate("2026-02-30"))
        XCTAssertEqual(router.session?.agendaPath, [])
    }

    /// The agenda's days are those a link names: `next` past 9999-12-31, `prev` before
    /// 0001-01-01, `day` and `go` beyond them are refused and change nothing.
    func testDaysEndWhereLinksEnd() throws {
        var router = try makeRouter()
        try router.run("tab agenda", "day 9999-12-31")
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/9999-12-31")
        XCTAssertEqual(router.failure("next"), .agendaBounds)
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/9999-12-31")
        try router.run("go agenda/0001-01-01")
        XCTAssertEqual(router.failure("prev"), .agendaBounds)
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/0001-01-01")
        XCTAssertEqual(router.failure("day +8000y"), .agendaBounds)
        XCTAssertNotNil(router.failure("go agenda/0000-12-31"))
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/0001-01-01")
        // Every day it shows opens again from its link.
        try router.run("next")
        let url = try XCTUnwrap(router.session?.link.url)
        try router.run("root", "go " + url.dropFirst("navstack://".count))
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/0001-01-02")
    }

    func testTheAgendaAddsNoSheetAndOpensATaskWhereItIs() throws {
        var router = try makeRouter()
        try router.run("add Parent", "add Child due:today", "root", "tab agenda")
        // The child is opened on its own: the agenda's path starts where it opened.
        try router.run("open 1")
        XCTAssertEqual(router.session?.agendaPath, [.detail(5)])
        XCTAssertFalse(router.shown.actions.contains(.new))
        XCTAssertEqual(router.failure("new"), .notAvailable(.new, screen: .detail, available: router.shown.actions))
        // Its subtasks open after it.
        try router.run("add Grandchild")
        XCTAssertEqual(router.session?.agendaPath, [.detail(5), .detail(6)])
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/5/6")
    }

    func testAPathThatNoLongerMatchesTheTreeIsTheTaskShownAlone() throws {
        var router = try makeRouter()
        try router.run("add Parent due:today", "add Child", "root", "go agenda/4/5")
        XCTAssertEqual(router.session?.agendaPath, [.detail(4), .detail(5)])
        // Another writer makes the child a task of its own.
        _ = try router.store.move("ana", id: 5, under: nil)
        _ = try router.show()
        XCTAssertEqual(router.session?.agendaPath, [.detail(5)])
        XCTAssertEqual(router.session?.link.url, "navstack://agenda/5")
    }

    func testBothTabsEditOneDraftOfATask() throws {
        var router = try makeRouter()
        try router.run("go tasks/1/edit", "title Both", "tab agenda", "go agenda/1/edit")
        guard case .draft(let draft, _, _) = router.shown.content else { return XCTFail("not a draft") }
        XCTAssertEqual(draft.fields.title, "Both")
        try router.run("save")
        XCTAssertEqual(try router.store.task("ana", id: 1)?.title, "Both")
        // The tasks tab's edit screen of it is still open, with nothing left to save.
        try router.run("tab tasks")
        XCTAssertEqual(router.shown.kind, .edit)
        guard case .draft(let left, _, _) = router.shown.content else { return XCTFail("not a draft") }
        XCTAssertFalse(left.isDirty)
        XCTAssertEqual(left.original.title, "Both")
        // Nothing is left to guard: it closes like any clean draft.
        try router.run("back")
        XCTAssertEqual(router.shown.kind, .detail)
        // A draft cancelled on one tab is gone from the other too.
        try router.run("edit", "title Typed", "tab agenda", "root", "go agenda/1/edit", "cancel", "tab tasks")
        guard case .draft(let fresh, _, _) = router.shown.content else { return XCTFail("not a draft") }
        XCTAssertEqual(fresh.fields.title, "Both")
        XCTAssertFalse(fresh.isDirty)
    }
}
