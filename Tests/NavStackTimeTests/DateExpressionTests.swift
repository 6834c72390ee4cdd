import NavStackTime
import XCTest

/// Each DATE form at fixed instants (never the real clock): around month and year ends,
/// leap days, weeks from Monday, a change of daylight saving time in each zone, the
/// languages' words, and each bad input with its one-line error.
final class DateExpressionTests: XCTestCase {
    /// Friday 2026-11-27, 10:00 in Madrid.
    private let friday = Instant(iso8601: "2026-11-27T09:00:00Z")!
    private lazy var madrid = try! Zone.named("Europe/Madrid")

    /// What `text` names at `now` in `zone`, as `date` writes local times.
    private func resolve(
        _ text: String, at now: String, in zone: Zone, language: DateLanguage = .en, file: StaticString = #filePath,
        line: UInt = #line
    ) -> String? {
        do {
            return zone.local(try DateExpression.instant(text, now: Instant(iso8601: now)!, zone: zone, language: language)).systemDateText
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return nil
        }
    }

    func testEachForm() {
        let now = "2026-11-27T09:00:00Z"
        let expected: [(String, String)] = [
            ("2026-12-01", "2026-12-01 00:00:00 +0100"),
            ("2026-12-01T09:30", "2026-12-01 09:30:00 +0100"),
            ("2026-07-01T09:30", "2026-07-01 09:30:00 +0200"),
            ("now", "2026-11-27 10:00:00 +0100"),
            ("today", "2026-11-27 00:00:00 +0100"),
            ("tomorrow", "2026-11-28 00:00:00 +0100"),
            ("yesterday", "2026-11-26 00:00:00 +0100"),
            ("monday", "2026-11-30 00:00:00 +0100"),
            ("tuesday", "2026-12-01 00:00:00 +0100"),
            ("wednesday", "2026-12-02 00:00:00 +0100"),
            ("thursday", "2026-12-03 00:00:00 +0100"),
            ("friday", "2026-12-04 00:00:00 +0100"),
            ("saturday", "2026-11-28 00:00:00 +0100"),
            ("sunday", "2026-11-29 00:00:00 +0100"),
            ("mon", "2026-11-30 00:00:00 +0100"),
            ("tue", "2026-12-01 00:00:00 +0100"),
            ("wed", "2026-12-02 00:00:00 +0100"),
            ("thu", "2026-12-03 00:00:00 +0100"),
            ("fri", "2026-12-04 00:00:00 +0100"),
            ("sat", "2026-11-28 00:00:00 +0100"),
            ("sun", "2026-11-29 00:00:00 +0100"),
            ("eod", "2026-11-27 23:59:59 +0100"),
            ("eow", "2026-11-29 23:59:59 +0100"),
            ("eom", "2026-11-30 23:59:59 +0100"),
            ("eoy", "2026-12-31 23:59:59 +0100"),
            ("sow", "2026-11-23 00:00:00 +0100"),
            ("som", "2026-11-01 00:00:00 +0100"),
            ("soy", "2026-01-01 00:00:00 +0100"),
            ("+0d", "2026-11-27 00:00:00 +0100"),
            ("+3d", "2026-11-30 00:00:00 +0100"),
            ("+2w", "2026-12-11 00:00:00 +0100"),
            ("+1m", "2026-12-27 00:00:00 +0100"),
            ("+1y", "2027-11-27 00:00:00 +0100"),
            ("+005d", "2026-12-02 00:00:00 +0100"),
            ("+99999d", "2300-09-11 00:00:00 +0200"),
        ]
        for (text, local) in expected {
            XCTAssertEqual(resolve(text, at: now, in: madrid), local, text)
        }
    }

