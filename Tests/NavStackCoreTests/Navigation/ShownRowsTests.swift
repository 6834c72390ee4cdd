import NavStackSQLite
import XCTest

@testable import NavStackCore

/// Row numbers name the tasks the list showed: when another process moved them, a row
/// command is refused rather than acting on a task never seen.
final class ShownRowsTests: XCTestCase {
    /// Two routers on one store, as two processes: `a` shows the sample list, then `b`
    /// adds a task at its top.
    private func listMovedUnderA() throws -> (a: Router, b: Router, store: SQLiteStore) {
        let store = try SQLiteStore(path: nil)
        var a = Router(store: store, configuration: .init(sampleForNewProfiles: true))
        try a.run("login ana")
        var b = Router(store: store, configuration: .init(sampleForNewProfiles: true), phase: a.phase)
        try b.run("add From B")
        return (a, b, store)
    }

    func testARowThatNowHoldsAnotherTaskIsRefusedAndNothingChanges() throws {
        var (a, _, store) = try listMovedUnderA()
        XCTAssertEqual(
            a.failure("delete 1"),
            .rowMoved(.delete, row: 1, shown: "Buy fruit", now: "From B"))
        XCTAssertEqual(
            a.failure("toggle 2"),
            .rowMoved(.toggle, row: 2, shown: "Study SwiftUI", now: "Buy fruit"))
        XCTAssertEqual(
            a.failure("open 3"),
            .rowMoved(.open, row: 3, shown: "Go for a walk", now: "Study SwiftUI"))
        XCTAssertEqual(try store.count("ana", ListQuery()), 4)
        XCTAssertEqual(try store.page("ana", ListQuery(), offset: 0, limit: 4).map(\.done), [false, false, false, true])
        XCTAssertEqual(a.shown.kind, .list)
    }

    func testOnceTheListIsShownAgainItsRowsAreActedOn() throws {
        var (a, _, store) = try listMovedUnderA()
        try a.run("root")
        try a.run("delete 1")
        XCTAssertEqual(
            try store.page("ana", ListQuery(), offset: 0, limit: 4).map(\.title),
            ["Buy fruit", "Study SwiftUI", "Go for a walk"])
    }

    func testARowShownPastTheEndOfTheListNowIsRefused() throws {
        let store = try SQLiteStore(path: nil)
        var a = Router(store: store, configuration: .init(sampleForNewProfiles: true))
        try a.run("login ana")
        var b = Router(store: store, configuration: .init(sampleForNewProfiles: true), phase: a.phase)
        try b.run("delete 3")
        XCTAssertEqual(a.failure("delete 3"), .rowMoved(.delete, row: 3, shown: "Go for a walk", now: nil))
        XCTAssertEqual(a.failure("open 1"), nil, "row 1 still holds the task shown")
    }

    func testRowsNoListShowedAreReadFromTheListAsItIsNow() throws {
        var (_, b, store) = try listMovedUnderA()
        // A router that showed nothing yet (a state loaded, no screen made) acts on the
        // list as it is now.
        var fresh = Router(store: store, configuration: .init(), phase: b.phase)
        try fresh.run("root")
        try b.run("root", "add Second from B", "root")
        fresh = Router(store: store, configuration: .init(), phase: b.phase)
        try fresh.run("delete 1")
        XCTAssertEqual(try store.page("ana", ListQuery(), offset: 0, limit: 1).map(\.title), ["From B"])
    }

    func testTheLaunchScreenIsWhatRowsName() throws {
        var (_, b, _) = try listMovedUnderA()
        try b.run("root")
        var launched = Interpreter(
            router: Router(store: b.store, configuration: .init(), phase: b.phase),
            options: .init())
        try launched.launch(to: RecordingSink())
        try b.run("add Third from B", "root")
        let sink = RecordingSink()
        XCTAssertEqual(launched.handle("delete 1", to: sink), .failed)
        XCTAssertEqual(
            sink.errors,
            "navstack: line 1: the list changed since it was shown: row 1 is now 'Third from B', "
                + "not 'From B'; 'delete 1' was not done (root shows the list as it is now)\n")
    }

    func testTheMessagesInEachLanguage() {
        let moved = NavError.rowMoved(.delete, row: 1, shown: "Buy fruit", now: "From B")
        let gone = NavError.rowMoved(.toggle, row: 3, shown: "Go for a walk", now: nil)
        XCTAssertEqual(
            gone.message,
            "the list changed since it was shown: there is no row 3 now (it showed 'Go for a walk'); "
                + "'toggle 3' was not done (root shows the list as it is now)")
        XCTAssertEqual(
            moved.message(in: Catalog(.pt)),
            "a lista mudou desde que foi mostrada: a linha 1 agora é 'From B', não 'Buy fruit'; "
                + "'delete 1' não foi feito (root mostra a lista como está agora)")
        XCTAssertEqual(
            gone.message(in: Catalog(.es)),
            "la lista cambió desde que se mostró: ya no hay fila 3 (mostraba 'Go for a walk'); "
                + "'toggle 3' no se hizo (root muestra la lista como está ahora)")
    }
}
