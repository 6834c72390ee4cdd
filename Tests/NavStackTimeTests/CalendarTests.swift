import NavStackTime
import TestSeeds
import XCTest

/// Civil dates held to a day-by-day count, calendar steps that clamp to a month's last
/// day and keep the wall clock across daylight saving changes, periods (weeks from
/// Monday), and the screens' text.
final class CalendarTests: XCTestCase {
    private func date(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
        CivilDate(year: year, month: month, day: day)!
    }

    private func show(_ instant: Instant, _ zone: Zone) -> String {
        zone.local(instant).systemDateText
    }

    /// Hinnant's formulas against the plain definition: count the days one by one from
    /// 1600-01-01 to 2400-12-31, a Saturday.
    func testDaysAgreeWithCountingThemOneByOne() {
        var (year, month, day) = (1600, 1, 1)
        var days = date(1600, 1, 1).daysSinceEpoch
        var weekday = Weekday.saturday.rawValue
        XCTAssertEqual(days, -135_140)
        while year <= 2400 {
            let civil = CivilDate(daysSinceEpoch: days)
            guard civil == CivilDate(year: year, month: month, day: day), civil.daysSinceEpoch == days,
                civil.weekday.rawValue == weekday
            else {
                return XCTFail("\(year)-\(month)-\(day): \(civil), \(civil.daysSinceEpoch), \(civil.weekday)")
            }
            days += 1
            weekday = weekday % 7 + 1
            day += 1
            if day > CivilDate.daysIn(month: month, year: year) {
                (day, month) = (1, month + 1)
                if month > 12 { (month, year) = (1, year + 1) }
            }
        }
    }

    func testDatesThatDoNotExist() {
        XCTAssertNil(CivilDate(year: 2026, month: 2, day: 29))
        XCTAssertNotNil(CivilDate(year: 2024, month: 2, day: 29))
        XCTAssertNil(CivilDate(year: 1900, month: 2, day: 29))
        XCTAssertNotNil(CivilDate(year: 2000, month: 2, day: 29))
        XCTAssertNil(CivilDate(year: 2026, month: 4, day: 31))
        XCTAssertNil(CivilDate(year: 2026, month: 0, day: 1))
        XCTAssertNil(CivilDate(year: 2026, month: 1, day: 0))
        XCTAssertNil(CivilDateTime(year: 2026, month: 1, day: 1, hour: 24))
        XCTAssertNil(CivilDateTime(year: 2026, month: 1, day: 1, minute: 60))
        XCTAssertNil(CivilDateTime(year: 2026, month: 1, day: 1, second: 60))
        XCTAssertEqual(date(2026, 11, 30).weekday, .monday)
        XCTAssertEqual(date(2026, 11, 29).weekday, .sunday)
    }

    func testMonthsAndYearsClampToTheMonthsLastDay() {
        XCTAssertEqual(date(2026, 1, 31).adding(months: 1), date(2026, 2, 28))
        XCTAssertEqual(date(2024, 1, 31).adding(months: 1), date(2024, 2, 29))
        XCTAssertEqual(date(2026, 1, 31).adding(months: 2), date(2026, 3, 31))
        XCTAssertEqual(date(2026, 3, 31).adding(months: 1), date(2026, 4, 30))
        XCTAssertEqual(date(2026, 3, 31).adding(months: -1), date(2026, 2, 28))
        XCTAssertEqual(date(2026, 12, 31).adding(months: 1), date(2027, 1, 31))
        XCTAssertEqual(date(2026, 1, 15).adding(months: -13), date(2024, 12, 15))
        XCTAssertEqual(date(2026, 8, 31).adding(months: 3), date(2026, 11, 30))
        XCTAssertEqual(date(2024, 2, 29).adding(years: 1), date(2025, 2, 28))
        XCTAssertEqual(date(2024, 2, 29).adding(years: 4), date(2028, 2, 29))
        XCTAssertEqual(date(2024, 2, 29).adding(years: -100), date(1924, 2, 29))
        XCTAssertEqual(date(2026, 12, 31).adding(days: 1), date(2027, 1, 1))
        XCTAssertEqual(date(2024, 2, 28).adding(1, .days), date(2024, 2, 29))
        XCTAssertEqual(date(2026, 11, 27).adding(2, .weeks), date(2026, 12, 11))
        XCTAssertEqual(date(-1, 3, 1).adding(days: -1), date(-1, 2, 28), "1 BC's year -1 is not leap; year 0 is")
        XCTAssertEqual(date(1, 3, 1).adding(months: -14), date(0, 1, 1))
    }