    func testCaseDoesNotMatter() {
        let now = "2026-11-27T09:00:00Z"
        for (upper, lower) in [
            ("TODAY", "today"), ("Tomorrow", "tomorrow"), ("MON", "mon"), ("Sunday", "sunday"), ("EOM", "eom"), ("SoW", "sow"),
            ("+3D", "+3d"), ("+2W", "+2w"), ("2026-12-01t09:30", "2026-12-01T09:30"), ("NOW", "now"),
        ] {
            XCTAssertEqual(resolve(upper, at: now, in: madrid), resolve(lower, at: now, in: madrid), upper)
        }
    }

    /// Weekdays are never today; weeks start on Monday.
    func testWeekdaysAndWeeks() {
        let monday = "2026-11-30T09:00:00Z"
        XCTAssertEqual(resolve("monday", at: monday, in: madrid), "2026-12-07 00:00:00 +0100")
        XCTAssertEqual(resolve("tuesday", at: monday, in: madrid), "2026-12-01 00:00:00 +0100")
        XCTAssertEqual(resolve("sunday", at: monday, in: madrid), "2026-12-06 00:00:00 +0100")
        XCTAssertEqual(resolve("sow", at: monday, in: madrid), "2026-11-30 00:00:00 +0100")
        XCTAssertEqual(resolve("eow", at: monday, in: madrid), "2026-12-06 23:59:59 +0100")
        let sunday = "2026-11-29T22:00:00Z"
        XCTAssertEqual(resolve("sunday", at: sunday, in: madrid), "2026-12-06 00:00:00 +0100")
        XCTAssertEqual(resolve("monday", at: sunday, in: madrid), "2026-11-30 00:00:00 +0100")
        XCTAssertEqual(resolve("sow", at: sunday, in: madrid), "2026-11-23 00:00:00 +0100")
        XCTAssertEqual(resolve("eow", at: sunday, in: madrid), "2026-11-29 23:59:59 +0100")
        // 23:30 UTC on Sunday is already Monday in Madrid: the local day decides.
        let late = "2026-11-29T23:30:00Z"
        XCTAssertEqual(resolve("monday", at: late, in: madrid), "2026-12-07 00:00:00 +0100")
        XCTAssertEqual(resolve("monday", at: late, in: .utc), "2026-11-30 00:00:00 +0000")
        XCTAssertEqual(resolve("sow", at: late, in: madrid), "2026-11-30 00:00:00 +0100")
    }

    func testMonthEndsYearEndsAndLeapDays() {
        let january31 = "2027-01-31T12:00:00Z"
        XCTAssertEqual(resolve("+1m", at: january31, in: madrid), "2027-02-28 00:00:00 +0100")
        XCTAssertEqual(resolve("+2m", at: january31, in: madrid), "2027-03-31 00:00:00 +0200")
        XCTAssertEqual(resolve("tomorrow", at: january31, in: madrid), "2027-02-01 00:00:00 +0100")
        XCTAssertEqual(resolve("eom", at: january31, in: madrid), "2027-01-31 23:59:59 +0100")
        XCTAssertEqual(resolve("som", at: january31, in: madrid), "2027-01-01 00:00:00 +0100")
        XCTAssertEqual(resolve("+1m", at: "2024-01-31T12:00:00Z", in: madrid), "2024-02-29 00:00:00 +0100")
        XCTAssertEqual(resolve("eom", at: "2024-02-10T12:00:00Z", in: madrid), "2024-02-29 23:59:59 +0100")
        XCTAssertEqual(resolve("eom", at: "2026-02-10T12:00:00Z", in: madrid), "2026-02-28 23:59:59 +0100")
        XCTAssertEqual(resolve("+1y", at: "2024-02-29T12:00:00Z", in: madrid), "2025-02-28 00:00:00 +0100")
        XCTAssertEqual(resolve("+4y", at: "2024-02-29T12:00:00Z", in: madrid), "2028-02-29 00:00:00 +0100")
        XCTAssertEqual(resolve("tomorrow", at: "2024-02-28T12:00:00Z", in: madrid), "2024-02-29 00:00:00 +0100")
        XCTAssertEqual(resolve("2024-02-29", at: january31, in: madrid), "2024-02-29 00:00:00 +0100")
        XCTAssertEqual(resolve("+1m", at: "2026-12-31T12:00:00Z", in: madrid), "2027-01-31 00:00:00 +0100")
        XCTAssertEqual(resolve("+1d", at: "2026-12-31T12:00:00Z", in: madrid), "2027-01-01 00:00:00 +0100")
        XCTAssertEqual(resolve("+1w", at: "2026-12-28T12:00:00Z", in: madrid), "2027-01-04 00:00:00 +0100")
        // The year is the local one: 23:30 UTC on 31 December is 2027 in Madrid, 2026 in New York.
        let newYear = "2026-12-31T23:30:00Z"
        let newYork = try! Zone.named("America/New_York")
        XCTAssertEqual(resolve("eoy", at: newYear, in: madrid), "2027-12-31 23:59:59 +0100")
        XCTAssertEqual(resolve("eoy", at: newYear, in: newYork), "2026-12-31 23:59:59 -0500")
        XCTAssertEqual(resolve("soy", at: newYear, in: madrid), "2027-01-01 00:00:00 +0100")
        XCTAssertEqual(resolve("today", at: newYear, in: newYork), "2026-12-31 00:00:00 -0500")
        XCTAssertEqual(resolve("yesterday", at: newYear, in: madrid), "2026-12-31 00:00:00 +0100")
    }

