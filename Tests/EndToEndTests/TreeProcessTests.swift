import Foundation
import XCTest

/// Two processes on one store, one deep in the tree: a long session A (JSON through
/// pipes) sits on a subtask while one-shot commands B move and delete tasks on its path.
/// A's next screen shows the tree as B left it.
extension StoreProcessTests {
    /// A's session on the detail of task 5, a subtask of 4, a subtask of 1: `ana` on the
    /// sample tasks with `Apples` (4) under `Buy fruit` and `Green apples` (5) under it.
    private func deepInTheTree() throws -> Session {
        let setup = try run(["--sample"], lines: ["login ana", "open 1", "add Apples", "add Green apples"])
        XCTAssertEqual(setup.status, 0, setup.stderr)
        let session = Session(try startSession())
        let shown = session.send("where")
        XCTAssertEqual(shown, #"{"url":"navstack://tasks/1/4/5","breadcrumb":["My Tasks","Buy fruit","Apples","Green apples"]}"#)
        return session
    }

    /// B: one-shot commands on the same store, each on its own `-c`.
    private func other(_ commands: String...) throws {
        let result = try run(commands.flatMap { ["-c", $0] })
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// What the store holds of a task: `title|parent`, empty when it is gone.
    private func task(_ id: Int) throws -> String {
        try sqlite("SELECT title || '|' || parent FROM task WHERE id = \(id)")
    }

    func testAnotherProcessMovingATaskOnThePathRebuildsTheNextScreen() throws {
        let a = try deepInTheTree()
        try other("go tasks/1", "move 1 to 2")
        XCTAssertEqual(try task(4), "Apples|2")
        let shown = a.send("page 1")
        XCTAssertTrue(
            shown.hasPrefix(
                #"{"screen":"detail","title":"Green apples","tab":"tasks","path":["detail/2","detail/4","detail/5"],"sheet":null,"url":"navstack://tasks/2/4/5""#
            ),
            shown)
        XCTAssertEqual(
            a.send("where"),
            #"{"url":"navstack://tasks/2/4/5","breadcrumb":["My Tasks","Study SwiftUI","Apples","Green apples"]}"#)
        let back = a.send("back")
        XCTAssertTrue(back.contains(#""path":["detail/2","detail/4"]"#), back)
        XCTAssertTrue(back.contains(#""parent":2"#), back)
        a.close()
    }

    /// `where` typed first after B's move names the chain as the tree has it: a URL that
    /// `go` opens.
    func testWhereAfterAnotherProcessMovedATaskOnThePathNamesTheChain() throws {
        let a = try deepInTheTree()
        try other("go tasks/1", "move 1 to 2")
        let location = a.send("where")
        XCTAssertEqual(location, #"{"url":"navstack://tasks/2/4/5","breadcrumb":["My Tasks","Study SwiftUI","Apples","Green apples"]}"#)
        let opened = try run(["--format", "json", "-c", "go " + (location.firstMatch(of: /"url":"([^"]+)"/).map { String($0.1) } ?? "")])
        XCTAssertEqual(opened.status, 0, opened.stdout)
        a.close()
    }

    func testAnotherProcessDeletingATaskOnThePathShowsNotFound() throws {
        let a = try deepInTheTree()
        try other("go tasks/4", "delete", "yes")
        XCTAssertEqual(try task(4), "")
        XCTAssertEqual(try task(5), "", "its subtask went with it")
        a.send("tab account")
        let shown = a.send("tab tasks")
        XCTAssertTrue(shown.hasPrefix(#"{"screen":"not-found","title":"Task not found""#), shown)
        XCTAssertTrue(shown.hasSuffix(#""id":5}"#), shown)
        let parent = a.send("back")
        XCTAssertTrue(parent.hasPrefix(#"{"screen":"not-found""#), parent)
        XCTAssertTrue(parent.hasSuffix(#""id":4}"#), parent)
        let top = a.send("back")
        XCTAssertTrue(top.hasPrefix(#"{"screen":"detail","title":"Buy fruit","tab":"tasks","path":["detail/1"]"#), top)
        XCTAssertTrue(top.hasSuffix(#""items":[],"total":0,"page":1,"pages":1}"#), top)

        // Undone elsewhere, the subtree is back where it was, for A too.
        try other("undo")
        XCTAssertEqual(try task(4), "Apples|1")
        XCTAssertEqual(try task(5), "Green apples|4")
        let again = a.send("open 1")
        XCTAssertTrue(again.contains(#""path":["detail/1","detail/4"],"sheet":null,"url":"navstack://tasks/1/4""#), again)
        a.close()
    }

    func testASaveLandsOnItsTaskMovedWhileTheDraftWasOpen() throws {
        let a = try deepInTheTree()
        a.send("edit")
        XCTAssertTrue(a.send("title Green ones").contains(#""dirty":true"#))
        // B first drops the draft A left in the shared navigation state (A's own copy is
        // in its memory), then moves task 5 under task 2.
        try other("back!", "go tasks/4", "move 1 to 2")
        XCTAssertEqual(try task(5), "Green apples|2")
        let editing = a.send("notes Crisp")
        XCTAssertTrue(editing.contains(#""path":["detail/2","detail/5","edit/5"],"sheet":null,"url":"navstack://tasks/2/5/edit""#), editing)
        XCTAssertTrue(editing.contains(#""draft":{"title":"Green ones","notes":"Crisp","done":false,"#), editing)
        let saved = a.send("save")
        XCTAssertTrue(saved.contains(#""path":["detail/2","detail/5"],"sheet":null,"url":"navstack://tasks/2/5""#), saved)
        XCTAssertTrue(saved.contains(#""title":"Green ones","notes":"Crisp","done":false,"parent":2"#), saved)
        XCTAssertEqual(try task(5), "Green ones|2")
        XCTAssertEqual(try sqlite("SELECT count(*) FROM task"), "5", "saved onto the task, not a new one")
        a.close()
    }
}
