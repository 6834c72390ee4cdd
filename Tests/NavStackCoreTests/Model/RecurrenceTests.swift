import NavStackCore
import NavStackTime
import XCTest

final class RecurrenceTests: XCTestCase {
    private func instant(_ text: String) -> Instant { Instant(iso8601: text)! }

    private func next(_ due: String, _ rule: String, in zone: Zone = .utc) -> String? {
        Recurrence.next(after: instant(due), rule: rule, zone: zone)?.iso8601
    }

    func testEachRuleStepsOnTheCalendar() {
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "daily"), "2026-11-28T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "weekly"), "2026-12-04T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "biweekly"), "2026-12-11T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "quarterly"), "2027-02-27T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "yearly"), "2027-11-27T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "3d"), "2026-11-30T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "2w"), "2026-12-11T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "18m"), "2028-05-27T09:00:00Z")
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "2y"), "2028-11-27T09:00:00Z")
        XCTAssertNil(next("2026-11-27T09:00:00Z", "every tuesday"))
        XCTAssertNil(next("2026-11-27T09:00:00Z", "0d"))
    }

    func testWeekdaysSkipTheWeekend() {
        // 2026-11-27 is a Friday.
        XCTAssertEqual(next("2026-11-27T09:00:00Z", "weekdays"), "2026-11-30T09:00:00Z")
        XCTAssertEqual(next("2026-11-28T09:00:00Z", "weekdays"), "2026-11-30T09:00:00Z")
        XCTAssertEqual(next("2026-11-30T09:00:00Z", "weekdays"), "2026-12-01T09:00:00Z")
    }

    func testMonthEndsAndLeapDaysLandOnTheLastDay() {
        XCTAssertEqual(next("2027-01-31T10:00:00Z", "monthly"), "2027-02-28T10:00:00Z")
        XCTAssertEqual(next("2028-01-31T10:00:00Z", "monthly"), "2028-02-29T10:00:00Z")
        XCTAssertEqual(next("2026-08-31T10:00:00Z", "quarterly"), "2026-11-30T10:00:00Z")
        XCTAssertEqual(next("2028-02-29T10:00:00Z", "yearly"), "2029-02-28T10:00:00Z")
        XCTAssertEqual(next("2028-02-29T10:00:00Z", "4y"), "2032-02-29T10:00:00Z")
    }

    func testADailyTaskKeepsItsWallClockTimeAcrossAChangeOfClocks() throws {
        let madrid = try Zone.named("Europe/Madrid")
        // 09:00 in Madrid on 28 March 2026 (UTC+1), then on the 29th, after clocks went forward (UTC+2).
        XCTAssertEqual(next("2026-03-28T08:00:00Z", "daily", in: madrid), "2026-03-29T07:00:00Z")
        // And back in October.
        XCTAssertEqual(next("2026-10-24T07:00:00Z", "daily", in: madrid), "2026-10-25T08:00:00Z")
        let saoPaulo = try Zone.named("America/Sao_Paulo")
        XCTAssertEqual(next("2026-11-27T12:00:00Z", "weekly", in: saoPaulo), "2026-12-04T12:00:00Z")
    }

    func testTheNextInstanceKeepsWhatTheContractListsAndMovesItsDates() {
        let done = DraftFields(
            title: "Water plants", notes: "the ferns too", done: true, due: instant("2026-11-30T09:00:00Z"),
            scheduled: instant("2026-11-29T18:00:00Z"), wait: instant("2026-11-28T00:00:00Z"), until: instant("2027-01-01T00:00:00Z"),
            priority: .medium, project: "home.garden", recur: "weekly", tags: ["home"],
            annotations: [Annotation(entry: instant("2026-11-27T09:00:00Z"), text: "bought soil")],
            depends: ["01a2b3c4-0000-7000-8000-000000000001"], custom: [CustomField(name: "estimate", value: "10m")])
        let next = Recurrence.nextInstance(of: done, zone: .utc)
        XCTAssertEqual(
            next,
            DraftFields(
                title: "Water plants", notes: "the ferns too", done: false, due: instant("2026-12-07T09:00:00Z"),
                scheduled: instant("2026-12-06T18:00:00Z"), wait: instant("2026-12-05T00:00:00Z"),
                until: instant("2027-01-01T00:00:00Z"), priority: .medium, project: "home.garden", recur: "weekly", tags: ["home"]))
        // Past `until`: the series ends.
        var last = done
        last.due = instant("2026-12-28T09:00:00Z")
        XCTAssertNil(Recurrence.nextInstance(of: last, zone: .utc))
        // No rule, or no due date: no next instance.
        var plain = done
        plain.recur = nil
        XCTAssertNil(Recurrence.nextInstance(of: plain, zone: .utc))
        var undated = done
        undated.due = nil
        XCTAssertNil(Recurrence.nextInstance(of: undated, zone: .utc))
    }

    func testARuleNeedsADueDateAndAnEndAfterIt() {
        XCTAssertEqual(Recurrence.problem(with: DraftFields(title: "T", recur: "daily")), .recurNeedsDue)
        XCTAssertEqual(
            Recurrence.problem(
                with: DraftFields(title: "T", due: instant("2026-12-01T00:00:00Z"), until: instant("2026-11-01T00:00:00Z"), recur: "daily")),
            .untilBeforeDue)
        XCTAssertNil(Recurrence.problem(with: DraftFields(title: "T", due: instant("2026-12-01T00:00:00Z"), recur: "daily")))
        XCTAssertNil(Recurrence.problem(with: DraftFields(title: "T", until: instant("2026-11-01T00:00:00Z"))))
    }
}
