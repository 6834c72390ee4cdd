import XCTest

@testable import NavStackCore

final class JSONRendererTests: XCTestCase {
    private func json(_ response: Response) -> String {
        var out = ""
        JSONRenderer().render(response, to: &out)
        return out
    }

    func testTheLoginScreen() throws {
        let router = try makeRouter(signedIn: false)
        XCTAssertEqual(
            json(.screen(router.shown)),
            """
            {"screen":"login","title":"Sign in","tab":null,"path":[],"sheet":null,"url":null,\
            "actions":["login","go","help","quit","exit"],"pending":null}

            """)
    }

    func testTheListScreen() throws {
        let router = try makeRouter(pageSize: 2)
        XCTAssertEqual(
            json(.screen(router.shown)),
            """
            {"screen":"list","title":"My Tasks","tab":"tasks","path":[],"sheet":null,"url":"navstack://tasks",\
            "actions":["open","add","new","toggle","done","modify","delete","move","filter","find","sort","next","prev","page","root","tab","undo","redo","go","where","help","quit","exit"],\
            "items":[{"row":1,"id":1,"uuid":"018cc251-f400-7000-b516-f52548da1785","title":"Buy fruit","notes":"Apples, bananas, grapes","done":false,\
            "parent":null,"subtasks":{"done":0,"total":0},\
            "due":null,"scheduled":null,"wait":null,"until":null,"priority":null,"project":null,"recur":null,"tags":[],"created":"2026-11-27T09:00:00Z","modified":"2026-11-27T09:00:00Z","completed":null},\
            {"row":2,"id":2,"uuid":"018cc251-f400-7001-bb44-5c5c9f7b74cb","title":"Study SwiftUI","notes":"NavigationStack and routes","done":false,\
            "parent":null,"subtasks":{"done":0,"total":0},\
            "due":null,"scheduled":null,"wait":null,"until":null,"priority":null,"project":null,"recur":null,"tags":[],"created":"2026-11-27T09:00:00Z","modified":"2026-11-27T09:00:00Z","completed":null}],\
            "total":3,"filter":"all","tag":null,"tags":[],"withoutTags":[],"project":null,"priority":null,"due":null,"dueBefore":null,"dueAfter":null,"search":null,"sort":null,"page":1,"pages":2}

            """)
    }

    func testASortedListGivesItsSortAsTyped() throws {
        var router = try makeRouter(pageSize: 2)
        try router.run("sort -due")
        XCTAssertTrue(json(.screen(router.shown)).contains(#""url":"navstack://tasks?sort=-due""#))
        XCTAssertTrue(json(.screen(router.shown)).contains(#""search":null,"sort":"-due","page":1,"pages":2}"#))
    }

    func testTheEditScreen() throws {
        var router = try makeRouter()
        try router.run("open 2", "edit", "title New \"quoted\" \\ title")
        XCTAssertEqual(
            json(.screen(router.shown)),
            """
            {"screen":"edit","title":"Edit Task","tab":"tasks","path":["detail/2","edit/2"],"sheet":null,\
            "url":"navstack://tasks/2/edit","actions":["title","notes","done","due","scheduled","wait","until","recur","priority","project","tag","save","cancel","back","back!","root","tab","undo","redo","go","where","help","quit","exit"],\
            "draft":{"title":"New \\"quoted\\" \\\\ title","notes":"NavigationStack and routes","done":false,\
            "due":null,"scheduled":null,"wait":null,"until":null,"priority":null,"project":null,"recur":null,"tags":[]},"canSave":true,"dirty":true,"conflicts":[],"deleted":false}

            """)
    }

    func testDetailNotFoundAccountAndSheet() throws {
        var router = try makeRouter()
        try router.run("open 1")
        XCTAssertTrue(
            json(.screen(router.shown)).contains(
                #""task":{"id":1,"uuid":"018cc251-f400-7000-b516-f52548da1785","title":"Buy fruit","notes":"Apples, bananas, grapes","done":false,"parent":null,"subtasks":{"done":0,"total":0},"due":null,"scheduled":null,"wait":null,"until":null,"priority":null,"project":null,"recur":null,"tags":[],"created":"2026-11-27T09:00:00Z","modified":"2026-11-27T09:00:00Z","completed":null,"annotations":[],"depends":[],"fields":{}},"items":[],"total":0,"page":1,"pages":1}"#
            ))
        _ = try router.store.delete("ana", id: 1)
        XCTAssertTrue(json(.screen(router.shown)).hasPrefix(#"{"screen":"not-found","title":"Task not found""#))
        XCTAssertTrue(json(.screen(router.shown)).hasSuffix(#""id":1}"# + "\n"))
        try router.run("tab account")
        XCTAssertTrue(json(.screen(router.shown)).hasSuffix(#""user":"ana","open":1,"done":1}"# + "\n"))
        try router.run("tab tasks", "tab tasks", "new")
        XCTAssertTrue(json(.screen(router.shown)).contains(#""sheet":"new-task","url":"navstack://tasks/new""#))
        XCTAssertTrue(json(.screen(router.shown)).hasSuffix(#""canSave":false,"dirty":false,"conflicts":[],"deleted":false}"# + "\n"))
    }

    func testHelpWhereAndErrors() throws {
        var router = try makeRouter()
        try router.run("open 2")
        XCTAssertEqual(json(try router.run("where")), #"{"url":"navstack://tasks/2","breadcrumb":["My Tasks","Study SwiftUI"]}"# + "\n")
        XCTAssertEqual(json(try router.run("help edit")), #"{"help":[{"command":"edit","summary":"Edit this task"}]}"# + "\n")
        var out = ""
        JSONRenderer().renderError(NavError.noSuchTask("42").message, line: 7, to: &out)
        XCTAssertEqual(out, #"{"error":{"message":"there is no task 42","line":7}}"# + "\n")
    }

    func testStringsAreEscaped() {
        var writer = JSONWriter()
        writer.string("a\"b\\c\nd\u{1}e\u{7F}é日\u{2028}")
        XCTAssertEqual(writer.text, #""a\"b\\c\nd\u0001e\u007fé日\u2028""#)
    }
}
