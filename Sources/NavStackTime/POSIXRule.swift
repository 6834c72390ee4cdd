/// The rules a POSIX TZ string states (POSIX.1-2017 §8.3, with RFC 9636's extensions): a
/// standard time and, optionally, a daylight saving time with the rules that start and
/// end it each year. TZif files end with one (their footer), which answers for every
/// instant past their last transition; `TZ` may hold one too.
///
/// `std offset [dst [offset] [,start[/time],end[/time]]]`, where names are three or more
/// letters or `<…>` quoted (`<-03>`), offsets are `[+-]hh[:mm[:ss]]` west of Greenwich
/// (so `CET-1` is one hour east), the daylight offset defaults to one hour east of the
/// standard one, and a rule is `Jn` (day 1–365, 29 February never counted), `n` (day
/// 0–365, counted) or `Mm.w.d` (weekday `d`, 0 = Sunday, of week `w` of month `m`, 5 =
/// the last), at `time` (default 02:00, from -167 to 167 hours, RFC 9636's version 3).
/// A daylight time without rules (`XYZ3ABC`) takes `M3.2.0,M11.1.0`, POSIX's usual
/// default. glibc instead borrows its `posixrules` file (New York's transitions): its
/// changes then fall hours away from 02:00 local, and past 2037 it shows New York's own
/// `EST` and `EDT`. That is not copied here; a string with rules is read alike by both.
struct POSIXRule: Hashable, Sendable {
    var standard: LocalTimeType
    var daylight: Daylight?

    /// Daylight saving time and when it starts and ends each year.
    struct Daylight: Hashable, Sendable {
        var type: LocalTimeType
        var start: Point
        var end: Point
    }

    /// A yearly moment, in the local time in effect just before it.
    struct Point: Hashable, Sendable {
        var day: Day
        /// Seconds after midnight; may be negative or past 24 hours.
        var time: Int
    }

    enum Day: Hashable, Sendable {
        /// `Jn`: 1–365, 29 February not counted (day 60 is always 1 March).
        case julianNoLeap(Int)
        /// `n`: 0–365, 29 February counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// The length of 400 Gregorian years in seconds: the calendar repeats exactly after it
    /// (146,097 days, a whole number of weeks), and so do these rules.
    private static let cycle: Int64 = 146_097 * 86_400

    /// The local time type at `instant`.
    func type(at instant: Int64) -> LocalTimeType {
        guard let daylight else { return standard }
        let (t, _) = Self.shiftedNearEpoch(instant)
        let year = CivilDate(daysSinceEpoch: t.floorDivided(by: 86_400).quotient).year
        var current = standard
        // The changes of the years around it, in order: the last at or before it holds.
        for change in changes(years: year - 1...year + 1, daylight: daylight) {
            guard change.at <= t else { break }
            current = change.isDaylight ? daylight.type : standard
        }
        return current
    }

    /// The instants after `start` up to and including `end` at which the rules change the
    /// local time type.
    func changePoints(after start: Int64, through end: Int64) -> [Int64] {
        guard let daylight, start < end else { return [] }
        // A window longer than a few years never comes from this module; one that
        // would is cut to its first 400 years, which hold every pattern the rules make.
        let end = min(end, start.saturatingAdding(Self.cycle))
        let (shiftedStart, shift) = Self.shiftedNearEpoch(start)
        let shiftedEnd = end - shift
        let first = CivilDate(daysSinceEpoch: shiftedStart.floorDivided(by: 86_400).quotient).year
        let last = CivilDate(daysSinceEpoch: shiftedEnd.floorDivided(by: 86_400).quotient).year
        return changes(years: first - 1...last + 1, daylight: daylight)
            .map(\.at)
            .filter { $0 > shiftedStart && $0 <= shiftedEnd }
            .map { $0 + shift }
    }

    /// `instant` moved by whole 400-year cycles to within a cycle or two of 1970, and the
    /// amount it was moved by, so that the years computed from it never overflow.
    private static func shiftedNearEpoch(_ instant: Int64) -> (Int64, shift: Int64) {
        let cycles = instant / cycle
        guard cycles != 0 else { return (instant, 0) }
        let shift = cycles * cycle
        return (instant - shift, shift)
    }