    /// A day on which daylight saving time starts or ends, in each zone: days stay whole
    /// days, times in a gap move forward by it, times in an overlap take the earlier.
    func testDaysOfChange() throws {
        let cases: [(zone: String, now: String, text: String, local: String)] = [
            ("America/Sao_Paulo", "2018-11-03T12:00:00Z", "tomorrow", "2018-11-04 01:00:00 -0200"),
            ("America/Sao_Paulo", "2018-11-04T12:00:00Z", "today", "2018-11-04 01:00:00 -0200"),
            ("America/Sao_Paulo", "2018-11-04T12:00:00Z", "2018-11-04", "2018-11-04 01:00:00 -0200"),
            ("America/Sao_Paulo", "2018-11-04T12:00:00Z", "eod", "2018-11-04 23:59:59 -0200"),
            ("America/Sao_Paulo", "2018-11-04T12:00:00Z", "2018-11-04T00:30", "2018-11-04 01:30:00 -0200"),
            ("America/Sao_Paulo", "2019-02-16T12:00:00Z", "2019-02-16T23:30", "2019-02-16 23:30:00 -0200"),
            ("America/Sao_Paulo", "2019-02-16T12:00:00Z", "+1d", "2019-02-17 00:00:00 -0300"),
            ("Europe/Madrid", "2026-03-29T10:00:00Z", "today", "2026-03-29 00:00:00 +0100"),
            ("Europe/Madrid", "2026-03-29T10:00:00Z", "eod", "2026-03-29 23:59:59 +0200"),
            ("Europe/Madrid", "2026-03-29T10:00:00Z", "2026-03-29T02:30", "2026-03-29 03:30:00 +0200"),
            ("Europe/Madrid", "2026-10-25T10:00:00Z", "2026-10-25T02:30", "2026-10-25 02:30:00 +0200"),
            ("Europe/Madrid", "2026-10-24T10:00:00Z", "+1d", "2026-10-25 00:00:00 +0200"),
            ("Europe/Madrid", "2026-10-25T10:00:00Z", "tomorrow", "2026-10-26 00:00:00 +0100"),
            ("Pacific/Auckland", "2026-09-26T20:00:00Z", "today", "2026-09-27 00:00:00 +1200"),
            ("Pacific/Auckland", "2026-09-26T20:00:00Z", "2026-09-27T02:00", "2026-09-27 03:00:00 +1300"),
            ("Pacific/Auckland", "2026-09-26T20:00:00Z", "eod", "2026-09-27 23:59:59 +1300"),
            ("Pacific/Auckland", "2026-04-04T20:00:00Z", "2026-04-05T02:30", "2026-04-05 02:30:00 +1300"),
            ("America/New_York", "2026-03-08T16:00:00Z", "2026-03-08T02:30", "2026-03-08 03:30:00 -0400"),
            ("America/New_York", "2026-11-01T16:00:00Z", "2026-11-01T01:30", "2026-11-01 01:30:00 -0400"),
            ("America/New_York", "2026-11-01T16:00:00Z", "today", "2026-11-01 00:00:00 -0400"),
            ("America/New_York", "2026-11-01T16:00:00Z", "tomorrow", "2026-11-02 00:00:00 -0500"),
            ("Asia/Kolkata", "2026-11-27T20:00:00Z", "today", "2026-11-28 00:00:00 +0530"),
            ("Asia/Kolkata", "2026-11-27T20:00:00Z", "eod", "2026-11-28 23:59:59 +0530"),
            ("Australia/Lord_Howe", "2026-10-03T20:00:00Z", "2026-10-04T02:15", "2026-10-04 02:45:00 +1100"),
            ("Australia/Lord_Howe", "2026-10-03T20:00:00Z", "eod", "2026-10-04 23:59:59 +1100"),
            ("Australia/Lord_Howe", "2026-04-04T20:00:00Z", "2026-04-05T01:45", "2026-04-05 01:45:00 +1100"),
            ("Australia/Lord_Howe", "2026-04-04T20:00:00Z", "tomorrow", "2026-04-06 00:00:00 +1030"),
            ("UTC", "2026-03-29T10:00:00Z", "2026-03-29T02:30", "2026-03-29 02:30:00 +0000"),
            ("EST5EDT,M3.2.0,M11.1.0", "2026-03-08T16:00:00Z", "2026-03-08T02:30", "2026-03-08 03:30:00 -0400"),
            ("EST5EDT,M3.2.0,M11.1.0", "2026-11-01T16:00:00Z", "2026-11-01T01:30", "2026-11-01 01:30:00 -0400"),
            ("NZST-12NZDT,M9.5.0,M4.1.0/3", "2040-09-29T20:00:00Z", "2040-09-30T02:30", "2040-09-30 03:30:00 +1300"),
        ]
        for (tz, now, text, local) in cases {
            let zone = try Zone.resolve(tz: tz)
            XCTAssertEqual(resolve(text, at: now, in: zone), local, "\(tz) \(now) \(text)")
        }
    }

