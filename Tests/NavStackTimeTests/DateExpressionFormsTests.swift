import NavStackTime
import XCTest

/// The DATE forms Taskwarrior users type besides the first ones: `someday`, `sod`, the
/// quarter, `3d`, `15th`, month names, times of day, ISO 8601 instants and the pt/es
/// weekday names, at fixed instants (a month end, a 31st, a Sunday, days of change), and
/// each bad input with its error.
final class DateExpressionFormsTests: XCTestCase {
    private lazy var madrid = try! Zone.named("Europe/Madrid")
    private lazy var newYork = try! Zone.named("America/New_York")

    /// What `text` names at `now` in `zone`, as `date` writes local times.
    private func resolve(
        _ text: String, at now: String, in zone: Zone? = nil, language: DateLanguage = .en, file: StaticString = #filePath,
        line: UInt = #line
    ) -> String? {
        let zone = zone ?? madrid
        do {
            return zone.local(try DateExpression.instant(text, now: Instant(iso8601: now)!, zone: zone, language: language)).systemDateText
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return nil
        }
    }

    private func check(
        _ expected: [(String, String)], at now: String, in zone: Zone? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        for (text, local) in expected {
            XCTAssertEqual(resolve(text, at: now, in: zone, file: file, line: line), local, "\(now) \(text)", file: file, line: line)
        }
    }

    /// Monday 2026-12-07, 10:00 in Madrid.
    func testEachFormOnAMonday() {
        check(
            [
                ("someday", "9999-12-30 00:00:00 +0100"), ("later", "9999-12-30 00:00:00 +0100"), ("SOMEDAY", "9999-12-30 00:00:00 +0100"),
                ("sod", "2026-12-07 00:00:00 +0100"), ("soq", "2026-10-01 00:00:00 +0200"), ("eoq", "2026-12-31 23:59:59 +0100"),
                ("0d", "2026-12-07 00:00:00 +0100"), ("3d", "2026-12-10 00:00:00 +0100"), ("2w", "2026-12-21 00:00:00 +0100"),
                ("1m", "2027-01-07 00:00:00 +0100"), ("1y", "2027-12-07 00:00:00 +0100"), ("99999d", "2300-09-21 00:00:00 +0200"),
                ("1st", "2027-01-01 00:00:00 +0100"), ("2nd", "2027-01-02 00:00:00 +0100"), ("3rd", "2027-01-03 00:00:00 +0100"),
                ("7th", "2027-01-07 00:00:00 +0100"), ("8th", "2026-12-08 00:00:00 +0100"), ("11th", "2026-12-11 00:00:00 +0100"),
                ("12th", "2026-12-12 00:00:00 +0100"), ("13th", "2026-12-13 00:00:00 +0100"), ("15TH", "2026-12-15 00:00:00 +0100"),
                ("21st", "2026-12-21 00:00:00 +0100"), ("22nd", "2026-12-22 00:00:00 +0100"), ("23rd", "2026-12-23 00:00:00 +0100"),
                ("31st", "2026-12-31 00:00:00 +0100"),
                ("jan", "2027-01-01 00:00:00 +0100"), ("feb", "2027-02-01 00:00:00 +0100"), ("mar", "2027-03-01 00:00:00 +0100"),
                ("may", "2027-05-01 00:00:00 +0200"), ("nov", "2027-11-01 00:00:00 +0100"), ("dec", "2027-12-01 00:00:00 +0100"),
                ("January", "2027-01-01 00:00:00 +0100"), ("september", "2027-09-01 00:00:00 +0200"),
                ("december", "2027-12-01 00:00:00 +0100"),
                ("9am", "2026-12-07 09:00:00 +0100"), ("5pm", "2026-12-07 17:00:00 +0100"), ("17:30", "2026-12-07 17:30:00 +0100"),
                ("12am", "2026-12-07 00:00:00 +0100"), ("12pm", "2026-12-07 12:00:00 +0100"), ("9:30AM", "2026-12-07 09:30:00 +0100"),
                ("11:59pm", "2026-12-07 23:59:00 +0100"), ("0:05", "2026-12-07 00:05:00 +0100"), ("00:00", "2026-12-07 00:00:00 +0100"),
                ("friday 9am", "2026-12-11 09:00:00 +0100"), ("tomorrow 17:30", "2026-12-08 17:30:00 +0100"),
                ("Monday 5PM", "2026-12-14 17:00:00 +0100"), ("1st 9am", "2027-01-01 09:00:00 +0100"),
                ("2026-12-24 18:00", "2026-12-24 18:00:00 +0100"), ("3d 8am", "2026-12-10 08:00:00 +0100"),
                ("someday 9am", "9999-12-30 09:00:00 +0100"), ("sow 9am", "2026-12-07 09:00:00 +0100"),
                ("2026-12-10T14:30:00Z", "2026-12-10 15:30:00 +0100"), ("2026-12-10T14:30:00+01:00", "2026-12-10 14:30:00 +0100"),
                ("2026-12-10T14:30:00-05:00", "2026-12-10 20:30:00 +0100"), ("2026-12-10T14:30:00", "2026-12-10 14:30:00 +0100"),
                ("2026-12-10t14:30:00z", "2026-12-10 15:30:00 +0100"), ("20261210T143000Z", "2026-12-10 15:30:00 +0100"),
                ("2026-12-10T14:30:15", "2026-12-10 14:30:15 +0100"),
            ], at: "2026-12-07T09:00:00Z")
    }