    /// The starts and ends of daylight saving time in `years`, in order; an end and a start
    /// at the same instant (daylight saving time all year) keep the start last.
    private func changes(years: ClosedRange<Int>, daylight: Daylight) -> [(at: Int64, isDaylight: Bool)] {
        var result: [(at: Int64, isDaylight: Bool)] = []
        for year in years {
            result.append((Self.instant(of: daylight.start, in: year, offset: standard.utcOffset), true))
            result.append((Self.instant(of: daylight.end, in: year, offset: daylight.type.utcOffset), false))
        }
        return result.sorted { ($0.at, $0.isDaylight ? 1 : 0) < ($1.at, $1.isDaylight ? 1 : 0) }
    }

    /// The instant of `point` in `year`, its wall clock running at `offset`.
    private static func instant(of point: Point, in year: Int, offset: Int) -> Int64 {
        let days: Int64
        let january1 = CivilDate(unchecked: year, 1, 1).daysSinceEpoch
        switch point.day {
        case .julianNoLeap(let n):
            days = january1 + Int64(n - 1) + (CivilDate.isLeap(year: year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            days = january1 + Int64(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate(unchecked: year, month, 1)
            // Sunday is 0 in the rule, 7 in Weekday.
            let firstWeekday = first.weekday.rawValue % 7
            var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = CivilDate.daysIn(month: month, year: year)
            while day > length { day -= 7 }
            days = first.daysSinceEpoch + Int64(day - 1)
        }
        return days * 86_400 + Int64(point.time) - Int64(offset)
    }
}

extension POSIXRule {
    /// The rule a TZ string states, or nil when it is not one.
    init?(_ text: String) {
        var reader = RuleReader(Array(text.utf8))
        guard let standardName = reader.name(), let standardOffset = reader.offset(maxHours: 24) else { return nil }
        standard = LocalTimeType(utcOffset: -standardOffset, isDaylightSaving: false, abbreviation: standardName)
        if reader.atEnd {
            daylight = nil
            return
        }
        guard let daylightName = reader.name() else { return nil }
        var daylightOffset = standard.utcOffset + 3600
        if !reader.atEnd, !reader.peek(","), let offset = reader.offset(maxHours: 24) {
            daylightOffset = -offset
        }
        let type = LocalTimeType(utcOffset: daylightOffset, isDaylightSaving: true, abbreviation: daylightName)
        let start: Point
        let end: Point
        if reader.atEnd {
            // The C library's default when a daylight time has no rules.
            start = Point(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = Point(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        } else {
            guard reader.take(","), let s = reader.point(), reader.take(","), let e = reader.point(), reader.atEnd else { return nil }
            (start, end) = (s, e)
        }
        daylight = Daylight(type: type, start: start, end: end)
    }
}

/// Reads the parts of a TZ string, by byte.
private struct RuleReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }

    func peek(_ mark: Unicode.Scalar) -> Bool {
        index < bytes.count && bytes[index] == UInt8(ascii: mark)
    }

    mutating func take(_ mark: Unicode.Scalar) -> Bool {
        guard peek(mark) else { return false }
        index += 1
        return true
    }

    /// A zone abbreviation: three or more letters, or `<…>` of letters, digits, `+`, `-`.
    mutating func name() -> String? {
        let start = index
        if take("<") {
            while index < bytes.count, isLetter(bytes[index]) || isDigit(bytes[index]) || peek("+") || peek("-") { index += 1 }
            let name = String(decoding: bytes[start + 1..<index], as: UTF8.self)
            guard name.utf8.count >= 3, take(">") else { return nil }
            return name
        }
        while index < bytes.count, isLetter(bytes[index]) { index += 1 }
        guard index - start >= 3 else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, hours up to `maxHours`.
    mutating func offset(maxHours: Int) -> Int? {
        var sign = 1
        if take("-") { sign = -1 } else { _ = take("+") }
        guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
        var seconds = hours * 3600
        if take(":") {
            guard let minutes = number(maxDigits: 2), minutes <= 59 else { return nil }
            seconds += minutes * 60
            if take(":") {
                guard let s = number(maxDigits: 2), s <= 59 else { return nil }
                seconds += s
            }
        }
        return sign * seconds
    }

    /// A rule's date and its optional `/time`.
    mutating func point() -> POSIXRule.Point? {
        let day: POSIXRule.Day
        if take("J") {
            guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        } else if take("M") {
            guard let month = number(maxDigits: 2), (1...12).contains(month), take("."),
                let week = number(maxDigits: 1), (1...5).contains(week), take("."),
                let weekday = number(maxDigits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if take("/") {
            guard let t = offset(maxHours: 167) else { return nil }
            time = t
        }
        return POSIXRule.Point(day: day, time: time)
    }

    private mutating func number(maxDigits: Int) -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, index - start < maxDigits, isDigit(bytes[index]) {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
