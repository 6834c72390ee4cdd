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
            router.completions(for: "filter ").candidates,
            [
                "all", "open", "done", "waiting", "status:", "+", "-", "tag:", "project:", "priority:", "due:", "due.before:",
                "due.after:",
            ])
        XCTAssertEqual(router.completions(for: "filter open due:t").candidates, ["due:today", "due:tomorrow"])
        XCTAssertEqual(router.completions(for: "open ").candidates, ["1", "2", "3"])
        XCTAssertEqual(router.completions(for: "done ").candidates, ["1", "2", "3"], "rows on a list, on|off on a draft")
        XCTAssertEqual(router.completions(for: "modify ").candidates, ["1", "2", "3"])
        XCTAssertEqual(
            router.completions(for: "go tasks/").candidates,
            ["tasks/new", "tasks/1", "tasks/1/edit", "tasks/2", "tasks/2/edit", "tasks/3", "tasks/3/edit"])
        XCTAssertEqual(router.completions(for: "go acc").commonPrefix, "account")
        XCTAssertEqual(router.completions(for: "help s").candidates, ["sort", "save", "scheduled", "save!", "settings"])
        try router.run("open 1", "edit")
        XCTAssertEqual(router.completions(for: "done o").candidates, ["on", "off"])
        XCTAssertEqual(router.completions(for: "done o").commonPrefix, "o")
        XCTAssertEqual(router.completions(for: "due s").candidates, ["sow", "som", "someday"])
        XCTAssertEqual(router.completions(for: "recur f").candidates, ["fortnight"])
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

    /// After `+`, `-`, `tag:` and `project:`, the profile's names that start with what is
    /// typed (a project's parents too); the other terms' values.
    func testFilterTermsAndTheProfilesNames() throws {
        var router = try makeRouter()
        try router.run("add Pay rent +bills +Home pro:home.garden", "root", "add Fix bike +bike pro:work", "root")
        XCTAssertEqual(router.completions(for: "filter +").candidates, ["+bike", "+bills", "+home"])
        XCTAssertEqual(router.completions(for: "filter open -bi").candidates, ["-bike", "-bills"])
        XCTAssertEqual(router.completions(for: "filter tag:h").candidates, ["tag:home"])
        XCTAssertEqual(router.completions(for: "filter project:").candidates, ["project:home", "project:home.garden", "project:work"])
        XCTAssertEqual(router.completions(for: "filter project:home.").candidates, ["project:home.garden"])
        XCTAssertEqual(router.completions(for: "filter due").candidates, ["due:", "due.before:", "due.after:"])
        XCTAssertEqual(router.completions(for: "filter due.before:e").candidates, ["due.before:eow", "due.before:eom", "due.before:eoy"])
        XCTAssertEqual(router.completions(for: "filter due:t").candidates, ["due:today", "due:tomorrow"])
        XCTAssertEqual(router.completions(for: "filter status:").candidates.first, "status:pending")
        XCTAssertEqual(router.completions(for: "filter priority:").candidates, ["priority:H", "priority:M", "priority:L"])
        try router.run("delete 1")
        XCTAssertEqual(router.completions(for: "filter +").candidates, ["+bills", "+home"], "a name no task holds is gone")
    }
}
