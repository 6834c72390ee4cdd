import NavStackCore
import NavStackTime
import XCTest

/// Taskwarrior 2.6's rule names besides the contract's first ones: each is read as the
/// rule it steps by, so it is kept, sent and exported in one spelling.
final class RecurRuleTests: XCTestCase {
    func testTaskwarriorsNamesAreReadAsTheRuleTheyStepBy() {
        let expected = [
            ("annual", "yearly"), ("Annual", "yearly"), ("semiannual", "6m"), ("biannual", "2y"), ("bimonthly", "2m"),
            ("fortnight", "biweekly"), ("FORTNIGHT", "biweekly"),
        ]
        for (text, rule) in expected { XCTAssertEqual(RecurRule.normalized(text), rule, text) }
    }

    func testSpelledOutUnits() {
        let expected = [
            ("1day", "1d"), ("3days", "3d"), ("1week", "1w"), ("2weeks", "2w"), ("1month", "1m"), ("6Months", "6m"),
            ("1year", "1y"), ("10years", "10y"), ("007days", "7d"), ("99999days", "99999d"),
        ]
        for (text, rule) in expected { XCTAssertEqual(RecurRule.normalized(text), rule, text) }
    }

    func testWhatIsNoRule() {
        let bad = [
            "days", "0days", "0day", "-2weeks", "3 days", "3dayss", "3ds", "3dys", "100000days", "1.5weeks", "2fortnight",
            "fortnights", "annually", "3q", "quarter", "", "+3d",
        ]
        for text in bad { XCTAssertNil(RecurRule.normalized(text), text) }
    }

    /// Each new name steps as Taskwarrior's `recur.cpp` does: `biannual` two years on,
    /// `semiannual` six months, `bimonthly` two, `fortnight` fourteen days.
    func testEachNameStepsAsTaskwarriorsDoes() {
        let due = Instant(iso8601: "2026-08-31T09:00:00Z")!
        let expected = [
            ("annual", "2027-08-31T09:00:00Z"), ("biannual", "2028-08-31T09:00:00Z"), ("semiannual", "2027-02-28T09:00:00Z"),
            ("bimonthly", "2026-10-31T09:00:00Z"), ("fortnight", "2026-09-14T09:00:00Z"), ("3days", "2026-09-03T09:00:00Z"),
            ("2weeks", "2026-09-14T09:00:00Z"), ("1month", "2026-09-30T09:00:00Z"), ("2years", "2028-08-31T09:00:00Z"),
        ]
        for (text, next) in expected {
            let rule = RecurRule.normalized(text)!
            XCTAssertEqual(Recurrence.next(after: due, rule: rule, zone: .utc), Instant(iso8601: next), text)
        }
    }

    /// `add`'s `recur:` and a draft's `recur` store the one spelling, which every door's
    /// value rules take.
    func testTheStoredSpellingIsTheCanonicalOne() throws {
        let clock = TaskClock(zone: .utc, fixedNow: Instant(iso8601: "2026-11-27T09:00:00Z"))
        XCTAssertEqual(try AddLine.fields("Rent due:1st recur:annual", clock: clock, language: .en).recur, "yearly")
        XCTAssertEqual(try AddLine.fields("Plants due:sat recur:fortnight", clock: clock, language: .en).recur, "biweekly")
        XCTAssertEqual(try AddLine.fields("Bins due:mon recur:2weeks", clock: clock, language: .en).recur, "2w")
        XCTAssertThrowsError(try AddLine.fields("x due:mon recur:0days", clock: clock, language: .en)) {
            XCTAssertEqual($0 as? NavError, .badRule("0days"))
        }
    }
}
