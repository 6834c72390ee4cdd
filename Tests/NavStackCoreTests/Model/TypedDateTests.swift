import NavStackCore
import NavStackTime
import XCTest

/// Where a DATE is typed (a draft's `due`, `add`'s `due:`, `day DATE`), the same parser
/// reads it: Taskwarrior's forms work at each, and each bad one is the one error.
final class TypedDateTests: XCTestCase {
    /// Monday 2026-12-07, 10:00 in Madrid.
    private lazy var clock = TaskClock(zone: try! Zone.named("Europe/Madrid"), fixedNow: Instant(iso8601: "2026-12-07T09:00:00Z"))

    private func add(_ line: String, _ language: Language = .en) throws -> DraftFields {
        try AddLine.fields(line, clock: clock, language: language)
    }

    func testEachNewFormAsTyped() throws {
        let expected = [
            ("someday", "9999-12-29T23:00:00Z"), ("sod", "2026-12-06T23:00:00Z"), ("eoq", "2026-12-31T22:59:59Z"),
            ("3d", "2026-12-09T23:00:00Z"), ("15th", "2026-12-14T23:00:00Z"), ("feb", "2027-01-31T23:00:00Z"),
            ("9am", "2026-12-07T08:00:00Z"), ("friday 9am", "2026-12-11T08:00:00Z"), ("2026-12-10T14:30:00Z", "2026-12-10T14:30:00Z"),
            ("20261210T143000Z", "2026-12-10T14:30:00Z"),
        ]
        for (text, instant) in expected {
            XCTAssertEqual(try clock.instant(typed: text, language: .en), Instant(iso8601: instant), text)
        }
        XCTAssertEqual(try clock.instant(typed: "sexta-feira 9am", language: .pt), Instant(iso8601: "2026-12-11T08:00:00Z"))
        XCTAssertEqual(try clock.instant(typed: "viernes", language: .es), Instant(iso8601: "2026-12-10T23:00:00Z"))
        for bad in ["13pm", "25:00", "32nd", "99999999y", "segunda", "now 9am"] {
            XCTAssertThrowsError(try clock.instant(typed: bad, language: .en), bad) { XCTAssertEqual($0 as? NavError, .badDate(bad)) }
        }
    }

    /// A time of day right after a date attribute is that day's; anywhere else it is a
    /// word of the title.
    func testAddJoinsATimeToTheDateBeforeIt() throws {
        let fields = try add("Call mom due:friday 9am +family")
        XCTAssertEqual(fields.title, "Call mom")
        XCTAssertEqual(fields.due, Instant(iso8601: "2026-12-11T08:00:00Z"))
        XCTAssertEqual(fields.tags, ["family"])
        XCTAssertEqual(try add("Standup scheduled:tomorrow 17:30").scheduled, Instant(iso8601: "2026-12-08T16:30:00Z"))
        XCTAssertEqual(try add("Pay due:1st recur:monthly").due, Instant(iso8601: "2026-12-31T23:00:00Z"))
        let titled = try add("Meet at 9am due:friday")
        XCTAssertEqual(titled.title, "Meet at 9am")
        XCTAssertEqual(titled.due, Instant(iso8601: "2026-12-10T23:00:00Z"))
        XCTAssertEqual(try add("Lunch due:today 1pm with Ana").title, "Lunch with Ana")
        XCTAssertEqual(try add("Rent due:sexta 9am", .pt).due, Instant(iso8601: "2026-12-11T08:00:00Z"))
        XCTAssertThrowsError(try add("x due:friday 13pm")) { XCTAssertEqual($0 as? NavError, .badDate("friday 13pm")) }
        XCTAssertThrowsError(try add("x due:now 9am")) { XCTAssertEqual($0 as? NavError, .badDate("now 9am")) }
    }

    /// The error lists the new forms in each language.
    func testTheErrorNamesTheForms() {
        let english = NavError.badDate("soon").message(in: Catalog(.en))
        for form in ["someday", "1st…31st", "jan", "soq", "eoq", "9am", "17:30", "friday 9am", "20261210T143000Z", "99999"] {
            XCTAssertTrue(english.contains(form), form)
        }
        XCTAssertTrue(NavError.badDate("x").message(in: Catalog(.pt)).contains("segunda … domingo"))
        XCTAssertTrue(NavError.badDate("x").message(in: Catalog(.es)).contains("lunes … domingo"))
        for language in [Language.en, .pt, .es] {
            let rule = NavError.badRule("x").message(in: Catalog(language))
            for name in ["fortnight", "bimonthly", "semiannual", "annual", "biannual", "3days"] {
                XCTAssertTrue(rule.contains(name), "\(language) \(name)")
            }
        }
    }
}
