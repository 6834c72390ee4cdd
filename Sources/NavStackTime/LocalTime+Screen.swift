/// How screens write a local date and time: `2026-12-01`, and `2026-12-01 09:30` when the
/// time is not midnight. The words for weekdays are the catalogs' (``Weekday`` gives the
/// day, not its name).
extension LocalTime {
    /// `2026-12-01`.
    public var dateText: String {
        date.isoText
    }

    /// `2026-12-01 09:30`, or `2026-12-01` alone when the wall clock shows 00:00 (a date
    /// typed without a time); seconds are never shown (`eod` is `… 23:59`).
    public var dateTimeText: String {
        hour == 0 && minute == 0 ? dateText : "\(dateText) \(twoDigits(hour)):\(twoDigits(minute))"
    }
}

extension Zone {
    /// `instant` as a screen writes it in this zone (``LocalTime/dateTimeText``).
    public func screenText(_ instant: Instant) -> String {
        local(instant).dateTimeText
    }
}