    /// `1st` … `31st` are never today and skip the months without that day, where
    /// Taskwarrior lets `mktime` roll "30 February" over into March.
    func testDaysOfTheMonthSkipShortMonths() {
        check([("31st", "2026-12-31 00:00:00 +0100"), ("30th", "2026-11-30 00:00:00 +0100")], at: "2026-11-10T09:00:00Z")
        check(
            [("31st", "2026-12-31 00:00:00 +0100"), ("30th", "2026-12-30 00:00:00 +0100"), ("1st", "2026-12-01 00:00:00 +0100")],
            at: "2026-11-30T09:00:00Z")
        check(
            [
                ("31st", "2026-03-31 00:00:00 +0200"), ("30th", "2026-03-30 00:00:00 +0200"), ("29th", "2026-03-29 00:00:00 +0100"),
                ("28th", "2026-02-28 00:00:00 +0100"), ("10th", "2026-03-10 00:00:00 +0100"),
            ], at: "2026-02-10T09:00:00Z")
        check([("29th", "2028-02-29 00:00:00 +0100")], at: "2028-02-10T09:00:00Z")
        check([("31st", "2027-01-31 00:00:00 +0100"), ("1st", "2027-01-01 00:00:00 +0100")], at: "2026-12-31T09:00:00Z")
    }

    /// A month's name is the next such month's 1st: `feb` in February is a year away.
    func testMonthNamesAreNeverTheCurrentMonth() {
        check([("feb", "2027-02-01 00:00:00 +0100"), ("mar", "2026-03-01 00:00:00 +0100")], at: "2026-02-10T09:00:00Z")
        check([("feb", "2027-02-01 00:00:00 +0100"), ("jan", "2027-01-01 00:00:00 +0100")], at: "2026-12-31T22:59:59Z")
    }

    /// Quarters, and `sod` on a Sunday and on a day whose midnight is local.
    func testQuartersAndStartOfDay() {
        check(
            [
                ("soq", "2026-10-01 00:00:00 +0200"), ("eoq", "2026-12-31 23:59:59 +0100"), ("sod", "2026-11-29 00:00:00 +0100"),
                ("sow", "2026-11-23 00:00:00 +0100"),
            ], at: "2026-11-29T12:00:00Z")
        check([("soq", "2026-01-01 00:00:00 +0100"), ("eoq", "2026-03-31 23:59:59 +0200")], at: "2026-03-31T12:00:00Z")
        check([("soq", "2026-04-01 00:00:00 +0200"), ("eoq", "2026-06-30 23:59:59 +0200")], at: "2026-04-01T12:00:00Z")
        check([("soq", "2026-07-01 00:00:00 +0200"), ("eoq", "2026-09-30 23:59:59 +0200")], at: "2026-08-15T12:00:00Z")
        // 23:30 UTC on 31 December is already the next year's first quarter in Madrid.
        check([("soq", "2027-01-01 00:00:00 +0100"), ("sod", "2027-01-01 00:00:00 +0100")], at: "2026-12-31T23:30:00Z")
    }

    /// Times of day on the days clocks change: one the change skips moves on by the gap;
    /// one it repeats is the first; the others are as typed.
    func testTimesOnDaysOfChange() {
        check(
            [
                ("9am", "2026-03-29 09:00:00 +0200"), ("2:30am", "2026-03-29 03:30:00 +0200"), ("02:30", "2026-03-29 03:30:00 +0200"),
                ("1:59am", "2026-03-29 01:59:00 +0100"), ("sod", "2026-03-29 00:00:00 +0100"),
                ("tomorrow 2:30am", "2026-03-30 02:30:00 +0200"),
            ], at: "2026-03-29T00:30:00Z")
        check([("2:30am", "2026-10-25 02:30:00 +0200"), ("9am", "2026-10-25 09:00:00 +0100")], at: "2026-10-25T10:00:00Z")
        check(
            [("2:30am", "2026-03-08 03:30:00 -0400"), ("sunday 2:30am", "2026-03-15 02:30:00 -0400")], at: "2026-03-08T16:00:00Z",
            in: newYork)
        check([("1:30am", "2026-11-01 01:30:00 -0400")], at: "2026-11-01T16:00:00Z", in: newYork)
    }