    func testTheLanguagesWords() {
        let now = "2026-11-27T09:00:00Z"
        let today = "2026-11-27 00:00:00 +0100"
        let tomorrow = "2026-11-28 00:00:00 +0100"
        for text in ["hoje", "HOJE", "today"] {
            XCTAssertEqual(resolve(text, at: now, in: madrid, language: .pt), today, text)
        }
        for text in ["amanhã", "amanha", "AMANHÃ", "amanha\u{303}", "AMANHA\u{303}", "tomorrow"] {
            XCTAssertEqual(resolve(text, at: now, in: madrid, language: .pt), tomorrow, text)
        }
        for text in ["hoy", "Hoy", "today"] {
            XCTAssertEqual(resolve(text, at: now, in: madrid, language: .es), today, text)
        }
        for text in ["mañana", "manana", "MAÑANA", "man\u{303}ana", "MAN\u{303}ANA", "tomorrow"] {
            XCTAssertEqual(resolve(text, at: now, in: madrid, language: .es), tomorrow, text)
        }
        for (text, language) in [
            ("hoje", DateLanguage.en), ("hoy", .pt), ("amanhã", .es), ("mañana", .en), ("amanhá", .pt), ("mañna", .es),
        ] {
            XCTAssertThrowsError(try DateExpression.parse(text, language: language), text) { error in
                XCTAssertEqual(error as? DateError, .unrecognized(text, language))
            }
        }
    }

