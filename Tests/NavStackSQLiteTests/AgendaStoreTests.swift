import NavStackCore
import NavStackTime
import TestSeeds
import XCTest

@testable import NavStackSQLite

/// The agenda and its days as the store reads them: the tasks their definitions pick
/// (``ListQuery/includes(_:)``), in the order of their dates, from indexes.
final class AgendaStoreTests: XCTestCase {
    private let user = "ana"

    private func instant(_ text: String) -> Instant { Instant(iso8601: text)! }

    /// Random tasks at every level around `now` in `zone`: dates a few hours to a few
    /// weeks away (many on one day), some done, some waiting, some with no date.
    private func store(seed: UInt64, zone: Zone, now: Instant, count: Int = 120, waits: Bool = true) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: zone, fixedNow: now)
        try store.openProfile(user, sample: false)
        var rng = SplitMix64(state: seed)
        var ids: [Int] = []
        func someDate() -> Instant? {
            guard Int.random(in: 0..<3, using: &rng) > 0 else { return nil }
            // Whole hours, so that many tasks fall on one instant too.
            return now.adding(seconds: Int64(Int.random(in: -20 * 24...20 * 24, using: &rng)) * 3600)
        }
        for index in 0..<count {
            var fields = DraftFields(title: "Task \(index)", done: Int.random(in: 0..<5, using: &rng) == 0)
            fields.due = someDate()
            fields.scheduled = someDate()
            if Int.random(in: 0..<6, using: &rng) == 0, waits { fields.wait = someDate() }
            let parent = ids.isEmpty || Bool.random(using: &rng) ? nil : ids.randomElement(using: &rng)
            let task = try store.insertAtTop(user, fields, under: parent, as: .add)
            ids.append(task.id)
        }
        return store
    }

    /// What a query shows, by its definition: every task it includes, by date then uuid.
    private func expected(_ query: ListQuery, in store: SQLiteStore) throws -> [Int] {
        let all = try store.page(user, ListQuery(filter: .every, search: "Task"), offset: 0, limit: 10_000)
        return all.filter(query.includes).sorted {
            ($0.agendaInstant!, $0.uuid) < ($1.agendaInstant!, $1.uuid)
        }.map(\.id)
    }

    func testTheAgendaAndItsDaysAreTheTasksTheirDefinitionsPick() throws {
        let zones = [
            ("Europe/Madrid", "2026-03-28T10:00:00Z"), ("America/Sao_Paulo", "2026-11-27T12:00:00Z"), ("UTC", "2026-11-27T09:00:00Z"),
        ]
        for (seed, (name, now)) in zones.enumerated() {
            let zone = try Zone.named(name)
            let store = try store(seed: UInt64(seed) + 1, zone: zone, now: instant(now))
            let clock = store.clock
            let agenda = ListQuery.agenda(clock)
            let ids = try store.page(user, agenda, offset: 0, limit: 10_000).map(\.id)
            XCTAssertEqual(ids, try expected(agenda, in: store), name)
            XCTAssertGreaterThan(ids.count, 20, "the agenda should hold many of the tasks")
            XCTAssertEqual(try store.count(user, agenda), ids.count)
            // Pages are its slices.
            let paged = try (0..<(ids.count / 7 + 1)).flatMap { page in
                try store.page(user, agenda, offset: page * 7, limit: 7).map(\.id)
            }
            XCTAssertEqual(paged, ids)
            // Every day around now, across the change of clocks in Madrid.
            let today = zone.local(instant(now)).date
            var seen = 0
            for offset in -21...21 {
                let day = ListQuery.day(today.adding(days: offset), clock)
                let dayIDs = try store.page(user, day, offset: 0, limit: 10_000).map(\.id)
                XCTAssertEqual(dayIDs, try expected(day, in: store), "\(name) \(today.adding(days: offset).isoText)")
                XCTAssertEqual(try store.count(user, day), dayIDs.count)
                seen += dayIDs.count
                // A day under another filter is read the same way.
                for filter in ListFilter.allCases {
                    var filtered = day
                    filtered.filter = filter
                    let ids = try store.page(user, filtered, offset: 0, limit: 10_000).map(\.id)
                    XCTAssertEqual(ids, try expected(filtered, in: store), "\(name) \(today.adding(days: offset).isoText) \(filter)")
                    XCTAssertEqual(try store.count(user, filtered), ids.count)
                    XCTAssertEqual(try store.page(user, filtered, offset: 2, limit: 3).map(\.id), Array(ids.dropFirst(2).prefix(3)))
                }
            }
            XCTAssertGreaterThan(seen, 40, name)
        }
    }

    /// A due term of the list (read from the index of `due`) picks the tasks its
    /// definition picks, in every status, counted alike: each word of `due:`, a DATE's
    /// day (the day the clocks go forward too), `due.before:` and `due.after:`, alone and
    /// together.
    func testTheListsDueTermsPickWhatTheirDefinitionsPick() throws {
        // With tasks waiting, and with none (then `all` hides nothing, and counts a range).
        for waits in [true, false] {
            let store = try store(seed: 9, zone: try Zone.named("Europe/Madrid"), now: instant("2026-03-28T10:00:00Z"), waits: waits)
            try assertDueTermsPickWhatTheirDefinitionsPick(in: store)
        }
    }

    private func assertDueTermsPickWhatTheirDefinitionsPick(in store: SQLiteStore) throws {
        let all = try store.page(user, ListQuery(filter: .every, search: "Task"), offset: 0, limit: 10_000)
        let terms =
            DueTerm.allCases.map { ListTerms(due: $0) } + [
                ListTerms(dueOn: "tomorrow"), ListTerms(dueOn: "2026-03-29"), ListTerms(dueBefore: "eow"),
                ListTerms(dueAfter: "today"), ListTerms(dueBefore: "+1w", dueAfter: "yesterday"),
                ListTerms(dueOn: "2026-03-29", dueBefore: "2026-03-29T12:00"), ListTerms(due: DueTerm.none, dueBefore: "eow"),
                ListTerms(due: .any, dueAfter: "now"), ListTerms(due: .week, dueAfter: "tomorrow"),
                ListTerms(priority: .high, dueBefore: "eom"),
            ]
        for due in terms {
            for filter in ListFilter.allCases {
                let query = ListQuery(filter: filter, terms: due, clock: store.clock)
                let ids = try store.page(user, query, offset: 0, limit: 10_000).map(\.id)
                XCTAssertEqual(Set(ids), Set(all.filter(query.includes).map(\.id)), "\(due) \(filter)")
                XCTAssertEqual(ids.count, Set(ids).count)
                XCTAssertEqual(try store.count(user, query), ids.count, "\(due) \(filter)")
                // In list order, as the general way reads it (a search every title matches).
                let general = ListQuery(filter: filter, terms: due, search: "Task", clock: store.clock)
                XCTAssertEqual(ids, try store.page(user, general, offset: 0, limit: 10_000).map(\.id), "\(due) \(filter)")
                // Every page, whether the walk of the dated tasks in list order finds it or
                // the sort of the span does.
                for offset in stride(from: 0, through: ids.count, by: 3) {
                    XCTAssertEqual(
                        try store.page(user, query, offset: offset, limit: 4).map(\.id), Array(ids.dropFirst(offset).prefix(4)),
                        "\(due) \(filter) from \(offset)")
                }
            }
        }
    }

    /// The clocks went forward in Madrid on 29 March 2026: that day has 23 hours, and a
    /// task at 23:30 is on it, one at 00:30 the next day on the next.
    func testADayIsItsLocalHoursAcrossAChangeOfClocks() throws {
        let zone = try Zone.named("Europe/Madrid")
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: zone, fixedNow: instant("2026-03-28T10:00:00Z"))
        try store.openProfile(user, sample: false)
        let late = try store.insertAtTop(user, DraftFields(title: "late", due: instant("2026-03-29T21:30:00Z")), under: nil, as: .add)
        let next = try store.insertAtTop(user, DraftFields(title: "next", due: instant("2026-03-29T22:30:00Z")), under: nil, as: .add)
        let early = try store.insertAtTop(
            user, DraftFields(title: "early", scheduled: instant("2026-03-28T23:00:00Z")), under: nil, as: .add)
        let sunday = CivilDate(year: 2026, month: 3, day: 29)!
        XCTAssertEqual(try store.page(user, .day(sunday, store.clock), offset: 0, limit: 10).map(\.id), [early.id, late.id])
        XCTAssertEqual(try store.page(user, .day(sunday.adding(days: 1), store.clock), offset: 0, limit: 10).map(\.id), [next.id])
    }

    /// Changing a task's date, or marking it done, in place moves it on an agenda read
    /// before (the store keeps what it read within a burst of commands).
    func testAChangeInPlaceMovesTheTaskOnTheAgendaReadBefore() throws {
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: .utc, fixedNow: instant("2026-11-27T09:00:00Z"))
        try store.openProfile(user, sample: false)
        let first = try store.insertAtTop(user, DraftFields(title: "first", due: instant("2026-11-28T00:00:00Z")), under: nil, as: .add)
        let second = try store.insertAtTop(user, DraftFields(title: "second", due: instant("2026-11-29T00:00:00Z")), under: nil, as: .add)
        let agenda = ListQuery.agenda(store.clock)
        XCTAssertEqual(try store.page(user, agenda, offset: 0, limit: 10).map(\.id), [first.id, second.id])
        XCTAssertEqual(try store.count(user, agenda), 2)
        var fields = first.fields
        fields.due = instant("2026-12-30T00:00:00Z")
        _ = try store.write(user, id: first.id, [.due], from: fields, as: .save)
        XCTAssertEqual(try store.page(user, agenda, offset: 0, limit: 10).map(\.id), [second.id, first.id])
        fields.due = nil
        _ = try store.write(user, id: first.id, [.due], from: fields, as: .save)
        XCTAssertEqual(try store.page(user, agenda, offset: 0, limit: 10).map(\.id), [second.id])
        XCTAssertEqual(try store.count(user, agenda), 1)
        _ = try store.toggle(user, id: second.id)
        XCTAssertEqual(try store.page(user, agenda, offset: 0, limit: 10).map(\.id), [])
        XCTAssertEqual(try store.count(user, agenda), 0)
    }

    /// Pages of the agenda and of a day read before a change and mended by it (a task
    /// that comes, goes or moves in date order, the next instance of a series) are what a
    /// store without a cache reads: seeded walks of adds, completions, date changes and
    /// deletes, with pages small enough to be full, and later pages.
    func testAgendaPagesMendedByChangesAreWhatAStoreWithoutACacheReads() throws {
        let now = instant("2026-11-27T09:00:00Z")
        forEachSeed(1...6) { seed in
            var rng = SplitMix64(state: seed)
            let stores = try [true, false].map { caching in
                let store = try SQLiteStore(path: nil)
                store.cachesReads = caching
                store.clock = TaskClock(zone: try Zone.named("Europe/Madrid"), fixedNow: now)
                try store.openProfile(user, sample: false)
                return store
            }
            let queries = [
                ListQuery.agenda(stores[0].clock), .day(CivilDate(year: 2026, month: 11, day: 28)!, stores[0].clock),
            ]
            let pages = [(0, 3), (3, 3), (6, 3), (0, 1), (1, 1), (3, 1)]
            func read(_ store: SQLiteStore) throws -> [[Int]] {
                try queries.flatMap { query in
                    try pages.map { try store.page(user, query, offset: $0.0, limit: $0.1).map(\.id) }
                        + [[try store.count(user, query)]]
                }
            }
            var ids: [Int] = []
            func someDate() -> Instant? {
                guard Int.random(in: 0..<4, using: &rng) > 0 else { return nil }
                return now.adding(seconds: Int64(Int.random(in: -2 * 24...6 * 24, using: &rng)) * 3600)
            }
            for step in 0..<250 {
                let before = try stores.map(read)
                XCTAssertEqual(before[0], before[1], "seed \(seed), before step \(step)")
                let choice = Int.random(in: 0..<10, using: &rng)
                let id = ids.randomElement(using: &rng)
                var dates = (someDate(), Int.random(in: 0..<3, using: &rng) == 0 ? someDate() : nil)
                if dates.0 == nil, dates.1 == nil { dates.0 = now }
                let recur = ["daily", "weekly", "monthly", nil].randomElement(using: &rng)!
                for store in stores {
                    switch (choice, id) {
                    case (0..<4, _), (_, nil):
                        var fields = DraftFields(title: "Task \(step)", due: dates.0, recur: recur)
                        fields.scheduled = dates.1
                        let made = try store.insertAtTop(user, fields, under: nil, as: .add)
                        if store === stores[0] { ids.append(made.id) }
                    case (4..<7, let id?):
                        _ = try store.toggle(user, id: id)
                    case (7..<9, let id?):
                        guard let task = try store.task(user, id: id) else { continue }
                        var fields = task.fields
                        fields.due = dates.0
                        fields.scheduled = dates.1
                        _ = try store.write(user, id: id, [.due, .scheduled], from: fields, as: .save)
                    case (_, let id?):
                        _ = try store.delete(user, id: id)
                    }
                }
                let after = try stores.map(read)
                XCTAssertEqual(after[0], after[1], "seed \(seed), step \(step), choice \(choice)")
                if after[0] != after[1] { return }
            }
        }
    }

    /// The agenda is read in order from its own index (never sorted), a day from the
    /// indexes of `due` and `scheduled`.
    func testTheAgendaAndADayAreReadFromIndexes() throws {
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: .utc, fixedNow: instant("2026-11-27T09:00:00Z"))
        try store.openProfile(user, sample: true)
        func plan(_ query: ListQuery) throws -> [String] {
            let (sql, arguments) = SQLiteStore.pageQuery(query, user)
            return try store.db.prepare("EXPLAIN QUERY PLAN " + sql).all(arguments + [10, 0]) { $0.text(3) }
        }
        let agenda = try plan(.agenda(store.clock))
        XCTAssertTrue(agenda.contains { $0.contains("INDEX task_on_agenda") }, "\(agenda)")
        XCTAssertFalse(agenda.contains { $0.contains("TEMP B-TREE") }, "\(agenda)")
        // A day: its page sorted, and counted, from the indexes of its two dates alone;
        // only the page's tasks read from the table (by their ids).
        for filter in ListFilter.allCases {
            var query = ListQuery.day(CivilDate(year: 2026, month: 12, day: 1)!, store.clock)
            query.filter = filter
            let day = try plan(query)
            XCTAssertTrue(day.contains { $0.contains("COVERING INDEX task_by_due") }, "\(filter) \(day)")
            XCTAssertTrue(day.contains { $0.contains("COVERING INDEX task_by_scheduled") }, "\(filter) \(day)")
            XCTAssertTrue(day.contains { $0.contains("SEARCH task USING INTEGER PRIMARY KEY") }, "\(filter) \(day)")
            XCTAssertFalse(day.contains { $0.contains("SCAN task") || $0.contains("task_in_order") }, "\(filter) \(day)")
            let halves = try XCTUnwrap(SQLiteStore.dayHalves(query, user, select: "COUNT(*)"))
            let count = try store.db.prepare("EXPLAIN QUERY PLAN SELECT (\(halves.due)) + (\(halves.scheduled))")
                .all(halves.arguments) { $0.text(3) }
            XCTAssertEqual(count.filter { $0.contains("COVERING INDEX task_by_") }.count, 2, "\(filter) \(count)")
            XCTAssertFalse(count.contains { $0.hasPrefix("SCAN task") || $0.contains("task_in_order") }, "\(filter) \(count)")
        }
        // A list by a due term alone: its page sorted, and counted, from the index of `due`
        // alone; only the page's tasks read from the table.
        for filter in [ListFilter.all, .open, .done] {
            let week = ListQuery(filter: filter, terms: ListTerms(due: .week), clock: store.clock)
            let page = try plan(week)
            XCTAssertTrue(page.contains { $0.contains("COVERING INDEX task_by_due") }, "\(page)")
            XCTAssertFalse(page.contains { $0.contains("SCAN task") || $0.contains("task_in_order") }, "\(page)")
            // Its first pages: the dated tasks walked in list order from their own index.
            let walk = SQLiteStore.dueWalkQuery(week, user, span: try XCTUnwrap(SQLiteStore.dueSpan(week)), looking: 100)
            let walked = try store.db.prepare("EXPLAIN QUERY PLAN " + walk.sql).all(walk.arguments + [10, 0]) { $0.text(3) }
            XCTAssertTrue(walked.contains { $0.contains("COVERING INDEX task_dated_in_order") }, "\(walked)")
            XCTAssertFalse(walked.contains { $0.contains("SCAN task") || $0.contains("task_by_due") }, "\(walked)")
            let sql = "SELECT COUNT(*) FROM task INDEXED BY task_by_due WHERE profile_id = \(SQLiteStore.profileID)"
            let (clause, arguments) = SQLiteStore.filterClause(week, user)
            let span = try XCTUnwrap(SQLiteStore.dueSpan(week))
            let counted = try store.db.prepare("EXPLAIN QUERY PLAN " + sql + span.sql + clause)
                .all([user] + span.arguments + arguments.dropFirst()) { $0.text(3) }
            XCTAssertTrue(counted.contains { $0.contains("COVERING INDEX task_by_due") }, "\(counted)")
        }
    }
}