    /// Months added one at a time never drift further than the clamp: adding n months at
    /// once is the day, or the month's last, of the month n ahead.
    func testMonthStepsAgreeWithTheirDefinition() {
        let seed = TestSeed.seed(3)
        var generator = SplitMix64(state: seed)
        for _ in 0..<5000 {
            let start = CivilDate(daysSinceEpoch: Int64(generator.int(in: -200_000...200_000)))
            let months = generator.int(in: -600...600)
            let result = start.adding(months: months)
            let total = start.year * 12 + start.month - 1 + months
            let (year, month) = (Int((Double(total) / 12).rounded(.down)), (total % 12 + 12) % 12 + 1)
            XCTAssertEqual(result.year, year, "\(start) + \(months); \(TestSeed.named(seed))")
            XCTAssertEqual(result.month, month, "\(start) + \(months); \(TestSeed.named(seed))")
            XCTAssertEqual(result.day, min(start.day, CivilDate.daysIn(month: month, year: year)), "\(start) + \(months)")
        }
    }

    /// A daily 09:00 stays at 09:00 through a year of changes, in every zone.
    func testStepsKeepTheWallClock() throws {
        for tz in ZoneAgainstSystemTests.zones {
            let zone = try Zone.resolve(tz: tz)
            let first = zone.instant(CivilDateTime(year: 2026, month: 1, day: 1, hour: 9)!)
            for days in 0..<800 {
                let local = zone.local(zone.adding(days, .days, to: first))
                XCTAssertEqual([local.hour, local.minute, local.second], [9, 0, 0], "\(tz) +\(days)d")
                XCTAssertEqual(local.date, date(2026, 1, 1).adding(days: days), "\(tz) +\(days)d")
            }
            for months in 0..<40 {
                let local = zone.local(zone.adding(months, .months, to: first))
                XCTAssertEqual([local.month, local.day, local.hour], [(months % 12) + 1, 1, 9], "\(tz) +\(months)m")
            }
        }
        let madrid = try Zone.named("Europe/Madrid")
        let saturday = madrid.instant(CivilDateTime(year: 2026, month: 3, day: 28, hour: 9)!)
        let sunday = madrid.adding(1, .days, to: saturday)
        XCTAssertEqual(show(sunday, madrid), "2026-03-29 09:00:00 +0200")
        XCTAssertEqual(sunday.secondsSinceEpoch - saturday.secondsSinceEpoch, 23 * 3600, "the day of the change is 23 hours long")
        // 02:30 the next day does not exist: moved forward by the gap, as mktime does.
        let night = madrid.instant(CivilDateTime(year: 2026, month: 3, day: 28, hour: 2, minute: 30)!)
        XCTAssertEqual(show(madrid.adding(1, .days, to: night), madrid), "2026-03-29 03:30:00 +0200")
        XCTAssertEqual(show(madrid.adding(1, .weeks, to: night), madrid), "2026-04-04 02:30:00 +0200")
        // Monthly on the 31st, in local time.
        let monthEnd = madrid.instant(CivilDateTime(year: 2026, month: 1, day: 31, hour: 18)!)
        XCTAssertEqual(show(madrid.adding(1, .months, to: monthEnd), madrid), "2026-02-28 18:00:00 +0100")
        XCTAssertEqual(show(madrid.adding(2, .months, to: monthEnd), madrid), "2026-03-31 18:00:00 +0200")
        XCTAssertEqual(show(madrid.adding(-1, .years, to: monthEnd), madrid), "2025-01-31 18:00:00 +0100")
    }

