import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// `sort KEY`: the store's order on every key both ways, with ties (the list's own order
/// breaks them) and missing values, held equal to ``ListSort/precedes(_:_:)`` and read
/// alike whole and page by page.
final class SortStoreTests: XCTestCase {
    private let user = "ana"

    private func instant(_ text: String) -> Instant { Instant(iso8601: text)! }

    /// Five tasks added an hour apart (the list shows the newest first: 5, 4, 3, 2, 1),
    /// then task 1 changed last.
    private func store() throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        try store.openProfile(user, sample: false)
        let tasks: [DraftFields] = [
            DraftFields(title: "beta", due: instant("2026-12-10T00:00:00Z"), priority: .medium),
            DraftFields(title: "Alpha", priority: .high),
            DraftFields(title: "alpha", due: instant("2026-12-08T00:00:00Z")),
            DraftFields(title: "Gamma", due: instant("2026-12-10T00:00:00Z"), priority: .high, tags: ["x"]),
            DraftFields(title: "delta", tags: ["x"]),
        ]
        for (hour, fields) in tasks.enumerated() {
            store.clock = TaskClock(zone: .utc, fixedNow: instant("2026-12-01T0\(hour):00:00Z"))
            _ = try store.insertAtTop(user, fields, as: .add)
        }
        store.clock = TaskClock(zone: .utc, fixedNow: instant("2026-12-02T00:00:00Z"))
        var fields = tasks[0]
        fields.notes = "changed"
        _ = try store.write(user, id: 1, [.notes], from: fields, as: .save)
        return store
    }

    private func ids(_ store: SQLiteStore, _ sort: String, filter: ListFilter = .all, terms: ListTerms = ListTerms()) throws -> [Int] {
        let query = ListQuery(filter: filter, terms: terms, sort: ListSort(word: sort), clock: store.clock)
        let whole = try store.page(user, query, offset: 0, limit: 100).map(\.id)
        var paged: [Int] = []
        for offset in stride(from: 0, to: whole.count, by: 2) {
            paged += try store.page(user, query, offset: offset, limit: 2).map(\.id)
        }
        XCTAssertEqual(paged, whole, "\(sort): pages of two read as the whole")
        XCTAssertEqual(try store.count(user, query), whole.count)
        return whole
    }

    func testEveryKeyBothWays() throws {
        let store = try store()
        let expected: [(String, [Int])] = [
            ("due", [3, 4, 1, 5, 2]), ("-due", [4, 1, 3, 5, 2]),
            ("priority", [4, 2, 1, 5, 3]), ("-priority", [5, 3, 1, 4, 2]),
            ("created", [1, 2, 3, 4, 5]), ("-created", [5, 4, 3, 2, 1]),
            ("modified", [2, 3, 4, 5, 1]), ("-modified", [1, 5, 4, 3, 2]),
            ("title", [2, 3, 1, 5, 4]), ("-title", [4, 5, 1, 3, 2]),
        ]
        for (sort, order) in expected {
            XCTAssertEqual(try ids(store, sort), order, sort)
        }
        XCTAssertEqual(try ids(store, "DUE"), [3, 4, 1, 5, 2], "keys ignore case")
    }

    /// SQL's order and the one Swift gives urgency agree on every key.
    func testTheStoreOrdersAsListSortDoes() throws {
        let store = try store()
        let now = store.clock.fixedNow!
        let listed = try store.page(user, ListQuery(clock: store.clock), offset: 0, limit: 100)
        for key in ListSort.Key.allCases {
            for reversed in [false, true] {
                let sort = ListSort(key, reversed: reversed)
                let ranked = listed.enumerated().map {
                    ($0.offset, $0.element, Urgency.of($0.element, now: now, blocking: false, blocked: false))
                }
                let reference = ranked.sorted { a, b in sort.precedes((a.1, a.2), (b.1, b.2)) ?? (a.0 < b.0) }.map(\.1.id)
                XCTAssertEqual(try ids(store, sort.word), reference, sort.word)
            }
        }
    }

    func testUrgencyRanksTheMostUrgentFirst() throws {
        let store = try store()
        // 4: due in 8 days, H and a tag (11.94); 1: due in 8 days and M (9.04); 3: due in
        // 6 days (6.06); 2: H (6.0); 5: a tag (0.8).
        XCTAssertEqual(try ids(store, "urgency"), [4, 1, 3, 2, 5])
        XCTAssertEqual(try ids(store, "-urgency"), [5, 2, 3, 1, 4])
    }

    func testBlockingCountsInUrgency() throws {
        let store = try store()
        // Task 2 depends on task 5: 5 is blocking (+8: 8.8), 2 blocked (-5: 1.0).
        var fields = try XCTUnwrap(store.task(user, id: 2)).fields
        let blocker = try XCTUnwrap(store.task(user, id: 5))
        fields.depends = [blocker.uuid]
        _ = try store.write(user, id: 2, [.depends], from: fields, as: .save)
        XCTAssertEqual(try ids(store, "urgency"), [4, 1, 5, 3, 2])
    }

    func testSortKeepsTheFilterAndTerms() throws {
        let store = try store()
        XCTAssertEqual(try ids(store, "title", terms: ListTerms(tags: ["x"])), [5, 4])
        XCTAssertEqual(try ids(store, "-due", terms: ListTerms(tags: ["x"])), [4, 5])
        XCTAssertEqual(try ids(store, "priority", terms: ListTerms(due: .any)), [4, 1, 3])
        _ = try store.toggle(user, id: 4)
        XCTAssertEqual(try ids(store, "priority", filter: .open), [2, 1, 5, 3])
        XCTAssertEqual(try ids(store, "urgency", filter: .done), [4])
    }
}