    func testPortugueseAndSpanishWeekdays() {
        let sunday = "2026-11-29T12:00:00Z"
        let pt = [
            ("segunda", "2026-11-30"), ("segunda-feira", "2026-11-30"), ("terça", "2026-12-01"), ("terca-feira", "2026-12-01"),
            ("quarta", "2026-12-02"), ("quinta-feira", "2026-12-03"), ("SEXTA", "2026-12-04"), ("sábado", "2026-12-05"),
            ("sabado", "2026-12-05"), ("domingo", "2026-12-06"), ("monday", "2026-11-30"), ("terc\u{327}a", "2026-12-01"),
        ]
        for (text, day) in pt {
            XCTAssertEqual(resolve(text, at: sunday, language: .pt), day + " 00:00:00 +0100", text)
        }
        let es = [
            ("lunes", "2026-11-30"), ("martes", "2026-12-01"), ("miércoles", "2026-12-02"), ("miercoles", "2026-12-02"),
            ("jueves", "2026-12-03"), ("Viernes", "2026-12-04"), ("sábado", "2026-12-05"), ("domingo", "2026-12-06"),
        ]
        for (text, day) in es {
            XCTAssertEqual(resolve(text, at: sunday, language: .es), day + " 00:00:00 +0100", text)
        }
        XCTAssertEqual(resolve("viernes 9am", at: sunday, language: .es), "2026-12-04 09:00:00 +0100")
        XCTAssertEqual(resolve("sexta-feira 17:30", at: sunday, language: .pt), "2026-12-04 17:30:00 +0100")
        // A language's words are its own; English ones are understood in every language.
        for (text, language) in [("lunes", DateLanguage.pt), ("segunda", .es), ("domingo", .en), ("viernes", .en)] {
            XCTAssertThrowsError(try DateExpression.parse(text, language: language), text) { error in
                XCTAssertEqual(error as? DateError, .unrecognized(text, language))
            }
        }
    }

    func testBadInputs() {
        let invalid = [
            "13pm", "0am", "00am", "25:00", "24:00", "9:60", "9:60am", "32nd", "0th", "00th", "2026-12-10T14:30:60",
            "2026-02-30T14:30:00", "2026-12-10T25:30:00Z", "friday 13pm", "tomorrow 24:00", "2026-02-30 9am",
        ]
        for text in invalid {
            XCTAssertThrowsError(try DateExpression.parse(text, language: .en), text) { error in
                XCTAssertEqual(error as? DateError, .invalidDate(text, .en), text)
            }
        }
        let unrecognized = [
            "2th", "1nd", "11st", "12nd", "13rd", "21th", "101st", "st", "1 st", "9 am", "9a", "9:5", "9:005", "17:30pm30",
            "now 9am", "eod 9am", "17:30 9am", "friday  9am", "friday 9am 10am", "9am friday", "friday soon", "soon 9am",
            "sept", "janu", "d", "3", "3dd", "3x", "0x", "2026-12-10T14:30:00+", "2026-12-10T14:30:00X", "20261210T1430Z",
            "20261210T143000", "2026-12-10T14:30:00.5", "mid", "eoh", "soh",
        ]
        for text in unrecognized {
            XCTAssertThrowsError(try DateExpression.parse(text, language: .en), text) { error in
                XCTAssertEqual(error as? DateError, .unrecognized(text, .en), text)
            }
        }
        for text in ["100000d", "99999999y", "123456789012345678901234567890w", "+99999999y"] {
            XCTAssertThrowsError(try DateExpression.parse(text, language: .en), text) { error in
                XCTAssertEqual(error as? DateError, .outOfRange(text, .en), text)
            }
        }
    }

    /// The largest steps stay on the calendar: no overflow, and years far ahead are shown.
    func testTheLargestStepsAndSomedayAreShown() {
        check([("99999y", "102025-12-07 00:00:00 +0100"), ("99999m", "10360-03-07 00:00:00 +0100")], at: "2026-12-07T09:00:00Z")
        let someday = try! DateExpression.instant("someday", now: Instant(iso8601: "2026-12-07T09:00:00Z")!, zone: madrid, language: .en)
        XCTAssertEqual(someday.iso8601, "9999-12-29T23:00:00Z")
        XCTAssertEqual(
            try DateExpression.instant("later", now: .init(secondsSinceEpoch: 0), zone: .utc, language: .en).iso8601, "9999-12-30T00:00:00Z"
        )
    }

    func testTimesOfDayAreKnownByTheirForm() {
        for word in ["9am", "12PM", "17:30", "9:30pm", "13pm", "25:00"] { XCTAssertTrue(DateExpression.isTimeOfDay(word), word) }
        for word in ["9", "friday", "3d", "2026-12-01", "am", "17:3", "1st", ""] { XCTAssertFalse(DateExpression.isTimeOfDay(word), word) }
    }
}
