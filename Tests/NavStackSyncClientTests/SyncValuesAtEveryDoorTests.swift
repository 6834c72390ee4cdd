import NavStackCore
import NavStackSync
import XCTest

@testable import NavStackSQLite

/// What a Taskwarrior import takes, sync carries to every replica: no replica drops a task
/// or a value another door took (``FieldRules`` is the one rule of both).
final class SyncValuesAtEveryDoorTests: XCTestCase {
    let user = "ana"

    func replica(_ log: Account) throws -> SQLiteStore {
        let store = try SQLiteStore(path: nil)
        store.uuids = TaskUUIDSource(clock: { SQLiteStore.milliseconds() })
        try store.openProfile(user, sample: false)
        try log.join(store, user)
        return store
    }

    /// Every task as a replica holds it: uuid, title, custom fields and annotations.
    func tasks(_ store: SQLiteStore) throws -> [String] {
        try store.reading { db in
            try db.prepare("SELECT uuid || ' ' || title || ' ' || fields || annotations FROM task ORDER BY uuid").all { $0.text(0) }
        }
    }

    /// Imports `export` on replica A and syncs it to replica B: the tasks of both.
    func moveIn(_ export: String) throws -> (a: [String], b: [String]) {
        let log = try Account()
        let a = try replica(log), b = try replica(log)
        let records = try TaskwarriorReader.read(Array(export.utf8), source: "test")
        _ = try a.importTaskwarrior(records, user: user, dryRun: false)
        try log.sync(a, user)
        try log.sync(b, user)
        return (try tasks(a), try tasks(b))
    }

    /// A description with a zero-width space, one with a right-to-left override, an
    /// annotation with isolates, a UDA with a tab and a line break: each taken by the
    /// import, each on the other replica after sync.
    func testATaskwarriorImportReachesTheOtherReplicaWhole() throws {
        let export = """
            [{"uuid":"7e160343-d492-49b6-8ab5-ec32f89ee792","description":"Pay\\u200brent","status":"pending"},
            {"uuid":"8e160343-d492-49b6-8ab5-ec32f89ee792","description":"Review \\u202eetar","status":"pending"},
            {"uuid":"9e160343-d492-49b6-8ab5-ec32f89ee792","description":"Plain","status":"pending","ticket":"a\\tb\\nc",
             "annotations":[{"entry":"20261120T080000Z","description":"see \\u2066here\\u2069"}]},
            {"uuid":"ae160343-d492-49b6-8ab5-ec32f89ee792","description":"Other","status":"pending","ticket":"x\\u200by"}]
            """
        let (a, b) = try moveIn(export)
        XCTAssertEqual(a.count, 4)
        XCTAssertEqual(b, a, "every task and value the import took is on the other replica")
    }

    /// A description of 1,000 characters: taken by the import, on the other replica (it
    /// failed the import, past 200).
    func testALongTitleReachesTheOtherReplica() throws {
        let title = String(repeating: "long ", count: 200).dropLast() + "s"
        let (a, b) = try moveIn(#"[{"uuid":"7e160343-d492-49b6-8ab5-ec32f89ee792","description":"\#(title)","status":"pending"}]"#)
        XCTAssertEqual(a.count, 1)
        XCTAssertEqual(b, a)
    }

    /// A control character in a UDA, which sync would not carry: refused at the import,
    /// the record named, nothing imported (it used to import, then stay on replica A).
    func testAControlCharacterInAUDAIsRefusedAtTheImport() throws {
        let export = """
            [{"uuid":"7e160343-d492-49b6-8ab5-ec32f89ee792","description":"Fine","status":"pending"},
            {"uuid":"8e160343-d492-49b6-8ab5-ec32f89ee792","description":"Ring the bell","status":"pending","ticket":"a\\u0007b"}]
            """
        XCTAssertThrowsError(try moveIn(export)) { error in
            XCTAssertEqual(
                (error as? ImportError)?.description,
                #"record 1 (uuid 8e160343-d492-49b6-8ab5-ec32f89ee792, "Ring the bell"): the custom field value contains "#
                    + #"the control character \u{7}; nothing was imported"#)
        }
    }
}
