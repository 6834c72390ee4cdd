import NavStackCore
import NavStackTime
import XCTest

/// Filter terms in navstack's words and Taskwarrior's, read by one reader for the prompt,
/// a list's link and completion.
final class ListTermsTests: XCTestCase {
    private func read(_ line: String) throws -> (ListFilter?, ListTerms) {
        try ListTerms.read(line.split(separator: " "))
    }

    func testTheTermsReadAsTheyAreMeant() throws {
        let cases: [(String, ListFilter?, ListTerms)] = [
            ("+home", nil, ListTerms(tags: ["home"])),
            ("tag:home +Work", nil, ListTerms(tags: ["home", "Work"])),
            ("-home -errand", nil, ListTerms(withoutTags: ["errand", "home"])),
            ("status:pending", .open, ListTerms()), ("status:completed", .done, ListTerms()),
            ("status:waiting", .waiting, ListTerms()), ("STATUS:All", .every, ListTerms()),
            ("done pri:l pro:work.q1", .done, ListTerms(project: "work.q1", priority: .low)),
            ("due:TODAY", nil, ListTerms(due: .today)), ("due:tomorrow", nil, ListTerms(dueOn: "tomorrow")),
            ("due:2026-12-10", nil, ListTerms(dueOn: "2026-12-10")), ("due:amanhã", nil, ListTerms(dueOn: "amanhã")),
            ("due.before:eow due.after:+1d", nil, ListTerms(dueBefore: "eow", dueAfter: "+1d")),
            ("due:week due.after:today", nil, ListTerms(due: .week, dueAfter: "today")),
        ]
        for (line, status, terms) in cases {
            let (readStatus, readTerms) = try read(line)
            XCTAssertEqual(readStatus, status, line)
            XCTAssertEqual(readTerms, terms, line)
            // The words given back read as the same terms.
            XCTAssertEqual(try ListTerms.read(readTerms.words).1, readTerms, line)
        }
        // Tags in any order are the same terms.
        XCTAssertEqual(try read("+b +a -d -c").1, try read("-c +a -d +b").1)
        XCTAssertEqual(try read("+b +a").1.words, ["+a", "+b"])
    }

    func testABadTermIsOneErrorThatListsTheTerms() throws {
        let bad = [
            "+", "-", "due.before:", "due.before:notadate", "due.after:", "foo:bar", "+home +HOME", "+home -home",
            "tag:home -Home", "due:today due:tomorrow", "due:week due:any", "due.before:eow due.before:eom",
            "pro:a project:b", "pri:H pri:L", "priority:X", "open status:done", "status:deleted", "status:",
            "tag:bad!", "+a.b", "due:", "project:a..b",
        ]
        for line in bad {
            let word = String(line.split(separator: " ").last!)
            XCTAssertThrowsError(try read(line), line) { error in
                guard case NavError.badFilterTerm(let text) = error else { return XCTFail("\(line): \(error)") }
                XCTAssertEqual(text, word, line)
            }
        }
        XCTAssertEqual(
            NavError.badFilterTerm("foo:bar").message(in: .english),
            "'foo:bar' is not a filter term: use all, open, done or waiting (status:pending|completed|waiting), +TAG or tag:TAG and -TAG (several), project:NAME, priority:H|M|L, due:overdue|today|week|any|none|DATE, due.before:DATE, due.after:DATE, each once"
        )
        // A word with no term's mark is a status mistyped.
        XCTAssertThrowsError(try read("later")) { XCTAssertEqual($0 as? NavError, .badChoice(.filter, "later")) }
    }

    /// A bad term at the prompt changes nothing: the list, its link and the store stay.
    func testABadFilterChangesNothing() throws {
        var router = try makeRouter()
        try router.run("filter +home due:week")
        let url = router.shown.link?.url
        for line in ["filter +", "filter due.before:", "filter due.before:notadate", "filter foo:bar", "filter +a +a"] {
            guard case .badFilterTerm? = router.failure(line) else { return XCTFail(line) }
            XCTAssertEqual(router.shown.link?.url, url, line)
        }
        XCTAssertEqual(url, "navstack://tasks?filter=open&tag=home&due=week")
    }