    func testBadInputsAreOneErrorThatNamesTheForms() {
        let invalid = [
            "2026-02-30", "2026-02-29", "2026-13-01", "2026-00-01", "2026-04-31", "0000-01-01", "2026-12-01T24:00", "2026-12-01T09:60",
        ]
        for text in invalid {
            XCTAssertThrowsError(try DateExpression.parse(text, language: .en), text) { error in
                XCTAssertEqual(error as? DateError, .invalidDate(text, .en), text)
            }
        }
        let unrecognized = [
            "", " ", " today", "today ", "2026-12-1", "2026/12/01", "26-12-01", "20261201", "2026-12-01T9:00", "2026-12-01T09:00Z",
            "+3", "+d", "+3x", "+-3d", "+ 3d", "-3d", "+3.5d", "+3dd", "next week", "socw", "eocw", "monday2", "mo", "tues", "+٣d",
            "２０２６-12-01", "nowish",
        ]
        for text in unrecognized {
            XCTAssertThrowsError(try DateExpression.parse(text, language: .en), text) { error in
                XCTAssertEqual(error as? DateError, .unrecognized(text, .en), text)
            }
        }
        for text in ["+100000d", "+123456789012345678901234567890w"] {
            XCTAssertThrowsError(try DateExpression.parse(text, language: .en), text) { error in
                XCTAssertEqual(error as? DateError, .outOfRange(text, .en), text)
            }
        }
        XCTAssertEqual(
            DateError.unrecognized("soon", .en).description,
            "'soon' is not a date: use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (with Z or +01:00 too, or 20261210T143000Z), now, today, "
                + "tomorrow, yesterday, monday…sunday (mon…sun), 1st…31st, jan…dec, sod, eod, sow, eow, som, eom, soq, eoq, soy, eoy, "
                + "someday, later, N with d, w, m or y (3d, +2w), and a time: 9am, 17:30, friday 9am"
        )
        XCTAssertEqual(
            DateError.invalidDate("2026-02-30", .pt).description,
            "'2026-02-30' names no day or time: use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (with Z or +01:00 too, or 20261210T143000Z), "
                + "now, today, tomorrow, yesterday, hoje, amanhã, segunda…domingo, monday…sunday (mon…sun), 1st…31st, jan…dec, sod, "
                + "eod, sow, eow, som, eom, soq, eoq, soy, eoy, someday, later, N with d, w, m or y (3d, +2w), and a time: 9am, 17:30, "
                + "friday 9am"
        )
        XCTAssertTrue(DateError.outOfRange("+100000d", .es).description.contains("hoy, mañana"))
        for error in [DateError.unrecognized("x", .es), .invalidDate("x", .pt), .outOfRange("x", .en)] {
            XCTAssertFalse(error.description.contains("\n"), "one line")
        }
    }

    /// Dates as typed, held to `date -d` on days of change (those that exist).
    func testDatesAsTheSystemReadsThem() throws {
        for tz in ZoneAgainstSystemTests.zones {
            let zone = try Zone.resolve(tz: tz)
            var texts: [String] = []
            var expressions: [String] = []
            for (month, day) in [(1, 1), (2, 29), (3, 8), (3, 29), (4, 5), (9, 27), (10, 4), (10, 25), (11, 1), (12, 31)] {
                for year in [2024, 2026, 2039] where CivilDate(year: year, month: month, day: day) != nil {
                    let date = "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
                    expressions += [date, date + "T12:00"]
                    texts += [date + " 00:00:00", date + " 12:00:00"]
                }
            }
            let read = try SystemDate.instants(texts, tz: tz)
            for (expression, read) in zip(expressions, read) {
                guard let read else { continue }
                XCTAssertEqual(try DateExpression.instant(expression, now: friday, zone: zone, language: .en), read, "\(tz) \(expression)")
            }
        }
    }
}
