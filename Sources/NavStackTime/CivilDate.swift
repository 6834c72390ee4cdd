/// A day of the proleptic Gregorian calendar, with no zone: what a user means by
/// `2026-12-01`.
///
/// Dates made by ``init(year:month:day:)`` have years from -999,999,999 to 999,999,999
/// (``validYears``), far more than any task needs; dates made from instants near the ends
/// of `Int64` go further (to ±292 billion), and stay exact. The app's text forms only read
/// four-digit years.
public struct CivilDate: Hashable, Comparable, Sendable {
    public let year: Int
    /// 1 (January) to 12.
    public let month: Int
    /// 1 to the month's last day.
    public let day: Int

    /// The years a civil date may have.
    public static let validYears = -999_999_999...999_999_999

    /// The date, or nil when there is no such day (`2026-02-30`, month 13, a year beyond
    /// ``validYears``).
    public init?(year: Int, month: Int, day: Int) {
        guard Self.validYears.contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.init(unchecked: year, month, day)
    }

    init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Whether `year` has a 29 February.
    public static func isLeap(year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` (1–12) of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year: year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before it).
    ///
    /// Howard Hinnant's `days_from_civil` ("chrono-Compatible Low-Level Date
    /// Algorithms"): exact for every proleptic Gregorian date, with no table and no loop.
    public var daysSinceEpoch: Int64 {
        let y = Int64(year) - (month <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01 (Hinnant's `civil_from_days`).
    ///
    /// Exact for any `days` an instant's seconds divided by 86,400 can give.
    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(unchecked: Int(year), Int(month), Int(day))
    }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (ISO number 4).
        let index = (daysSinceEpoch + 3) % 7
        return Weekday(rawValue: Int(index < 0 ? index + 7 : index) + 1)!
    }
}

/// A day of the week, numbered as ISO 8601 numbers them: Monday 1 to Sunday 7, so weeks
/// start on Monday (the contract's weeks do). Its words are the app's catalogs' to give.
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
    case monday = 1
    case tuesday, wednesday, thursday, friday, saturday, sunday

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// 0 for Monday to 6 for Sunday: the days since the week began.
    public var daysSinceMonday: Int { rawValue - 1 }
}

/// A date and a time of day on a wall clock, with no zone: what a user means by
/// `2026-12-01T09:00`. A zone turns it into an instant (``Zone/instant(_:)``).
public struct CivilDateTime: Hashable, Comparable, Sendable {
    public let date: CivilDate
    /// 0 to 23.
    public let hour: Int
    /// 0 to 59.
    public let minute: Int
    /// 0 to 59: leap seconds are not counted (see ``Instant``).
    public let second: Int

    /// The date and time, or nil when the time of day is not one (`24:00`, `09:60`).
    public init?(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.init(unchecked: date, hour, minute, second)
    }

    /// The date and time, or nil when either is not one.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: second)
    }

    /// Midnight, the start of `date`.
    public init(midnightOf date: CivilDate) {
        self.init(unchecked: date, 0, 0, 0)
    }

    init(unchecked date: CivilDate, _ hour: Int, _ minute: Int, _ second: Int) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        (lhs.date, lhs.hour, lhs.minute, lhs.second) < (rhs.date, rhs.hour, rhs.minute, rhs.second)
    }

    /// Seconds since 1970-01-01 00:00 on the same wall clock: the instant this would be in
    /// UTC. Zones subtract their offset from it.
    /// Held at the ends of `Int64` for dates past what an instant can reach (a date made
    /// from an instant near its ends, then moved), so that no step traps.
    var wallSeconds: Int64 {
        let (days, overflow) = date.daysSinceEpoch.multipliedReportingOverflow(by: 86_400)
        guard !overflow else { return date.daysSinceEpoch < 0 ? .min : .max }
        return days.saturatingAdding(Int64(hour * 3600 + minute * 60 + second))
    }

    /// The wall-clock date and time `seconds` after 1970-01-01 00:00.
    init(wallSeconds seconds: Int64) {
        let (days, rest) = seconds.floorDivided(by: 86_400)
        self.init(unchecked: CivilDate(daysSinceEpoch: days), Int(rest / 3600), Int(rest % 3600 / 60), Int(rest % 60))
    }
}

extension Int64 {
    /// The quotient rounded down and the remainder that goes with it (never negative for a
    /// positive divisor), as the calendar needs for instants before 1970.
    func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = self / divisor
        let r = self % divisor
        return r < 0 ? (q - 1, r + divisor) : (q, r)
    }
}
