import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// Series imported with several open instances, and uuids from imports that merely look
/// like navstack's own instances': completing makes no instance the series holds, settling
/// completes nothing nobody completed, and no uuid traps.
final class SeriesStoreTests: XCTestCase {
    private let user = "ana"

    private func instant(_ text: String) -> Instant { Instant(iso8601: text)! }

    private func store() throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.clock = TaskClock(zone: .utc, fixedNow: instant("2026-12-20T09:00:00Z"))
        try store.openProfile(user, sample: false)
        return store
    }

    static let template = "5c2d9a4e-6f3b-4c1a-9e8d-7b6a5f4e3d2c"
    static let january = "a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d"
    static let february = "a1b2c3d4-0002-4a5b-8c6d-7e8f9a0b1c2d"
    static let march = "a1b2c3d4-0003-4a5b-8c6d-7e8f9a0b1c2d"

    /// What `task export` prints for a monthly rent due on the 1st of which Taskwarrior
    /// has made the instances of these months (1 for January), all pending.
    static func rentExport(months: [Int]) -> String {
        let recurring = """
            {"uuid":"\(template)","description":"Pay rent","status":"recurring","recur":"monthly",\
            "due":"20270101T100000Z","entry":"20261201T090000Z","modified":"20261201T090000Z","mask":"---"}
            """
        let instances = months.map { month in
            """
            {"uuid":"\([january, february, march][month - 1])","description":"Pay rent","status":"pending","recur":"monthly",\
            "due":"20270\(month)01T100000Z","entry":"20261201T090000Z","modified":"20261201T090000Z",\
            "parent":"\(template)","imask":\(month - 1)}
            """
        }
        return "[" + ([recurring] + instances).joined(separator: ",\n") + "]"
    }

    static func importRent(_ store: SQLiteStore, _ user: String, months: [Int] = [1, 2]) throws {
        let records = try TaskwarriorReader.read(Array(rentExport(months: months).utf8), source: "test")
        XCTAssertEqual(try store.importTaskwarrior(records, user: user, dryRun: false).added, months.count)
    }

    private func open(_ store: SQLiteStore) throws -> [TaskItem] {
        try store.page(user, ListQuery(filter: .open, search: "Pay rent"), offset: 0, limit: 100)
    }

    /// The due dates of the open instances, earliest first.
    private func openDues(_ store: SQLiteStore) throws -> [Instant] {
        try open(store).compactMap(\.due).sorted()
    }

    private func all(_ store: SQLiteStore) throws -> [TaskItem] {
        try store.page(user, ListQuery(filter: .all, search: "Pay rent"), offset: 0, limit: 100)
    }

    /// Taskwarrior made February's rent already: completing January's makes no second
    /// one, and undo gives back exactly what was there.
    func testCompletingAnImportedInstanceMakesNoInstanceTheSeriesHolds() throws {
        let store = try store()
        try Self.importRent(store, user)
        let held = try all(store)
        XCTAssertEqual(Set(try open(store).map(\.uuid)), [Self.january, Self.february], "the import keeps both open")
        let january = try XCTUnwrap(store.task(user, uuid: Self.january))
        _ = try store.toggle(user, id: january.id)
        XCTAssertEqual(try open(store).map(\.uuid), [Self.february], "one rent open for February, none made")
        XCTAssertEqual(try all(store).count, 2)
        XCTAssertEqual(try store.undo(user)?.kind, .toggle)
        XCTAssertEqual(try all(store).map(\.uuid), held.map(\.uuid), "undo restores exactly what was there")
        XCTAssertEqual(try all(store).map(\.fields), held.map(\.fields))
        // February's done next makes March's, once.
        let february = try XCTUnwrap(store.task(user, uuid: Self.february))
        _ = try store.toggle(user, id: february.id)
        XCTAssertEqual(try openDues(store), [instant("2027-01-01T10:00:00Z"), instant("2027-03-01T10:00:00Z")])
        // January's done now: February's is there, done; nothing new.
        _ = try store.toggle(user, id: january.id)
        XCTAssertEqual(try openDues(store), [instant("2027-03-01T10:00:00Z")])
        XCTAssertEqual(try all(store).count, 3)
    }

    /// Taskwarrior made January's and March's rent (February's was deleted there): the
    /// instance made in navstack after January's is of the same series, and completing it
    /// makes no second March.
    func testAnInstanceMadeFromAnImportedOneIsOfItsSeries() throws {
        let store = try store()
        try Self.importRent(store, user, months: [1, 3])
        let january = try XCTUnwrap(store.task(user, uuid: Self.january))
        _ = try store.toggle(user, id: january.id)
        XCTAssertEqual(try openDues(store), [instant("2027-02-01T10:00:00Z"), instant("2027-03-01T10:00:00Z")])
        let february = try XCTUnwrap(try open(store).first { $0.uuid != Self.march })
        _ = try store.toggle(user, id: february.id)
        XCTAssertEqual(try open(store).map(\.uuid), [Self.march])
        XCTAssertEqual(try all(store).count, 3)
    }

    /// Settling after sync leaves an imported series as it is, even an instance open
    /// beside the one navstack derived from it.
    func testSettlingLeavesAnImportedSeriesAsItIs() throws {
        let store = try store()
        try Self.importRent(store, user)
        let february = try XCTUnwrap(store.task(user, uuid: Self.february))
        _ = try store.toggle(user, id: february.id)
        let march = try XCTUnwrap(try open(store).last)
        _ = try store.insertAtTop(user, DraftFields(title: "Find the bill"), under: march.id, as: .add)
        _ = try store.toggle(user, id: february.id)
        XCTAssertEqual(try open(store).count, 3)
        let settled = try store.writing { db in try SQLiteStore.settleSeries(db, user, profile: try store.profileID(db, user)) }
        XCTAssertEqual(settled, 0)
        XCTAssertEqual(try open(store).count, 3, "no instance completed that nobody completed")
    }

    /// Two unrelated series imported with version-8 uuids whose first 8 bytes are the same:
    /// settling leaves both open, and completing one makes its next instance though the
    /// other is due then.
    func testUUIDsSharingTheirFirstBytesAreNotOneSeries() throws {
        let store = try store()
        let rent = "11111111-1111-8111-8000-000000000001"
        let gym = "11111111-1111-8111-9000-000000000002"
        let json = """
            [{"uuid":"\(rent)","title":"Pay rent","due":"2027-01-31T10:00:00Z","recur":"monthly"},
            {"uuid":"\(gym)","title":"Pay rent for the gym","due":"2027-02-28T10:00:00Z","recur":"monthly"}]
            """
        _ = try store.importTasks(try SQLiteStore.parseImport(Array(json.utf8)), user: user)
        XCTAssertEqual(SQLiteStore.seriesKey(of: rent), SQLiteStore.seriesKey(of: gym), "alike by their bytes")
        let settled = try store.writing { db in try SQLiteStore.settleSeries(db, user, profile: try store.profileID(db, user)) }
        XCTAssertEqual(settled, 0)
        XCTAssertEqual(Set(try open(store).map(\.uuid)), [rent, gym])
        // Completing the rent makes its next, due with the gym's.
        let first = try XCTUnwrap(store.task(user, uuid: rent))
        _ = try store.toggle(user, id: first.id)
        XCTAssertEqual(try openDues(store), [instant("2027-02-28T10:00:00Z"), instant("2027-02-28T10:00:00Z")])
        let settledAgain = try store.writing { db in try SQLiteStore.settleSeries(db, user, profile: try store.profileID(db, user)) }
        XCTAssertEqual(settledAgain, 0)
        XCTAssertEqual(try open(store).count, 2)
    }

    /// A version-8 uuid with a zero tail (valid by RFC 9562) ends the count a derived uuid
    /// keeps: completing it makes its next instance, and the one after, without a trap.
    func testAnyImportedUUIDCompletes() throws {
        let store = try store()
        let zeroTail = "11111111-1111-8111-8000-000000000000"
        let json = #"[{"uuid":"\#(zeroTail)","title":"Pay rent","due":"2027-01-31T10:00:00Z","recur":"monthly"}]"#
        _ = try store.importTasks(try SQLiteStore.parseImport(Array(json.utf8)), user: user)
        let first = try XCTUnwrap(store.task(user, uuid: zeroTail))
        _ = try store.toggle(user, id: first.id)
        let next = try XCTUnwrap(try open(store).first)
        XCTAssertEqual(next.due, instant("2027-02-28T10:00:00Z"))
        XCTAssertTrue(next.uuid.isUUID, next.uuid)
        _ = try store.toggle(user, id: next.id)
        XCTAssertEqual(try openDues(store), [instant("2027-03-28T10:00:00Z")])
        // Every tail, at and around both ends of the count, in either case.
        for uuid in [
            zeroTail, "11111111-1111-8111-8000-000000000001", "11111111-1111-8111-bfff-ffffffffffff",
            "11111111-1111-8111-BFFF-FFFFFFFFFFFE", "11111111111181118000000000000000", "ffffffff-ffff-8fff-bfff-ffffffffffff",
            "00000000-0000-8000-8000-000000000000",
        ] {
            let next = SQLiteStore.nextInstanceUUID(after: uuid)
            XCTAssertTrue(next.isUUID, "\(uuid): \(next)")
            XCTAssertNotEqual(next, uuid.lowercased())
            XCTAssertTrue(SQLiteStore.nextInstanceUUID(after: next).isUUID)
        }
    }
}
