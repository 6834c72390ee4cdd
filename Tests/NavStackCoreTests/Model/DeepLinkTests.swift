import NavStackCore
import NavStackTime
import XCTest

final class DeepLinkTests: XCTestCase {
    private let all: [DeepLink] = [.tasks, .task(2), .editTask(2), .newTask, .account, .settings, .about]

    func testEveryLinkPrintsAndParsesBack() throws {
        let urls = all.map(\.url)
        XCTAssertEqual(
            urls,
            [
                "navstack://tasks", "navstack://tasks/2", "navstack://tasks/2/edit", "navstack://tasks/new",
                "navstack://account", "navstack://account/settings", "navstack://account/about",
            ])
        for link in all {
            XCTAssertEqual(try DeepLink(parsing: link.url), link)
            XCTAssertEqual(try DeepLink(parsing: link.path), link, "the part after the scheme is enough")
        }
        XCTAssertEqual(try DeepLink(parsing: "NAVSTACK://tasks/7"), .task(7))
        // Chains, written in one go.
        let chains: [(DeepLink, String)] = [
            (.detail(chain: [1, 40, 999_999_999_999], page: 1), "tasks/1/40/999999999999"),
            (.detail(chain: [1, 4], page: 3), "tasks/1/4?page=3"),
            (.edit(chain: [10, 2]), "tasks/10/2/edit"),
            (.sheet(under: [5]), "tasks/5/new"),
            (.list(ListState(filter: .open, page: 2)), "tasks?filter=open&page=2"),
            (.agenda(page: 1), "agenda"),
            (.agenda(page: 3), "agenda?page=3"),
            (.day(december(1), page: 1), "agenda/2026-12-01"),
            (.day(december(1), page: 2), "agenda/2026-12-01?page=2"),
            (.agendaTask(day: nil, chain: [4], editing: false, page: 1), "agenda/4"),
            (.agendaTask(day: nil, chain: [4, 9], editing: false, page: 2), "agenda/4/9?page=2"),
            (.agendaTask(day: nil, chain: [4], editing: true, page: 1), "agenda/4/edit"),
            (.agendaTask(day: december(1), chain: [4, 9], editing: false, page: 1), "agenda/2026-12-01/4/9"),
            (.agendaTask(day: december(1), chain: [4], editing: true, page: 1), "agenda/2026-12-01/4/edit"),
        ]
        for (link, path) in chains {
            XCTAssertEqual(link.path, path)
            XCTAssertEqual(link.url, "navstack://" + path)
            XCTAssertEqual(try DeepLink(parsing: link.url), link)
        }
        // The bytes lent for a screen's line are the URL's, however the link is written.
        let lent: [DeepLink] =
            chains.map(\.0) + [
                .detail(chain: [Int.max, Int.min, 0, -7], page: 1), .edit(chain: [Int.min]), .edit(chain: []),
                .detail(chain: [], page: 1), .list(ListState()), .account, .settings, .about,
                .list(ListState(filter: .done, search: "café & co", page: 4)),
            ]
        for link in lent {
            XCTAssertEqual(link.withURLBytes { String(decoding: $0, as: UTF8.self) }, link.url, "\(link)")
        }
    }

    private func december(_ day: Int) -> CivilDate { CivilDate(year: 2026, month: 12, day: day)! }

    func testAgendaLinksSynthesiseTheAgendaPath() {
        let links: [(DeepLink, [Route])] = [
            (.agenda(page: 2), []),
            (.day(december(1), page: 1), [.day(december(1))]),
            (.agendaTask(day: nil, chain: [4, 9], editing: false, page: 1), [.detail(4), .detail(9)]),
            (.agendaTask(day: december(1), chain: [4], editing: true, page: 1), [.day(december(1)), .detail(4), .edit(4)]),
        ]
        for (link, routes) in links {
            XCTAssertEqual(link.tab, .agenda)
            XCTAssertEqual(link.routes, routes, link.url)
            let page = if case .agenda(let page) = link { page } else { 1 }
            XCTAssertEqual(DeepLink(tab: .agenda, path: routes, sheet: nil, page: page), link)
            for route in routes { XCTAssertEqual(Route(description: route.description), route) }
        }
    }

    func testLinksSynthesiseTheBackStack() {
        XCTAssertEqual(DeepLink.editTask(2).routes, [.detail(2), .edit(2)])
        XCTAssertEqual(DeepLink.editTask(2).tab, .tasks)
        XCTAssertEqual(DeepLink.newTask.routes, [])
        XCTAssertEqual(DeepLink.newTask.sheet, .newTask)
        XCTAssertEqual(DeepLink.settings.routes, [.settings])
        XCTAssertEqual(DeepLink.about.tab, .account)
    }

    func testTheLinkOfAStateRebuildsIt() {
        for link in all {
            XCTAssertEqual(DeepLink(tab: link.tab, path: link.routes, sheet: link.sheet), link)
        }
    }

    func testBadLinksAreRefused() {
        func failure(_ text: String) -> NavError? {
            do {
                _ = try DeepLink(parsing: text)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(failure("http://tasks/1"), .foreignScheme("http"))
        XCTAssertEqual(failure("mailto:ana@example.com"), .foreignScheme("mailto"))
        for bad in [
            "tasks/1/edit/extra", "tasks/", "tasks//edit", "task/1", "tasks/abc", "tasks/-1", "tasks/1/delete",
            "navstack:tasks", "account/profile", "", "navstack://", "tasks?x=1", "tasks/1#top",
            "agenda/", "agenda/edit", "agenda/2026-02-30", "agenda/2026-12-1", "agenda/2026-12-01/edit", "agenda/x",
            "agenda/2026-12-01/2026-12-02", "agenda/4/edit/9", "agenda?filter=open", "agenda/4/edit?page=2",
        ] {
            XCTAssertEqual(failure(bad), .malformedLink(bad), bad)
        }
        XCTAssertEqual(failure("tasks/0"), .noSuchTask("0"))
        XCTAssertEqual(failure("tasks/99999999999999999999"), .noSuchTask("99999999999999999999"))
    }
}