    /// The link of a filtered list opens the same list from anywhere: its terms in one
    /// order however they were typed, a DATE as typed.
    func testTheLinkKeepsTheTermsAndOpensTheSameList() throws {
        var router = try makeRouter()
        try router.run("add Pay rent +bills +home due:tomorrow pri:h", "root", "add Fix bike +home due:+3d", "root")
        let cases: [(String, String)] = [
            ("filter +home +bills", "navstack://tasks?filter=open&tag=bills,home"),
            ("filter -bills +home", "navstack://tasks?filter=open&tag=home&notag=bills"),
            ("filter status:completed", "navstack://tasks?filter=done"),
            ("filter all due:tomorrow", "navstack://tasks?filter=all&due=tomorrow"),
            ("filter due.before:+3d due.after:today", "navstack://tasks?filter=open&due.before=%2B3d&due.after=today"),
            ("filter pri:h project:a.b due:2026-11-28", "navstack://tasks?filter=open&project=a.b&priority=H&due=2026-11-28"),
        ]
        for (line, url) in cases {
            try router.run(line)
            let shown = router.shown
            XCTAssertEqual(shown.link?.url, url, line)
            try router.run("tab account", "go " + url)
            XCTAssertEqual(router.shown, shown, line)
            // The part after the scheme too, and `priority` in any case.
            try router.run("root", "go " + url.dropFirst("navstack://".count).replacingOccurrences(of: "priority=H", with: "priority=h"))
            XCTAssertEqual(router.shown, shown, line)
        }
        try router.run("filter +home")
        XCTAssertEqual(titles(router), ["Fix bike", "Pay rent"])
        try router.run("filter +home -bills")
        XCTAssertEqual(titles(router), ["Fix bike"])
        try router.run("filter due:tomorrow")
        XCTAssertEqual(titles(router), ["Pay rent"])
        try router.run("filter due.after:tomorrow")
        XCTAssertEqual(titles(router), ["Fix bike"])
        for bad in [
            "tasks?tag=", "tasks?tag=a,,b", "tasks?notag=a&tag=A", "tasks?due.before=nope", "tasks?due=", "tasks?filter=tag:a",
            "tasks?status=done", "tasks?tag=a%20b", "tasks?due=today%20due.after:x",
        ] {
            XCTAssertThrowsError(try DeepLink(parsing: bad), bad) { XCTAssertEqual($0 as? NavError, .malformedLink(bad)) }
        }
    }

    private func titles(_ router: Router) -> [String]? {
        guard case .list(let page) = router.shown.content else { return nil }
        return page.rows.map(\.task.title)
    }

    /// `due:DATE` is the day the DATE falls on, in the local zone; `due.before:` and
    /// `due.after:` are strictly before and after its instant, as Taskwarrior 2.6 reads
    /// `before` and `after`.
    func testTheDatesBoundTheDueDates() throws {
        let zone = try Zone.named("America/Sao_Paulo")
        let clock = TaskClock(zone: zone, fixedNow: Instant(iso8601: "2026-11-27T12:00:00Z"))
        func local(_ text: String) throws -> Instant {
            try DateExpression.instant(text, now: Instant(secondsSinceEpoch: 0), zone: zone, language: .en)
        }
        let day = ListQuery(terms: ListTerms(dueOn: "tomorrow"), clock: clock)
        XCTAssertEqual(day.dueFrom, try local("2026-11-28T00:00"))
        XCTAssertEqual(day.dueBefore, try local("2026-11-29T00:00"))
        let eow = ListQuery(terms: ListTerms(dueOn: "eow"), clock: clock)
        XCTAssertEqual(eow.dueFrom, try local("2026-11-29T00:00"), "the day of the end of the week: its Sunday")
        let span = ListQuery(terms: ListTerms(dueBefore: "2026-12-01", dueAfter: "2026-11-28"), clock: clock)
        XCTAssertEqual(span.dueBefore, try local("2026-12-01T00:00"))
        XCTAssertEqual(span.dueFrom, try local("2026-11-28T00:00").adding(seconds: 1))
        func task(due: Instant?) -> TaskItem {
            var fields = DraftFields(title: "T")
            fields.due = due
            return TaskItem(id: 1, uuid: "", fields: fields)
        }
        XCTAssertFalse(span.admitsTerms(task(due: try local("2026-11-28T00:00"))), "after is strict")
        XCTAssertTrue(span.admitsTerms(task(due: try local("2026-11-28T00:01"))))
        XCTAssertFalse(span.admitsTerms(task(due: try local("2026-12-01T00:00"))), "before is strict")
        XCTAssertTrue(span.admitsTerms(task(due: try local("2026-11-30T23:59"))))
        XCTAssertFalse(span.admitsTerms(task(due: nil)))
        let none = ListQuery(terms: ListTerms(due: DueTerm.none, dueBefore: "eow"), clock: clock)
        XCTAssertFalse(none.admitsTerms(task(due: nil)), "no due date is never before one")
        // A DATE kept as typed names tomorrow's day when the list is opened tomorrow.
        let later = TaskClock(zone: zone, fixedNow: Instant(iso8601: "2026-11-28T12:00:00Z"))
        XCTAssertEqual(ListState(terms: ListTerms(dueOn: "today")).query(later).dueFrom, try local("2026-11-28T00:00"))
        XCTAssertEqual(ListState(terms: ListTerms(dueOn: "today")).query(clock).dueFrom, try local("2026-11-27T00:00"))
    }
}
