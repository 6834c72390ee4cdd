/// A DATE as a user types it (`due:eom`, `scheduled tomorrow`, `+2w`), parsed without a
/// clock and resolved against the "now" and the zone it is given, so the same text gives
/// the same instant on every run with the same `NAVSTACK_NOW` and `TZ`.
public indirect enum DateExpression: Hashable, Sendable {
    /// `YYYY-MM-DD`: that day at 00:00 local time. `someday` and `later` are 9999-12-30,
    /// as Taskwarrior 2.6 gives them.
    case date(CivilDate)
    /// `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS`: that wall-clock time.
    case dateTime(CivilDateTime)
    /// ISO 8601 with `Z` or an offset (`2026-12-10T14:30:00Z`, `…+01:00`), and
    /// Taskwarrior's `20261210T143000Z`: that instant, whatever the zone.
    case instant(Instant)
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
    /// `1st` … `31st`: the next day after today with that number, skipping the months
    /// that have none (on 10 February, `30th` is 30 March). Taskwarrior 2.6 lets the C
    /// library roll a missing day over (`30th` there is 2 March), which is no 30th.
    case dayOfMonth(Int)
    /// `jan` … `dec`, `january` … `december`: the 1st of the next such month, never the
    /// current one (`dec` in December is a year away), as Taskwarrior reads them.
    case month(Int)
    /// A time of day (`9am`, `5pm`, `17:30`) on the day a date names (`friday 9am`,
    /// `tomorrow 17:30`), today when alone, even once that time has passed (then it is
    /// overdue, as `today` is); Taskwarrior 2.6 takes a time already past as tomorrow's.
    case at(DateExpression, hour: Int, minute: Int)
    /// `sod`, `sow`, `som`, `soq`, `soy`: the first day of the current day, week (its
    /// Monday), month, quarter or year, at 00:00.
    ///
    /// The current period, not the next: they pair with `eow`, `eom` and `eoy`, which end
    /// the current one, and so read as the contract lists them ("end and start of
    /// week/month/year"); Taskwarrior 2.6.2's `task calc` reads `sow`, `som` and `soy` so
    /// too (Tests/Taskwarrior/date_checks.py holds them to it on a Monday and a Sunday).
    case start(Zone.Period)
    /// `eod`, `eow`, `eom`, `eoq`, `eoy`: the last day of the current day, week (its
    /// Sunday), month, quarter or year, at 23:59:59.
    case end(Zone.Period)
    /// `+Nd`, `+Nw`, `+Nm`, `+Ny`, and the same without `+` (`3d`): today at 00:00 moved
    /// N units on the calendar (months and years clamp to a shorter month's last day).
    /// `+0d` is today.
    case fromToday(Int, Zone.Unit)

    /// The instant this names at `now` in `zone`.
    public func instant(now: Instant, zone: Zone) -> Instant {
        let today = zone.local(now).date
        switch self {
        case .date(let date): return zone.instant(CivilDateTime(midnightOf: date))
        case .dateTime(let dateTime): return zone.instant(dateTime)
        case .instant(let instant): return instant
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
        case .dayOfMonth(let day):
            var date = today.startOfMonth
            if today.day >= day { date = date.adding(months: 1) }
            while CivilDate.daysIn(month: date.month, year: date.year) < day { date = date.adding(months: 1) }
            return zone.instant(CivilDateTime(midnightOf: CivilDate(unchecked: date.year, date.month, day)))
        case .month(let month):
            let year = today.month >= month ? today.year + 1 : today.year
            return zone.instant(CivilDateTime(midnightOf: CivilDate(unchecked: year, month, 1)))
        case .at(let day, let hour, let minute):
            let date = zone.local(day.instant(now: now, zone: zone)).date
            return zone.instant(CivilDateTime(unchecked: date, hour, minute, 0))
        }
    }

    /// Whether this names a day's start, so that a time of day may follow it
    /// (`friday 9am`; not `now 9am` or `eod 9am`).
    var namesADay: Bool {
        switch self {
        case .date, .today, .tomorrow, .yesterday, .next, .start, .fromToday, .dayOfMonth, .month: return true
        case .dateTime, .instant, .now, .end, .at: return false
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

    /// The language's words for today, tomorrow and the days of the week, lower case,
    /// each also without its accent (`amanha`, `manana`, `sabado`, for keyboards without
    /// one); Portuguese days also with `-feira` (`segunda-feira`). The days are names in
    /// full: a short form such as es `mar` is already March.
    var words: [String: DateExpression] {
        switch self {
        case .en: return [:]
        case .pt:
            var words: [String: DateExpression] = [
                "hoje": .today, "amanhã": .tomorrow, "amanha": .tomorrow, "sábado": .next(.saturday),
                "sabado": .next(.saturday), "domingo": .next(.sunday),
            ]
            let weekdays: [(String, Weekday)] = [
                ("segunda", .monday), ("terça", .tuesday), ("terca", .tuesday), ("quarta", .wednesday),
                ("quinta", .thursday), ("sexta", .friday),
            ]
            for (name, weekday) in weekdays {
                words[name] = .next(weekday)
                words[name + "-feira"] = .next(weekday)
            }
            return words
        case .es:
            return [
                "hoy": .today, "mañana": .tomorrow, "manana": .tomorrow, "lunes": .next(.monday), "martes": .next(.tuesday),
                "miércoles": .next(.wednesday), "miercoles": .next(.wednesday), "jueves": .next(.thursday),
                "viernes": .next(.friday), "sábado": .next(.saturday), "sabado": .next(.saturday), "domingo": .next(.sunday),
            ]
        }
    }

    /// The words as the error lists them.
    var shownWords: [String] {
        switch self {
        case .en: return []
        case .pt: return ["hoje", "amanhã", "segunda…domingo"]
        case .es: return ["hoy", "mañana", "lunes…domingo"]
        }
    }
}