    func testPeriodsInLocalTime() throws {
        let madrid = try Zone.named("Europe/Madrid")
        // Friday 2026-11-27 10:00 in Madrid.
        let friday = Instant(iso8601: "2026-11-27T09:00:00Z")!
        let expected: [(Zone.Period, String, String)] = [
            (.day, "2026-11-27 00:00:00 +0100", "2026-11-27 23:59:59 +0100"),
            (.week, "2026-11-23 00:00:00 +0100", "2026-11-29 23:59:59 +0100"),
            (.month, "2026-11-01 00:00:00 +0100", "2026-11-30 23:59:59 +0100"),
            (.year, "2026-01-01 00:00:00 +0100", "2026-12-31 23:59:59 +0100"),
        ]
        for (period, start, end) in expected {
            XCTAssertEqual(show(madrid.start(of: period, containing: friday), madrid), start, "\(period)")
            XCTAssertEqual(show(madrid.end(of: period, containing: friday), madrid), end, "\(period)")
        }
        // The week of a Monday starts that day; the week of a Sunday ended it.
        let monday = Instant(iso8601: "2026-11-30T00:00:00+01:00")!
        XCTAssertEqual(show(madrid.start(of: .week, containing: monday), madrid), "2026-11-30 00:00:00 +0100")
        let sundayNight = Instant(iso8601: "2026-11-29T23:59:59+01:00")!
        XCTAssertEqual(show(madrid.start(of: .week, containing: sundayNight), madrid), "2026-11-23 00:00:00 +0100")
        XCTAssertEqual(show(madrid.end(of: .week, containing: sundayNight), madrid), "2026-11-29 23:59:59 +0100")
        // A period is the local one: at 23:30 UTC on 31 December it is already next year in Madrid.
        let newYear = Instant(iso8601: "2026-12-31T23:30:00Z")!
        XCTAssertEqual(show(madrid.start(of: .year, containing: newYear), madrid), "2027-01-01 00:00:00 +0100")
        XCTAssertEqual(show(Zone.utc.start(of: .year, containing: newYear), .utc), "2026-01-01 00:00:00 +0000")
        // A day that begins at 01:00: São Paulo's 2018-11-04.
        let saoPaulo = try Zone.named("America/Sao_Paulo")
        let noon = Instant(iso8601: "2018-11-04T12:00:00-02:00")!
        XCTAssertEqual(show(saoPaulo.start(of: .day, containing: noon), saoPaulo), "2018-11-04 01:00:00 -0200")
        XCTAssertEqual(
            saoPaulo.end(of: .day, containing: noon).secondsSinceEpoch - saoPaulo.start(of: .day, containing: noon).secondsSinceEpoch,
            23 * 3600 - 1
        )
        // A leap February.
        let leap = Instant(iso8601: "2024-02-10T12:00:00Z")!
        XCTAssertEqual(show(madrid.end(of: .month, containing: leap), madrid), "2024-02-29 23:59:59 +0100")
    }

    func testScreenText() throws {
        let madrid = try Zone.named("Europe/Madrid")
        XCTAssertEqual(madrid.screenText(Instant(iso8601: "2026-11-30T23:00:00Z")!), "2026-12-01")
        XCTAssertEqual(madrid.screenText(Instant(iso8601: "2026-12-01T08:30:00Z")!), "2026-12-01 09:30")
        XCTAssertEqual(madrid.screenText(Instant(iso8601: "2026-12-01T22:59:59Z")!), "2026-12-01 23:59")
        XCTAssertEqual(madrid.screenText(Instant(iso8601: "2026-11-30T23:00:45Z")!), "2026-12-01", "seconds are not shown")
        XCTAssertEqual(Zone.utc.screenText(Instant(iso8601: "2026-11-30T23:00:00Z")!), "2026-11-30 23:00")
        XCTAssertEqual(madrid.local(Instant(iso8601: "2026-11-30T23:00:00Z")!).dateText, "2026-12-01")
        XCTAssertEqual(madrid.local(Instant(iso8601: "2026-11-30T23:00:00Z")!).weekday, .tuesday)
        XCTAssertEqual(Zone.utc.screenText(Instant(iso8601: "0099-01-02T03:04:00Z")!), "0099-01-02 03:04")
    }
}
