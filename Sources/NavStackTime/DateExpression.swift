/// A DATE as a user types it (`due:eom`, `scheduled tomorrow`, `+2w`), parsed without a
/// clock and resolved against the "now" and the zone it is given, so the same text gives
/// the same instant on every run with the same `NAVSTACK_NOW` and `TZ`.
public enum DateExpression: Hashable, Sendable {
    /// `YYYY-MM-DD`: that day at 00:00 local time.
    case date(CivilDate)
    /// `YYYY-MM-DDTHH:MM`: that wall-clock time.
    case dateTime(CivilDateTime)
    /// `now`: the instant itself, seconds and all.
    case now
    /// `today` (pt `hoje`, es `hoy`): today at 00:00.
    case today
    /// `tomorrow` (pt `amanhã`, es `mañana`): tomorrow at 00:00.
    case tomorrow
    /// `yesterday`: yesterday at 00:00.
    case yesterday
    /// `monday` … `sunday`, `mon` … `sun`: the next such day at 00:00, never today (on a
    /// Monday, `monday` is a week away), as Taskwarrior reads them.
    case next(Weekday)
    /// `sow`, `som`, `soy`: the first day of the current week (its Monday), month or year,
    /// at 00:00.
    ///
    /// The current period, not the next: they pair with `eow`, `eom` and `eoy`, which end
    /// the current one, and so read as the contract lists them ("end and start of
    /// week/month/year"); Taskwarrior's documentation reads `som` and `soy` so too.
    /// Taskwarrior 2.6 read `sow` alone as the next week's start (`socw` was the current
    /// one); `+1w` after `sow`, or `monday`, says that here.
    case start(Zone.Period)
    /// `eod`, `eow`, `eom`, `eoy`: the last day of the current day, week (its Sunday),
    /// month or year, at 23:59:59.
    case end(Zone.Period)
    /// `+Nd`, `+Nw`, `+Nm`, `+Ny`: today at 00:00 moved N units on the calendar (months
    /// and years clamp to a shorter month's last day). `+0d` is today.
    case fromToday(Int, Zone.Unit)

    /// The instant this names at `now` in `zone`.
    public func instant(now: Instant, zone: Zone) -> Instant {
        let today = zone.local(now).date
        switch self {
        case .date(let date): return zone.instant(CivilDateTime(midnightOf: date))
        case .dateTime(let dateTime): return zone.instant(dateTime)
        case .now: return now
        case .today: return zone.instant(CivilDateTime(midnightOf: today))
        case .tomorrow: return zone.instant(CivilDateTime(midnightOf: today.adding(days: 1)))
        case .yesterday: return zone.instant(CivilDateTime(midnightOf: today.adding(days: -1)))
        case .next(let weekday):
            let ahead = (weekday.rawValue - today.weekday.rawValue + 6) % 7 + 1
            return zone.instant(CivilDateTime(midnightOf: today.adding(days: ahead)))
        case .start(let period): return zone.start(of: period, containing: now)
        case .end(let period): return zone.end(of: period, containing: now)
        case .fromToday(let count, let unit): return zone.instant(CivilDateTime(midnightOf: today.adding(count, unit)))
        }
    }

    /// The instant `text` names at `now` in `zone`, read in `language`, or the one error
    /// that says which forms a DATE takes.
    public static func instant(_ text: String, now: Instant, zone: Zone, language: DateLanguage) throws(DateError) -> Instant {
        try parse(text, language: language).instant(now: now, zone: zone)
    }
}

/// The languages whose words for days a DATE may use besides the English ones, which are
/// always understood (a script written in English works in any language).
public enum DateLanguage: String, CaseIterable, Sendable {
    case en, pt, es

    /// The language's words for today and tomorrow, lower case, each also without its
    /// accent (`amanha`, `manana`, for keyboards without one).
    var words: [String: DateExpression] {
        switch self {
        case .en: return [:]
        case .pt: return ["hoje": .today, "amanhã": .tomorrow, "amanha": .tomorrow]
        case .es: return ["hoy": .today, "mañana": .tomorrow, "manana": .tomorrow]
        }
    }

    /// The words as the error lists them.
    var shownWords: [String] {
        switch self {
        case .en: return []
        case .pt: return ["hoje", "amanhã"]
        case .es: return ["hoy", "mañana"]
        }
    }
}
