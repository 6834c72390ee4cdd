import NavStackCore
import XCTest

@testable import NavStackSQLite

/// A series imported from Taskwarrior with two open instances, through sync: settling on
/// every replica completes none that nobody completed.
extension SyncMergeTests {
    /// A monthly rent whose January and February instances Taskwarrior made, both pending.
    static let rentExport = """
        [{"uuid":"5c2d9a4e-6f3b-4c1a-9e8d-7b6a5f4e3d2c","description":"Pay rent","status":"recurring","recur":"monthly",\
        "due":"20270101T100000Z","entry":"20261201T090000Z","modified":"20261201T090000Z","mask":"--"},
        {"uuid":"a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d","description":"Pay rent","status":"pending","recur":"monthly",\
        "due":"20270101T100000Z","entry":"20261201T090000Z","modified":"20261201T090000Z",\
        "parent":"5c2d9a4e-6f3b-4c1a-9e8d-7b6a5f4e3d2c","imask":0},
        {"uuid":"a1b2c3d4-0002-4a5b-8c6d-7e8f9a0b1c2d","description":"Pay rent","status":"pending","recur":"monthly",\
        "due":"20270201T100000Z","entry":"20261201T090000Z","modified":"20261201T090000Z",\
        "parent":"5c2d9a4e-6f3b-4c1a-9e8d-7b6a5f4e3d2c","imask":1}]
        """

    /// The uuids of the open instances of a replica's series.
    func openInstances(_ store: SQLiteStore) throws -> Set<String> {
        Set(try store.reading { db in try db.prepare("SELECT uuid FROM task WHERE done = 0 AND recur IS NOT NULL").all { $0.text(0) } })
    }

    func testSettlingAfterSyncLeavesImportedOpenInstancesOpen() throws {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let records = try TaskwarriorReader.read(Array(Self.rentExport.utf8), source: "test")
        XCTAssertEqual(try a.importTaskwarrior(records, user: user, dryRun: false).added, 2)
        let january = "a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d", february = "a1b2c3d4-0002-4a5b-8c6d-7e8f9a0b1c2d"
        try log.sync(a, user)
        try log.sync(b, user)
        XCTAssertEqual(try openInstances(b), [january, february], "both open, as Taskwarrior held them")
        // On a: February's done makes March's, which gets a subtask; February's opened
        // again keeps it (an instance with subtasks stays): three open, the user's doing.
        let feb = try XCTUnwrap(a.task(user, uuid: february))
        _ = try a.toggle(user, id: feb.id)
        let march = try XCTUnwrap(try openInstances(a).subtracting([january]).first)
        let marchID = try XCTUnwrap(a.task(user, uuid: march)).id
        _ = try a.insertAtTop(user, DraftFields(title: "Find the bill"), under: marchID, as: .add)
        _ = try a.toggle(user, id: feb.id)
        XCTAssertEqual(try openInstances(a), [january, february, march])
        for _ in 0..<2 { for store in [a, b] { try log.sync(store, user) } }
        for store in [a, b] { XCTAssertEqual(try openInstances(store), [january, february, march]) }
        XCTAssertEqual(try tasks(a), try tasks(b))
        // January's done on b: February's is there; nothing new anywhere.
        _ = try b.toggle(user, id: try XCTUnwrap(b.task(user, uuid: january)).id)
        for _ in 0..<2 { for store in [a, b] { try log.sync(store, user) } }
        for store in [a, b] { XCTAssertEqual(try openInstances(store), [february, march]) }
        XCTAssertEqual(try tasks(a), try tasks(b))
        try assertCountsMatch(a)
        try assertCountsMatch(b)
    }
}
