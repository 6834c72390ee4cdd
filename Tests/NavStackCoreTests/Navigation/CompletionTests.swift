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
        XCTAssertEqual(router.completions(for: "tab a").candidates, ["account"])
        XCTAssertEqual(router.completions(for: "filter ").candidates, ["all", "open", "done"])
        XCTAssertEqual(router.completions(for: "open ").candidates, ["1", "2", "3"])
        XCTAssertEqual(router.completions(for: "go tasks/").candidates,
                       ["tasks/new", "tasks/1", "tasks/1/edit", "tasks/2", "tasks/2/edit", "tasks/3", "tasks/3/edit"])
        XCTAssertEqual(router.completions(for: "go acc").commonPrefix, "account")
        XCTAssertEqual(router.completions(for: "help s").candidates, ["save", "save!", "settings"])
        try router.run("open 1", "edit")
        XCTAssertEqual(router.completions(for: "done o").candidates, ["on", "off"])
        XCTAssertEqual(router.completions(for: "done o").commonPrefix, "o")
        XCTAssertEqual(router.completions(for: "back ").candidates, ["1", "2"])
    }
}
