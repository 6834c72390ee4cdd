import NavStackCore
import XCTest

final class CompletionTests: XCTestCase {
    func testCommandsOfThisScreen() throws {
        let router = try makeRouter()
        XCTAssertEqual(router.completions(for: "op").candidates, ["open"])
        XCTAssertEqual(router.completions(for: "").candidates.first, "open")
        XCTAssertEqual(router.completions(for: "ed").candidates, [], "edit is not on the list")
        let signedOut = try makeRouter(signedIn: false)
        XCTAssertEqual(signedOut.completions(for: "l").candidates, ["login"])
    }

    func testArguments() throws {
        var router = try makeRouter()
        XCTAssertEqual(router.completions(for: "tab a").candidates, ["agenda", "account"])
        XCTAssertEqual(router.completions(for: "tab ag").candidates, ["agenda"])
        XCTAssertEqual(
            router.completions(for: "filter ").candidates, ["all", "open", "done", "waiting", "tag:", "project:", "priority:", "due:"])
        XCTAssertEqual(router.completions(for: "filter open due:t").candidates, ["due:today"])
        XCTAssertEqual(router.completions(for: "open ").candidates, ["1", "2", "3"])
        XCTAssertEqual(
            router.completions(for: "go tasks/").candidates,
            ["tasks/new", "tasks/1", "tasks/1/edit", "tasks/2", "tasks/2/edit", "tasks/3", "tasks/3/edit"])
        XCTAssertEqual(router.completions(for: "go acc").commonPrefix, "account")
        XCTAssertEqual(router.completions(for: "help s").candidates, ["save", "scheduled", "save!", "settings"])
        try router.run("open 1", "edit")
        XCTAssertEqual(router.completions(for: "done o").candidates, ["on", "off"])
        XCTAssertEqual(router.completions(for: "done o").commonPrefix, "o")
        XCTAssertEqual(router.completions(for: "back ").candidates, ["1", "2", "to"])
    }

    func testSubtaskLinksRowsAndPlaces() throws {
        var router = try makeRouter()
        try router.run("open 1", "add Child", "add Grandchild", "back")
        // Task 1 › 4 › 5: on the detail of 4.
        XCTAssertEqual(
            router.completions(for: "go tasks/1/").candidates,
            ["tasks/1/4", "tasks/1/4/edit", "tasks/1/4/new", "tasks/1/edit", "tasks/1/4/5", "tasks/1/4/5/edit", "tasks/1/new"])
        XCTAssertEqual(
            router.completions(for: "go tasks/1/4/").candidates,
            ["tasks/1/4/edit", "tasks/1/4/new", "tasks/1/4/5", "tasks/1/4/5/edit"])
        XCTAssertEqual(router.completions(for: "open ").candidates, ["1"])
        XCTAssertEqual(router.completions(for: "back to ").candidates, ["list", "4", "1"])
        XCTAssertEqual(router.completions(for: "back to l").candidates, ["list"])
        XCTAssertEqual(router.completions(for: "move 1 ").candidates, ["to"])
        XCTAssertEqual(router.completions(for: "move 1 to t").candidates, ["top"])
        XCTAssertEqual(router.completions(for: "move 1 to ").candidates, ["top", "5", "1", "4"])
    }
}
