import NavStackCore
import NavStackTime
import XCTest

/// The words of what a task holds: `add`'s attributes, tag changes, rules, projects.
final class TaskAttributesTests: XCTestCase {
    private let clock = TaskClock(zone: .utc, fixedNow: Instant(iso8601: "2026-11-27T09:00:00Z"))

    private func add(_ line: String, _ language: Language = .en) throws -> DraftFields {
        try AddLine.fields(line, clock: clock, language: language)
    }

    func testAddTakesTaskwarriorsAttributesAnywhereInItsWords() throws {
        let fields = try add("Pay rent due:eom +home pri:H project:home.bills")
        XCTAssertEqual(fields.title, "Pay rent")
        XCTAssertEqual(fields.due, Instant(iso8601: "2026-11-30T23:59:59Z"))
        XCTAssertEqual(fields.priority, .high)
        XCTAssertEqual(fields.project, "home.bills")
        XCTAssertEqual(fields.tags, ["home"])
        XCTAssertEqual(try add("+a Call   mom pro:x wait:tomorrow +B scheduled:+2d until:2027-01-01 recur:Monthly").title, "Call mom")
        XCTAssertEqual(try add("+a Call mom pro:x +B").tags, ["a", "B"])
        XCTAssertEqual(try add("Fix due:hoje", .pt).due, Instant(iso8601: "2026-11-27T00:00:00Z"))
        XCTAssertEqual(try add("x recur:Monthly").recur, "monthly")
    }

    /// More tags than a task holds are refused at the prompt, as at every other door.
    func testAddRefusesMoreTagsThanATaskHolds() throws {
        XCTAssertEqual(try add("Many " + (1...200).map { "+t\($0)" }.joined(separator: " ")).tags.count, 200)
        XCTAssertThrowsError(try add("Many " + (1...201).map { "+t\($0)" }.joined(separator: " "))) {
            XCTAssertEqual($0 as? NavError, .badValue(.tooManyItems(.tags, count: 201, limit: 200)))
        }
    }

    func testAWordMeantLiterallyStartsWithABackslash() throws {
        XCTAssertEqual(try add(#"Score \+1 today"#).title, "Score +1 today")
        XCTAssertEqual(try add(#"Say \due:now"#).title, "Say due:now")
        XCTAssertEqual(try add(#"Path C:\temp and \n"#).title, #"Path C:\temp and \n"#, "a backslash before no attribute stays")
        XCTAssertEqual(try add("Spaces  kept   as typed").title, "Spaces  kept   as typed", "no attribute: the line as typed")
        XCTAssertEqual(try add("mailto:x http://a.b +").title, "mailto:x http://a.b +", "not attributes")
    }

    func testABadAttributeFailsTheWholeAdd() {
        XCTAssertEqual(try? add("x due:soon"), nil)
        XCTAssertThrowsError(try add("x pri:Q")) { XCTAssertEqual($0 as? NavError, .badPriority("Q")) }
        XCTAssertThrowsError(try add("x pro:a..b")) { XCTAssertEqual($0 as? NavError, .badProject("a..b")) }
        XCTAssertThrowsError(try add("x recur:0d")) { XCTAssertEqual($0 as? NavError, .badRule("0d")) }
        XCTAssertThrowsError(try add("x due:")) { XCTAssertEqual($0 as? NavError, .badDate("")) }
    }

    func testTagChangesAddAndRemoveWithoutCase() throws {
        XCTAssertEqual(try TagChange(parsing: "+a -b +C").applied(to: ["b", "c"]), ["a", "C"])
        XCTAssertEqual(try TagChange(parsing: "none").applied(to: ["b"]), [])
        XCTAssertEqual(try TagChange(parsing: "-missing").applied(to: ["b"]), ["b"])
        for bad in ["home", "+", "-", "+a b", "+bad!", "+with.dot"] {
            XCTAssertThrowsError(try TagChange(parsing: bad), bad)
        }
        XCTAssertEqual(TaskWords.tagSet(["b", "A", "a", "B", "ç"]), ["A", "b", "ç"])
    }

    func testRulesAndProjects() {
        for (text, rule) in [("daily", "daily"), ("WEEKDAYS", "weekdays"), ("3d", "3d"), ("02w", "2w"), ("12m", "12m"), ("1y", "1y")] {
            XCTAssertEqual(RecurRule.normalized(text), rule, text)
        }
        for bad in ["0d", "d", "3", "3x", "-1d", "every tuesday", "999999d", "1.5d"] {
            XCTAssertNil(RecurRule.normalized(bad), bad)
        }
        XCTAssertTrue(FieldRules.isProject("home.garden"))
        XCTAssertTrue(FieldRules.isProject("Écoles_2"))
        for bad in ["", ".a", "a.", "a..b", "a b", "a/b"] { XCTAssertFalse(FieldRules.isProject(bad), bad) }
        XCTAssertTrue(TaskWords.project("home.garden", isWithin: "HOME"))
        XCTAssertFalse(TaskWords.project("homework", isWithin: "home"))
    }
}
