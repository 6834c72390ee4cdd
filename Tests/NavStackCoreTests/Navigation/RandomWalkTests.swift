import TestSeeds
import XCTest

@testable import NavStackCore

/// Properties over random walks: any line typed on any screen.
final class RandomWalkTests: XCTestCase {
    /// Lines a walk picks from: good and bad, on every screen.
    private static let lines = [
        "open 1", "open 2", "open 3", "open 9", "add", "add Walked", "new", "toggle 1", "toggle", "delete 2", "delete",
        "filter open", "filter done", "filter all", "find a", "find", "next", "prev", "page 2", "edit", "title Walk",
        "title ", "notes note", "notes", "done on", "done off", "save", "cancel", "back", "back 2", "back!", "root",
        "tab tasks", "tab account", "settings", "about", "where", "help", "go tasks", "go tasks/1", "go tasks/2/edit",
        "go tasks/new", "go account/settings", "go account/about", "go tasks/77", "go http://x", "opne 1", "logout",
        "login ana", "undo",
        // The agenda, and dates that put tasks on it.
        "tab agenda", "day today", "day tomorrow", "day +2d", "go agenda", "go agenda/2026-11-28", "go agenda/1",
        "go agenda/2026-11-27/2/edit", "go agenda?page=2", "due today", "due tomorrow", "scheduled +1d", "due none",
        // Filters in Taskwarrior's words, good and bad, and their links.
        "filter +home -work", "filter status:pending due.before:eow", "filter due:tomorrow", "filter all due.after:yesterday",
        "filter +", "filter due.before:", "filter foo:bar", "filter +a +A", "go tasks?tag=b,a&notag=c&due=%2B1d",
    ]

    private func walk(seed: UInt64, steps: Int) throws -> [Router] {
        var rng = SplitMix64(state: seed)
        var router = try makeRouter(pageSize: 2)
        var states: [Router] = []
        for _ in 0..<steps {
            let line = Self.lines.randomElement(using: &rng)!
            let before = router.phase
            let tasksBefore = try router.store.page("ana", ListQuery(), offset: 0, limit: 1000)
            if let error = router.failure(line) {
                XCTAssertEqual(router.phase, before, "\(line) failed with \(error) but changed the state")
                XCTAssertEqual(
                    try router.store.page("ana", ListQuery(), offset: 0, limit: 1000), tasksBefore,
                    "\(line) failed with \(error) but changed the store")
            }
            // The words a screen shows are the ones its state makes, but for those only
            // another writer's changes add.
            let shown = router.shown
            XCTAssertEqual(
                shown.actions.filter { $0 != .saveKeepingMine && $0 != .theirs },
                Router.availableWords(on: shown.kind, in: router.session), "after \(line)")
            var text = ""
            TextRenderer(width: 40).render(.screen(shown), to: &text)
            for row in text.split(separator: "\n") { XCTAssertLessThanOrEqual(row.displayWidth, 40) }
            if router.session != nil { states.append(router) }
        }
        return states
    }

    func testGoingToTheURLOfAnyStateRebuildsItFromAnyOther() throws {
        var checked = 0
        forEachSeed(1...20) { seed in
            let states = try walk(seed: seed, steps: 150)
            var rng = SplitMix64(state: seed &* 7919)
            for _ in 0..<150 {
                guard var target = states.randomElement(using: &rng), var from = states.randomElement(using: &rng)
                else { continue }
                // The state as the store has it now (the walk went on after it): a page
                // past the last is the last.
                _ = try target.show()
                guard let goal = target.session else { continue }
                let link = goal.link
                if let id = link.taskID, try target.store.task("ana", id: id) == nil {
                    XCTAssertEqual(from.failure("go " + link.url), .noSuchTask(String(id)))
                    continue
                }
                if let error = from.failure("go " + link.url) {
                    guard case .unsavedDraft = error else { return XCTFail("go \(link.url): \(error)") }
                    XCTAssertTrue(from.session!.drafts.values.contains(where: \.isDirty))
                    continue
                }
                XCTAssertEqual(from.session?.tab, goal.tab, link.url)
                XCTAssertEqual(from.session?.path, goal.path, link.url)
                XCTAssertEqual(from.session?.sheet, goal.sheet, link.url)
                XCTAssertEqual(from.shown.link, link)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 1000, "the walk should reach many states")
    }

    func testTheURLOfEveryScreenNamesItsTabPathAndSheet() throws {
        forEachSeed(100...110) { seed in
            for state in try walk(seed: seed, steps: 100) {
                let session = state.session!
                XCTAssertEqual(session.link.tab, session.tab)
                XCTAssertEqual(session.link.routes, session.path)
                XCTAssertEqual(session.link.sheet, session.sheet)
            }
        }
    }
}
