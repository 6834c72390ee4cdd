import NavStackSQLite
import NavStackTime
import XCTest

@testable import NavStackCore

/// `sort KEY` on the list: parsed, refused when wrong, kept in the URL and the saved
/// place, and rows named as they are shown.
final class SortRouterTests: XCTestCase {
    private func titles(_ router: Router) -> [String] {
        guard case .list(let page) = router.shown.content else { return [] }
        return page.rows.map(\.task.title)
    }

    func testSortParses() throws {
        XCTAssertEqual(try Command.parse("sort due"), .sort(ListSort(.due)))
        XCTAssertEqual(try Command.parse("sort -Due"), .sort(ListSort(.due, reversed: true)))
        XCTAssertEqual(try Command.parse("SORT urgency"), .sort(ListSort(.urgency)))
        XCTAssertEqual(try Command.parse("sort none"), .sort(nil))
        for key in ListSort.Key.allCases {
            XCTAssertEqual(try Command.parse("sort -" + key.rawValue), .sort(ListSort(key, reversed: true)))
        }
    }

    func testBadSortsAreOneErrorListingTheKeys() throws {
        func failure(_ line: String) -> NavError? {
            do {
                _ = try Command.parse(line)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(failure("sort"), .missingArgument(.sort))
        XCTAssertEqual(failure("sort --due"), .badChoice(.sort, "--due"))
        XCTAssertEqual(failure("sort size"), .badChoice(.sort, "size"))
        XCTAssertEqual(failure("sort due title"), .badChoice(.sort, "due title"))
        XCTAssertEqual(failure("sort -none"), .badChoice(.sort, "-none"))
        let t = Catalog(.en)
        XCTAssertEqual(
            NavError.badChoice(.sort, "size").message(in: t),
            "'size' is not one of urgency, due, priority, created, modified, title, none: sort [-]KEY|none")
        XCTAssertEqual(
            NavError.missingArgument(.sort).message(in: t),
            "'sort' needs a key (urgency, due, priority, created, modified, title): sort [-]KEY|none")
    }

    func testABadSortChangesNothing() throws {
        var router = try makeRouter()
        try router.run("sort title")
        let before = router.phase
        XCTAssertNotNil(router.failure("sort --title"))
        XCTAssertEqual(router.phase, before)
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?sort=title")
    }

    func testTheURLKeepsTheSortAndGoRestoresIt() throws {
        var router = try makeRouter()
        try router.run("filter all", "find u", "sort -title")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=all&q=u&sort=-title")
        XCTAssertEqual(titles(router), ["Study SwiftUI", "Go for a walk", "Buy fruit"], "a u in each title or notes")
        let url = try XCTUnwrap(router.shown.link?.url)
        var other = try makeRouter()
        try other.run("go " + url)
        XCTAssertEqual(other.shown.link?.url, url)
        XCTAssertEqual(titles(other), titles(router))
        try router.run("sort none")
        XCTAssertEqual(router.shown.link?.url, "navstack://tasks?filter=all&q=u")
        for sort in ["due", "-due", "priority", "created", "-modified", "title", "urgency", "-urgency"] {
            let link = DeepLink.list(ListState(sort: ListSort(word: sort), page: 2))
            XCTAssertEqual(link.url, "navstack://tasks?sort=\(sort)&page=2")
            XCTAssertEqual(try DeepLink(parsing: link.url), link)
        }
        for bad in ["tasks?sort=size", "tasks?sort=--due", "tasks?sort=none", "tasks?sort=DUE", "tasks?sort="] {
            XCTAssertThrowsError(try DeepLink(parsing: bad), bad)
        }
    }

    func testTheSavedPlaceKeepsTheSort() throws {
        let store = try SQLiteStore(path: nil)
        store.clock = testClock
        let configuration = Router.Configuration(sampleForNewProfiles: true, clock: testClock)
        var router = Router(store: store, configuration: configuration)
        try router.run("login ana", "filter +home", "sort -priority")
        let again = Router(store: store, configuration: configuration, phase: try store.loadPhase())
        XCTAssertEqual(again.shown.link?.url, "navstack://tasks?filter=open&tag=home&sort=-priority")
    }

    func testRowsNameTheSortedRows() throws {
        var router = try makeRouter()
        try router.run("sort title")
        XCTAssertEqual(titles(router), ["Buy fruit", "Go for a walk", "Study SwiftUI"])
        try router.run("sort -title")
        try router.run("toggle 1")
        try router.run("open 3")
        XCTAssertEqual(router.shown.title, "Buy fruit")
        try router.run("back")
        XCTAssertEqual(titles(router), ["Study SwiftUI", "Go for a walk", "Buy fruit"])
        guard case .list(let page) = router.shown.content else { return XCTFail("not the list") }
        XCTAssertEqual(page.rows.map(\.task.done), [true, true, false])
        XCTAssertEqual(page.sort, ListSort(.title, reversed: true))
    }

    func testCompletionOffersTheKeys() throws {
        let router = try makeRouter()
        XCTAssertEqual(router.completions(for: "sort -d").candidates, ["-due"])
        XCTAssertEqual(
            router.completions(for: "sort ").candidates,
            [
                "urgency", "due", "priority", "created", "modified", "title", "none", "-urgency", "-due", "-priority", "-created",
                "-modified", "-title",
            ])
    }
}
