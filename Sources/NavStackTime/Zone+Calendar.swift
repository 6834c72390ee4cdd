/// Calendar steps in a zone's local time: a daily task at 09:00 stays at 09:00 on the wall
/// clock across a change to or from daylight saving time, so steps are taken on the civil
/// date and the result turned back into an instant (``instant(_:)`` says what happens
/// when that time does not exist or happens twice).
extension Zone {
    /// The unit of a calendar step.
    public enum Unit: Sendable, Hashable, CaseIterable {
        case days, weeks, months, years
    }

    /// A period of the calendar: weeks start on Monday, quarters in January, April, July
    /// and October.
    public enum Period: Sendable, Hashable, CaseIterable {
        case day, week, month, quarter, year
    }

    /// `instant` moved `count` units (negative: back) on this zone's calendar, the wall
    /// clock time kept. Months and years keep the day of the month, or take the month's
    /// last day when it has none (31 January + 1 month = 28 or 29 February).
    public func adding(_ count: Int, _ unit: Unit, to instant: Instant) -> Instant {
        let local = local(instant).dateTime
        let date = local.date.adding(count, unit)
        return self.instant(CivilDateTime(unchecked: date, local.hour, local.minute, local.second))
    }

    /// The first instant of the period that holds `instant`, in local time: its first day
    /// at 00:00 (or, where 00:00 does not exist that day, when the day begins).
    public func start(of period: Period, containing instant: Instant) -> Instant {
        self.instant(CivilDateTime(midnightOf: local(instant).date.first(of: period)))
    }

    /// The end of the period that holds `instant`, in local time: its last day at
    /// 23:59:59, as Taskwarrior's `eod`, `eow`, `eom` and `eoy` are.
    public func end(of period: Period, containing instant: Instant) -> Instant {
        self.instant(CivilDateTime(unchecked: local(instant).date.last(of: period), 23, 59, 59))
    }
}

extension CivilDate {
    /// The date `count` units later (earlier when negative); months and years clamp the
    /// day to the month's last.
    public func adding(_ count: Int, _ unit: Zone.Unit) -> CivilDate {
        switch unit {
        case .days: return adding(days: count)
        case .weeks: return adding(days: count * 7)
        case .months: return adding(months: count)
        case .years: return adding(years: count)
        }
    }

    /// The first day of the period that holds this date.
    public func first(of period: Zone.Period) -> CivilDate {
        switch period {
        case .day: return self
        case .week: return startOfWeek
        case .month: return startOfMonth
        case .quarter: return CivilDate(unchecked: year, month - (month - 1) % 3, 1)
        case .year: return CivilDate(unchecked: year, 1, 1)
        }
    }

    /// The last day of the period that holds this date.
    public func last(of period: Zone.Period) -> CivilDate {
        switch period {
        case .day: return self
        case .week: return startOfWeek.adding(days: 6)
        case .month: return endOfMonth
        case .quarter: return first(of: .quarter).adding(months: 2).endOfMonth
        case .year: return CivilDate(unchecked: year, 12, 31)
        }
    }
}
