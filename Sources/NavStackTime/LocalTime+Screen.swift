import NavStackBytes

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
        guard hour != 0 || minute != 0 else { return dateText }
        guard (0...9999).contains(date.year) else { return "\(dateText) \(twoDigits(hour)):\(twoDigits(minute))" }
        // Digit by digit, as ISO 8601 texts are: a list writes one a row.
        return String(capacity: 16) { text in
            text.appendDate(date)
            text.append(UInt8(ascii: " "))
            text.appendDigits(hour, count: 2)
            text.append(UInt8(ascii: ":"))
            text.appendDigits(minute, count: 2)
        }
    }
}

extension Zone {
    /// `instant` as a screen writes it in this zone (``LocalTime/dateTimeText``).
    public func screenText(_ instant: Instant) -> String {
        local(instant).dateTimeText
    }
}
