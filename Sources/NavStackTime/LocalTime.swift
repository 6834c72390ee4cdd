/// An instant as a wall clock in a zone shows it: the civil date and time, the weekday,
/// and the offset from UTC that held.
public struct LocalTime: Hashable, Sendable {
    /// The date and time on the wall clock.
    public let dateTime: CivilDateTime
    /// Seconds east of UTC (Madrid in summer: 7200).
    public let utcOffset: Int
    /// Whether daylight saving time held.
    public let isDaylightSaving: Bool
    /// The zone's abbreviation for it (`CEST`, `-03`).
    public let abbreviation: String

    public var date: CivilDate { dateTime.date }
    public var year: Int { dateTime.date.year }
    public var month: Int { dateTime.date.month }
    public var day: Int { dateTime.date.day }
    public var hour: Int { dateTime.hour }
    public var minute: Int { dateTime.minute }
    public var second: Int { dateTime.second }
    /// The day of the week (Monday first).
    public var weekday: Weekday { dateTime.date.weekday }
}

extension Zone {
    /// What a wall clock in this zone shows at `instant`.
    public func local(_ instant: Instant) -> LocalTime {
        let type = type(at: instant.secondsSinceEpoch)
        return LocalTime(
            dateTime: CivilDateTime(wallSeconds: instant.secondsSinceEpoch.saturatingAdding(Int64(type.utcOffset))),
            utcOffset: type.utcOffset, isDaylightSaving: type.isDaylightSaving, abbreviation: type.abbreviation
        )
    }

    /// The instant at which a wall clock in this zone shows `dateTime`.
    ///
    /// A wall-clock time can happen once, twice or never:
    /// - **twice** (the clock is set back, e.g. 02:30 on Madrid's last Sunday of October):
    ///   the earlier of the two instants, so that a task due "at 02:30" is never shown
    ///   late. The C library's `mktime` leaves this to chance here: it answers with
    ///   whichever offset its previous call used.
    /// - **never** (the clock jumps ahead, e.g. 02:30 on Madrid's last Sunday of March, or
    ///   00:00 on São Paulo's 2018-11-04): the time read with the offset from before the
    ///   jump, which lands as far past the jump as the time was into the gap (02:30 →
    ///   03:30 CEST; 00:00 → 01:00). This is what glibc's `mktime` with `tm_isdst = -1`
    ///   does for every gap that leads into daylight saving time, the usual spring change
    ///   (the tests hold it to it in every zone of the database), and it keeps the day:
    ///   "today" in São Paulo on 2018-11-04 begins at 01:00, not on the 3rd. glibc goes
    ///   backward instead where it prefers the side marked as daylight saving time, which
    ///   lies before the gap in zones whose winter time is so marked (Europe/Dublin,
    ///   Africa/Casablanca), and in some changes of standard time (Asia/Pyongyang 2018,
    ///   Pacific/Apia's skipped day in 2011); one rule in every zone was preferred here,
    ///   and forward is the one that never moves a day's start into the day before.
    public func instant(_ dateTime: CivilDateTime) -> Instant {
        let wall = dateTime.wallSeconds
        // Offsets are within 26 hours of UTC, so every instant that can show this wall
        // time lies within this window, and so does every change that matters.
        let start = wall.saturatingAdding(-3 * 86_400)
        let changes = changes(after: start, through: wall.saturatingAdding(3 * 86_400))
        var before = type(at: start)
        var segmentStart = Int64.min
        var earliest: Int64?
        for index in 0...changes.count {
            let segmentEnd = index < changes.count ? changes[index].at : Int64.max
            let candidate = wall.saturatingAdding(-Int64(before.utcOffset))
            if candidate >= segmentStart, candidate < segmentEnd {
                earliest = min(earliest ?? candidate, candidate)
            }
            if index < changes.count {
                segmentStart = segmentEnd
                before = changes[index].after
            }
        }
        if let earliest { return Instant(secondsSinceEpoch: earliest) }
        // In a gap: the change whose jump holds this wall time, with the offset before it.
        for change in changes {
            let from = change.at.saturatingAdding(Int64(change.before.utcOffset))
            let to = change.at.saturatingAdding(Int64(change.after.utcOffset))
            if from <= wall, wall < to { return Instant(secondsSinceEpoch: wall.saturatingAdding(-Int64(change.before.utcOffset))) }
        }
        // Unreachable for rules that change by less than the window; kept total anyway.
        return Instant(secondsSinceEpoch: wall.saturatingAdding(-Int64(type(at: wall).utcOffset)))
    }
}
