/// Moves on the calendar, with no zone: the steps ``Zone`` takes in local time.
extension CivilDate {
    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(days))
    }

    /// The same day `months` months later, or the month's last day when it has no such day:
    /// 31 January + 1 month is 28 (or 29) February, as a monthly task due on the 31st is due
    /// on a shorter month's last day.
    public func adding(months: Int) -> CivilDate {
        let index = year * 12 + (month - 1) + months
        let newYear = index >= 0 ? index / 12 : (index - 11) / 12
        let newMonth = index - newYear * 12 + 1
        return CivilDate(unchecked: newYear, newMonth, Swift.min(day, Self.daysIn(month: newMonth, year: newYear)))
    }

    /// The same day `years` years later; 29 February becomes 28 February in a year
    /// that has none.
    public func adding(years: Int) -> CivilDate {
        adding(months: years * 12)
    }

    /// The Monday of this date's week (weeks start on Monday).
    public var startOfWeek: CivilDate {
        adding(days: -weekday.daysSinceMonday)
    }

    /// The first of this date's month.
    public var startOfMonth: CivilDate {
        CivilDate(unchecked: year, month, 1)
    }

    /// The last day of this date's month.
    public var endOfMonth: CivilDate {
        CivilDate(unchecked: year, month, Self.daysIn(month: month, year: year))
    }
}
