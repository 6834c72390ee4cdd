import NavStackCore
import NavStackTime
import TestSeeds
import XCTest

@testable import NavStackSQLite

/// The list by a tag or a project, read from the words' table the store's triggers keep,
/// holds what the terms' definitions pick, whatever wrote the tasks.
final class TaskWordStoreTests: XCTestCase {
    private let user = "ana"
    private let tags = ["home", "Home", "work", "errand", "x_1", "Ärger", "ärger", "kitchen-sink"]
    private let projects = ["home", "home.garden", "Home.Bills", "work", "work.reports.q1", "homework", "Küche.oben"]

    private func someTags(_ rng: inout SplitMix64) -> [String] {
        TaskWords.tagSet((0..<Int.random(in: 0...3, using: &rng)).map { _ in tags.randomElement(using: &rng)! })
    }

    private func someProject(_ rng: inout SplitMix64) -> String? {
        Bool.random(using: &rng) ? projects.randomElement(using: &rng) : nil
    }

    /// A store written every way a task is written: added, changed, toggled, deleted,
    /// undone and redone, and imported in bulk.
    private func store(seed: UInt64) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: .utc, fixedNow: Instant(iso8601: "2026-11-27T09:00:00Z")!)
        try store.openProfile(user, sample: false)
        var rng = SplitMix64(state: seed)
        var ids: [Int] = []
        for index in 0..<80 {
            var fields = DraftFields(title: "Task \(index)", done: Int.random(in: 0..<4, using: &rng) == 0)
            fields.tags = someTags(&rng)
            fields.project = someProject(&rng)
            let parent = ids.isEmpty || Bool.random(using: &rng) ? nil : ids.randomElement(using: &rng)
            ids.append(try store.insertAtTop(user, fields, under: parent, as: .add).id)
        }
        for _ in 0..<60 {
            let id = ids.randomElement(using: &rng)!
            guard let task = try store.task(user, id: id) else { continue }
            switch Int.random(in: 0..<8, using: &rng) {
            case 0, 1:
                var fields = task.fields
                fields.tags = someTags(&rng)
                fields.project = someProject(&rng)
                _ = try store.write(user, id: id, [.tags, .project], from: fields, as: .save)
            case 2: _ = try store.toggle(user, id: id)
            case 3: _ = try store.delete(user, id: id)
            case 4: _ = try store.undo(user)
            case 5: _ = try store.redo(user)
            default:
                // Under another task (not one below it), or to the top.
                let parent = Bool.random(using: &rng) ? nil : ids.randomElement(using: &rng)
                _ = try? store.move(user, id: id, under: parent)
            }
        }
        let records = (0..<20).map { index in
            var rng = SplitMix64(state: seed &+ UInt64(index))
            let tags = someTags(&rng).map { "\"\($0)\"" }.joined(separator: ",")
            let project = someProject(&rng).map { ", \"project\": \"\($0)\"" } ?? ""
            return "{\"title\": \"Task i\(index)\", \"tags\": [\(tags)]\(project)}"
        }
        _ = try store.importTasks(try SQLiteStore.parseImport(Array(("[" + records.joined(separator: ",") + "]").utf8)), user: user)
        // A Taskwarrior import gives its new tasks their words at once, after every record;
        // it changes tasks of the store too, and a second one changes tasks the first added.
        var twRNG = SplitMix64(state: seed &* 31)
        let known = try store.page(user, ListQuery(filter: .every, search: "Task"), offset: 0, limit: 10_000).prefix(5).map(\.uuid)
        let uuids = (0..<20).map { "00000000-0000-4000-8000-" + String(String(Int(seed) * 100 + $0 + 1_000_000_000_000).dropFirst()) }
        func taskwarrior(_ uuids: [String], day: Int) throws -> [TaskwarriorRecord] {
            let records = uuids.enumerated().map { index, uuid in
                let tags = someTags(&twRNG).map { "\"\($0)\"" }.joined(separator: ",")
                let project = someProject(&twRNG).map { ", \"project\": \"\($0)\"" } ?? ""
                return """
                    {"uuid": "\(uuid)", "description": "Task t\(day).\(index)", "status": "pending", "tags": [\(tags)]\(project), \
                    "entry": "20261101T000000Z", "modified": "2026120\(day)T000000Z"}
                    """
            }
            return try TaskwarriorReader.read(Array(("[" + records.joined(separator: ",\n") + "]").utf8), source: "test")
        }
        _ = try store.importTaskwarrior(try taskwarrior(uuids + known, day: 1), user: user, dryRun: false)
        _ = try store.importTaskwarrior(try taskwarrior(Array(uuids.prefix(8)), day: 2), user: user, dryRun: false)
        return store
    }

    func testTheListsByATagOrAProjectAreWhatTheirTermsPick() throws {
        for seed in 1...3 {
            let store = try store(seed: UInt64(seed))
            let all = try store.page(user, ListQuery(filter: .every, search: "Task"), offset: 0, limit: 10_000)
            XCTAssertGreaterThan(all.count, 50)
            var terms = tags.map { ListTerms(tags: [$0]) } + ["HOME", "garden", "ÄRGER", "kitchen"].map { ListTerms(tags: [$0]) }
            terms += (projects + ["HOME", "home.GARDEN", "work.reports", "hom", "küche"]).map { ListTerms(project: $0) }
            terms.append(ListTerms(tags: ["home"], project: "work"))
            // Several tags, tags without, and both.
            terms += [
                ListTerms(tags: ["home", "work"]), ListTerms(tags: ["Ärger", "kitchen-sink"]), ListTerms(withoutTags: ["home"]),
                ListTerms(withoutTags: ["ärger", "x_1"]), ListTerms(tags: ["work"], withoutTags: ["HOME"]),
                ListTerms(withoutTags: ["errand"], project: "home"),
            ]
            for term in terms {
                for filter in ListFilter.allCases {
                    let query = ListQuery(filter: filter, terms: term, clock: store.clock)
                    let ids = try store.page(user, query, offset: 0, limit: 10_000).map(\.id)
                    XCTAssertEqual(Set(ids), Set(all.filter(query.includes).map(\.id)), "\(term) \(filter) seed \(seed)")
                    // In list order, as the tasks' own index gives it (a search every title
                    // matches reads the list the general way).
                    let general = ListQuery(filter: filter, terms: term, search: "Task", clock: store.clock)
                    XCTAssertEqual(ids, try store.page(user, general, offset: 0, limit: 10_000).map(\.id), "\(term) \(filter)")
                    XCTAssertEqual(try store.page(user, query, offset: 5, limit: 7).map(\.id), Array(ids.dropFirst(5).prefix(7)))
                    XCTAssertEqual(ids.count, Set(ids).count)
                    XCTAssertEqual(try store.count(user, query), ids.count, "\(term) \(filter)")
                }
            }
            // The table holds exactly the words of the tasks there are.
            let words = try store.db.prepare("SELECT count(*) FROM task_word").all { $0.int(0) }.first ?? 0
            /// `home.garden`: `home` and `home.garden`.
            func prefixes(_ project: String) -> Set<String> {
                let parts = project.split(separator: ".")
                return Set(parts.indices.map { parts[...$0].joined(separator: ".").lowercasedASCII })
            }
            let expected = all.reduce(0) { sum, task in
                sum + Set(task.tags.map { $0.lowercasedASCII }).count + (task.project.map { prefixes($0).count } ?? 0)
            }
            XCTAssertEqual(words, expected, "seed \(seed)")
            // And each word's count is its rows.
            let counts = try store.db.prepare(
                "SELECT count(*) FROM word_count AS c WHERE tasks != (SELECT count(*) FROM task_word AS w WHERE w.profile = c.profile AND w.word = c.word)"
            ).all { $0.int(0) }
            XCTAssertEqual(counts, [0], "seed \(seed)")
        }
    }

    /// The names a filter completes are the tags and projects (with those above them)
    /// that some task holds, in lower case, those that start with the prefix, at most the
    /// limit.
    func testTheNamesAreThoseTheTasksHold() throws {
        let store = try store(seed: 4)
        let all = try store.page(user, ListQuery(filter: .every, search: "Task"), offset: 0, limit: 10_000)
        let tagNames = Set(all.flatMap { $0.tags.map(\.lowercasedASCII) }).sorted()
        let projectNames = Set(
            all.compactMap(\.project).flatMap { project in
                let parts = project.split(separator: ".")
                return parts.indices.map { parts[...$0].joined(separator: ".").lowercasedASCII }
            }
        ).sorted()
        XCTAssertEqual(try store.names(user, .tag, prefix: "", limit: 100), tagNames)
        XCTAssertEqual(try store.names(user, .project, prefix: "", limit: 100), projectNames)
        XCTAssertEqual(try store.names(user, .tag, prefix: "HO", limit: 100), tagNames.filter { $0.hasPrefix("ho") })
        XCTAssertEqual(try store.names(user, .project, prefix: "home.", limit: 100), projectNames.filter { $0.hasPrefix("home.") })
        XCTAssertEqual(try store.names(user, .tag, prefix: "", limit: 2), Array(tagNames.prefix(2)))
        XCTAssertEqual(try store.names("nobody", .tag, prefix: "", limit: 100), [])
    }

    /// A Taskwarrior import drops the trigger that gives a new task its words for as long
    /// as it writes; the store has it again after, as it was, whether the import was
    /// written or refused.
    func testAnImportLeavesTheTriggerOfNewTasksWordsAsItWas() throws {
        let store = try SQLiteStore(path: nil)
        try store.openProfile(user, sample: false)
        func trigger() throws -> [String] {
            try store.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'task_words_made'").all { $0.text(0) }
        }
        let before = try trigger()
        XCTAssertEqual(before.count, 1)
        let good = try TaskwarriorReader.read(
            Array(#"[{"uuid": "00000000-0000-4000-8000-000000000001", "description": "A", "tags": ["x"], "status": "pending"}]"#.utf8),
            source: "test")
        XCTAssertEqual(try store.importTaskwarrior(good, user: user, dryRun: false).added, 1)
        XCTAssertEqual(try trigger(), before)
        // The same uuid in another profile refuses the whole import.
        try store.openProfile("bea", sample: false)
        XCTAssertThrowsError(try store.importTaskwarrior(good, user: "bea", dryRun: false))
        XCTAssertEqual(try trigger(), before)
        // A task added afterwards gets its words from the trigger.
        var tagged = DraftFields(title: "B")
        tagged.tags = ["y"]
        let id = try store.insertAtTop(user, tagged, under: nil, as: .add).id
        let words = try store.db.prepare("SELECT word FROM task_word WHERE task_id = ?").all([id]) { $0.text(0) }
        XCTAssertEqual(words, ["#y"])
    }

    /// A tag or project in ASCII is found from the words' table, never by a look at every
    /// task; counted the same way.
    func testATagOrAProjectIsFoundFromTheWordsTable() throws {
        let store = try store(seed: 7)
        for terms in [ListTerms(tags: ["home"]), ListTerms(project: "work")] {
            let query = ListQuery(filter: .all, terms: terms, clock: store.clock)
            let (sql, arguments) = SQLiteStore.pageQuery(query, user)
            let plan = try store.db.prepare("EXPLAIN QUERY PLAN " + sql).all(arguments + [10, 0]) { $0.text(3) }
            XCTAssertTrue(plan.contains { $0.contains("task_word") }, "\(plan)")
            XCTAssertFalse(plan.contains { $0.contains("SCAN task") || $0.contains("task_in_order") }, "\(plan)")
            let (clause, countArguments) = SQLiteStore.whereClause(query, user)
            let count = try store.db.prepare(
                "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM task WHERE \(SQLiteStore.profileTerm(query))\(clause)"
            )
            .all(countArguments) { $0.text(3) }
            XCTAssertFalse(count.contains { $0.contains("SCAN task") || $0.contains("task_in_order") }, "\(count)")
        }
    }
}

extension String {
    /// Lower case as SQLite's `lower` makes it: ASCII letters alone.
    fileprivate var lowercasedASCII: String {
        String(String.UnicodeScalarView(unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }))
    }
}
