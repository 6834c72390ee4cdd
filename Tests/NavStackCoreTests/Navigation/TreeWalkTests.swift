import NavStackSQLite
import TestSeeds
import XCTest

@testable import NavStackCore

/// Properties over random walks through a random tree of tasks: any line, good or bad,
/// typed on any screen, never breaks what the tree and the path promise.
final class TreeWalkTests: XCTestCase {
    /// Words titles and searches are made of.
    private static let words = ["apple", "bread", "call", "desk", "email", "fern", "garden", "house", "ink", "jam"]

    /// A router on the list, over the sample tasks and more under random parents, built
    /// through the store: `tasks` in all, some seven levels deep or more. Its ids are
    /// 1 … `tasks`.
    private func makeTree(_ rng: inout SplitMix64, tasks: Int) throws -> Router {
        let router = try makeRouter(pageSize: 3)
        var ids = [1, 2, 3]
        while ids.count < tasks {
            let roll = Int.random(in: 0..<10, using: &rng)
            // The first six make a chain seven levels deep; then a new top-level task, a
            // subtask of the last one (chains grow deeper), or one anywhere.
            let parent: Int? =
                ids.count < 9 || (2..<6).contains(roll)
                ? ids.last
                : roll < 2 ? nil : ids.randomElement(using: &rng)
            let title = Self.words.randomElement(using: &rng)! + " \(ids.count + 1)"
            let fields = DraftFields(title: title, notes: Self.words.randomElement(using: &rng)!, done: Bool.random(using: &rng))
            ids.append(try router.store.insertAtTop("ana", fields, under: parent, as: .add).id)
        }
        XCTAssertEqual(ids, Array(1...tasks))
        return router
    }

    /// A random line: mostly one of the commands the screen shown offers, with random
    /// rows and ids; else any line, good or bad, for any screen. Ids go a little past the
    /// tree's, so some name no task.
    private func randomLine(_ rng: inout SplitMix64, router: Router, tasks: Int) throws -> String {
        let words = router.shown.actions.filter { ![.help, .quit, .exit, .logout].contains($0) }
        // Undo and redo less often than the rest: the tree was built by changes they undo.
        var word = words.randomElement(using: &rng)
        if word == .undo || word == .redo { word = words.randomElement(using: &rng) }
        guard Int.random(in: 0..<4, using: &rng) > 0, let word else {
            return try anyLine(&rng, router: router, tasks: tasks)
        }
        let row = Int.random(in: 1...4, using: &rng)
        let text = Self.words.randomElement(using: &rng)!
        // Back to a task on the path, mostly.
        let onPath = router.session?.tasksPath.compactMap(\.taskID).randomElement(using: &rng)
        let id = Bool.random(using: &rng) ? onPath ?? 1 : Int.random(in: 1...(tasks + 3), using: &rng)
        switch word {
        case .open: return "open \(row)"
        case .add: return Bool.random(using: &rng) ? "add" : "add Walked \(text)"
        case .toggle, .delete: return Bool.random(using: &rng) ? word.rawValue : "\(word.rawValue) \(row)"
        case .move: return Int.random(in: 0..<3, using: &rng) == 0 ? "move \(row) to top" : "move \(row) to \(id)"
        case .filter: return "filter " + ["all", "open", "done"].randomElement(using: &rng)!
        case .find: return ["find \(text)", "find", "find \(text.prefix(1))"].randomElement(using: &rng)!
        case .page: return "page \(Int.random(in: 1...3, using: &rng))"
        case .title: return "title Walk \(text)"
        case .notes: return "notes \(text)"
        case .done: return Bool.random(using: &rng) ? "done on" : "done off"
        case .back: return ["back", "back 2", "back to \(id)", "back to list"].randomElement(using: &rng)!
        case .backDiscarding: return Bool.random(using: &rng) ? "back!" : "back! to \(id)"
        case .tab: return Bool.random(using: &rng) ? "tab tasks" : "tab account"
        case .go: return try goLine(&rng, router: router, tasks: tasks)
        default: return word.rawValue
        }
    }

