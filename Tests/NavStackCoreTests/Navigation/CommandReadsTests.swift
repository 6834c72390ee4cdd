import NavStackSQLite
import XCTest

@testable import NavStackCore

/// A command reads the task of the screen it acts on once, and passes it along: to the
/// availability check, to the command, and to the screen's breadcrumb.
final class CommandReadsTests: XCTestCase {
    private func onTask2() throws -> (Router, RacingStore) {
        let store = RacingStore(try SQLiteStore(path: nil))
        var router = Router(store: store, configuration: .init(sampleForNewProfiles: true))
        try router.run("login ana", "open 2")
        store.taskReads = 0
        return (router, store)
    }

    func testAToggleOnTheDetailReadsTheTaskOnceBeforeAndOnceAfter() throws {
        var (router, store) = try onTask2()
        try router.run("toggle")
        XCTAssertEqual(store.taskReads, 2)
        XCTAssertEqual(router.shown.breadcrumb, ["My Tasks", "Study SwiftUI"])
    }

    func testEditReadsTheTaskForItsScreenItsDraftAndTheScreenItLeaves() throws {
        var (router, store) = try onTask2()
        try router.run("edit")
        XCTAssertEqual(store.taskReads, 3)
        store.taskReads = 0
        // A field typed into the draft changes neither the store nor what is shown: the
        // screen is made from the one read.
        try router.run("title Changed")
        XCTAssertEqual(store.taskReads, 1)
        guard case .draft(let draft, _, _) = router.shown.content else { return XCTFail("the edit screen") }
        XCTAssertEqual(draft.fields.title, "Changed")
        store.taskReads = 0
        try router.run("save")
        XCTAssertEqual(store.taskReads, 2, "a save reads what it writes over, and the screen it leaves")
        XCTAssertEqual(router.shown.breadcrumb, ["My Tasks", "Changed"])
    }

    func testWhereAndHelpReadTheTaskOnce() throws {
        var (router, store) = try onTask2()
        guard case .location(_, let breadcrumb) = try router.run("where") else { return XCTFail("where") }
        XCTAssertEqual(breadcrumb, ["My Tasks", "Study SwiftUI"])
        XCTAssertEqual(store.taskReads, 1)
        store.taskReads = 0
        try router.run("help")
        XCTAssertEqual(store.taskReads, 1)
    }
}