    /// Any line, good or bad, for any screen of the tasks tab and some of the account's.
    private func anyLine(_ rng: inout SplitMix64, router: Router, tasks: Int) throws -> String {
        let row = Int.random(in: 1...5, using: &rng)
        let id = Int.random(in: 1...(tasks + 3), using: &rng)
        let word = Self.words.randomElement(using: &rng)!
        switch Int.random(in: 0..<30, using: &rng) {
        case 0: return "open \(row)"
        case 1: return ["add", "add Walked", "new", "edit", "cancel"].randomElement(using: &rng)!
        case 2: return ["title Walk \(word)", "title ", "notes \(word)", "done on", "done maybe"].randomElement(using: &rng)!
        case 3: return ["save", "save!", "theirs"].randomElement(using: &rng)!
        case 4: return ["toggle \(row)", "toggle", "delete \(row)", "delete"].randomElement(using: &rng)!
        case 5: return ["yes", "no"].randomElement(using: &rng)!
        case 6: return "move \(row) to \(id)"
        case 7: return "move \(row) to top"
        case 8: return ["back", "back 2", "back!", "back 0"].randomElement(using: &rng)!
        case 9: return "back to \(id)"
        case 10: return ["back to list", "back! to \(id)", "root", "back to me"].randomElement(using: &rng)!
        case 11: return ["next", "prev", "page 2", "page 1"].randomElement(using: &rng)!
        case 12: return ["find \(word)", "find", "filter open", "filter done", "filter all"].randomElement(using: &rng)!
        case 13, 14, 15: return try goLine(&rng, router: router, tasks: tasks)
        case 16: return ["undo", "redo", "where"].randomElement(using: &rng)!
        case 17: return ["tab account", "tab tasks", "settings", "about", "help"].randomElement(using: &rng)!
        case 18: return ["opne 1", "move \(row)", "move \(row) to", "move x to top", "back to", "go"].randomElement(using: &rng)!
        default: return try randomLine(&rng, router: router, tasks: tasks)
        }
    }

    /// A `go` line: short and long forms of task links (some contradicting the tree, some
    /// naming no task), list states, sheets and edit screens, the account tab, bad links.
    private func goLine(_ rng: inout SplitMix64, router: Router, tasks: Int) throws -> String {
        let id = Int.random(in: 1...(tasks + 3), using: &rng)
        let letter = Self.words.randomElement(using: &rng)!.prefix(1)
        switch Int.random(in: 0..<8, using: &rng) {
        case 0, 1: return "go tasks/\(id)"
        case 2:
            // The long form as the tree has it now, or with a wrong first link.
            let chain = try router.store.chain("ana", id: id).map(\.id)
            guard !chain.isEmpty else { return "go tasks/\(id)" }
            if Bool.random(using: &rng) { return "go " + DeepLink.detail(chain: chain, page: 1).url }
            return "go " + DeepLink.detail(chain: [Int.random(in: 1...tasks, using: &rng)] + chain, page: 1).url
        case 3: return ["go tasks/\(id)/edit", "go tasks/\(id)/new", "go tasks/\(id)?page=2"].randomElement(using: &rng)!
        case 4:
            return ["go tasks?filter=open&q=\(letter)&page=2", "go tasks?q=\(letter)", "go tasks?page=2", "go tasks"]
                .randomElement(using: &rng)!
        case 5: return ["go tasks/new", "go account", "go account/settings", "go account/about"].randomElement(using: &rng)!
        case 6:
            return ["go tasks?q=%zz", "go tasks?page=0", "go tasks?filter=some", "go tasks/0", "go http://x"].randomElement(using: &rng)!
        default:
            // Where the walk was a moment ago.
            return "go " + (router.shown.link?.url ?? "tasks")
        }
    }

    /// What one walk found wrong, by invariant, with the first cases to replay.
    private struct Findings {
        var seed: UInt64
        var cases: [String: [String]] = [:]

        mutating func note(_ invariant: String, _ detail: @autoclosure () -> String) {
            cases[invariant, default: []].append(detail())
        }

        func report() {
            for (invariant, found) in cases.sorted(by: { $0.key < $1.key }) {
                XCTFail("seed \(seed): \(invariant): \(found.count) times; first: \(found.prefix(3).joined(separator: " | "))")
            }
        }
    }

    /// Every task of `ana` at every level, in the store's order.
    private func everyTask(_ router: Router) throws -> [TaskItem] {
        var query = ListQuery()
        query.scope = .everywhere
        return try router.store.page("ana", query, offset: 0, limit: 10_000)
    }

    /// Walks `steps` random lines from a random tree and checks every invariant after
    /// each; returns the states whose URL was opened from elsewhere.
    private func walk(seed: UInt64, steps: Int) throws -> Set<Session> {
        var rng = SplitMix64(state: seed)
        let tasks = 40
        var router = try makeTree(&rng, tasks: tasks)
        let deepest = try (1...tasks).map { try router.store.chain("ana", id: $0).count }.max() ?? 0
        XCTAssertGreaterThanOrEqual(deepest, 7, "seed \(seed): the tree should be deep")
        var findings = Findings(seed: seed)
        var history: [String] = []
        var checked: Set<Session> = []
        for step in 0..<steps {
            let line = try randomLine(&rng, router: router, tasks: tasks)
            history.append(line)
            let at = "step \(step) `\(line)` after …\(history.suffix(6).dropLast().joined(separator: "; "))"
            let before = router.phase
            let draftsBefore = router.session?.drafts ?? [:]
            let tasksBefore = try everyTask(router)

            var response: Response?
            var failure: NavError?
            do {
                if let command = try Command.parse(line) { response = try router.apply(command) }
            } catch {
                failure = error
            }

            // A failed command changes nothing.
            if let failure {
                if case .store = failure { findings.note("a store failure", "\(at): \(failure)") }
                if router.phase != before { findings.note("a failed command changed the state", "\(at): \(failure)") }
                if try everyTask(router) != tasksBefore { findings.note("a failed command changed the store", "\(at): \(failure)") }
            }
            // The tree holds together: every parent exists, and every task counts its own
            // subtasks as they are.
            let all = try everyTask(router)
            let ids = Set(all.map(\.id))
            for task in all {
                if let parent = task.parent, !ids.contains(parent) {
                    findings.note("a task's parent is missing", "\(at): task \(task.id) under \(parent)")
                }
                let children = all.filter { $0.parent == task.id }
                if task.subtasks != SubtaskCounts(done: children.filter(\.done).count, total: children.count) {
                    findings.note("a task's counts are not its subtasks'", "\(at): task \(task.id) \(task.subtasks)")
                }
            }
            guard let session = router.session else {
                XCTFail("seed \(seed): \(at): signed out")
                break
            }

            // A dirty draft is dropped only by back!, cancel or save, and changed only by
            // the commands that edit it.
            let word = (try? Command.parse(line))??.word
            for (owner, draft) in draftsBefore where draft.isDirty {
                if ![.backDiscarding, .cancel, .save, .saveKeepingMine].contains(word), session.drafts[owner] == nil {
                    findings.note("a dirty draft was dropped", "\(at): \(owner.description)")
                }
                if ![.backDiscarding, .cancel, .save, .saveKeepingMine, .title, .notes, .done, .theirs].contains(word),
                    let after = session.drafts[owner], after != draft
                {
                    findings.note("a dirty draft was changed", "\(at): \(owner.description)")
                }
            }

            // Every text screen fits 40 columns.
            let screen = router.shown
            var text = ""
            TextRenderer(width: 40).render(.screen(screen), to: &text)
            for row in text.split(separator: "\n") where row.displayWidth > 40 {
                findings.note("a text line is wider than 40 columns", "\(at): \(row)")
            }
            if case .location(let url, _)? = response, url != screen.link?.url {
                findings.note("where names another URL than the screen's", "\(at): \(url ?? "nil") ≠ \(screen.link?.url ?? "nil")")
            }

            // On the tasks tab, the path's detail routes are the chain of the task shown.
            let top = session.tab == .tasks ? session.tasksPath.last?.taskID : nil
            let chain = try top.map { try router.store.chain("ana", id: $0).map(\.id) } ?? []
            if session.tab == .tasks, !chain.isEmpty {
                let details = screen.path.compactMap { route -> Int? in
                    if case .detail(let id) = route { return id }
                    return nil
                }
                if details != chain { findings.note("the path is not the chain", "\(at): path \(details), chain \(chain)") }
            }

            // `go <its url>` rebuilds the state, from a copy of the router and from a
            // session that has nothing open.
            guard let link = screen.link else { continue }
            let fresh = Router(store: router.store, configuration: router.configuration, phase: .signedIn(Session(user: "ana")))
            for (var other, from) in [(router, "a copy"), (fresh, "a fresh session")] {
                let error = other.failure("go " + link.url)
                if let top, chain.isEmpty {
                    if error != .noSuchTask(String(top)) {
                        findings.note("go of a vanished task's URL", "\(at) from \(from): \(link.url): \(String(describing: error))")
                    }
                    continue
                }
                guard error == nil, let rebuilt = other.session else {
                    findings.note("go of the state's URL failed", "\(at) from \(from): \(link.url): \(String(describing: error))")
                    continue
                }
                if rebuilt.tab != session.tab || rebuilt.path != session.path || rebuilt.sheet != session.sheet {
                    findings.note(
                        "go of the state's URL opened another place",
                        "\(at) from \(from): \(link.url): "
                            + "\(rebuilt.path) \(String(describing: rebuilt.sheet)), not \(session.path) \(String(describing: session.sheet))"
                    )
                }
                if case .list = link, rebuilt.list != session.list {
                    findings.note("go of the list's URL lost its state", "\(at) from \(from): \(link.url): \(rebuilt.list)")
                }
                if case .detail = link, let top, rebuilt.subtaskPages[top] != session.subtaskPages[top] {
                    findings.note("go of a detail's URL lost its page", "\(at) from \(from): \(link.url)")
                }
                if other.shown.link != link {
                    findings.note("go of the state's URL shows another URL", "\(at) from \(from): \(link.url)")
                }
                checked.insert(session)
            }
        }
        findings.report()
        return checked
    }

    func testRandomWalksOverARandomTreeKeepEveryInvariant() throws {
        var checked = 0
        forEachSeed(1...24) { seed in
            checked += try walk(seed: seed, steps: 300).count
        }
        XCTAssertGreaterThan(checked, 1500, "the walks should reach many different states")
    }
}
