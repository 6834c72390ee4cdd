import NavStackTime

/// Recurring tasks: a rule (`daily`, `weekdays`, `weekly`, `biweekly`, `monthly`,
/// `quarterly`, `yearly`, or a number then `d`, `w`, `m` or `y`) on a task with a `due`.
/// The task is the one open instance of its series; marking it done makes the next one.
///
/// Steps are taken on the local calendar (``Zone/adding(_:_:to:)``): a daily task at
/// 09:00 stays at 09:00 on the wall clock across a change of clocks, and a monthly one on
/// the 31st lands on the last day of a shorter month (then goes on from that day).
public enum Recurrence {
    /// The due date that follows `due` by `rule` in `zone`; `nil` for a rule that is not one.
    public static func next(after due: Instant, rule: String, zone: Zone) -> Instant? {
        switch rule {
        case "daily": return zone.adding(1, .days, to: due)
        case "weekdays":
            // The next day from Monday to Friday.
            var next = zone.adding(1, .days, to: due)
            while zone.local(next).weekday >= .saturday { next = zone.adding(1, .days, to: next) }
            return next
        case "weekly": return zone.adding(1, .weeks, to: due)
        case "biweekly": return zone.adding(2, .weeks, to: due)
        case "monthly": return zone.adding(1, .months, to: due)
        case "quarterly": return zone.adding(3, .months, to: due)
        case "yearly": return zone.adding(1, .years, to: due)
        default:
            guard RecurRule.normalized(rule) == rule, let unit = rule.last, let count = Int(rule.dropLast()) else { return nil }
            let units: [Character: Zone.Unit] = ["d": .days, "w": .weeks, "m": .months, "y": .years]
            return units[unit].map { zone.adding(count, $0, to: due) }
        }
    }

    /// The next instance of a task just marked done: its title, notes, tags, project,
    /// priority, rule and `until`, its `due` moved on by the rule, and `scheduled` and
    /// `wait` moved by as many days (each at its own time of day). `nil` when the task
    /// has no rule or no due date, or the next due date is past `until`. (Annotations,
    /// dependencies, custom fields and subtasks stay with the instance done.)
    public static func nextInstance(of fields: DraftFields, zone: Zone) -> DraftFields? {
        guard let rule = fields.recur, let due = fields.due, let nextDue = next(after: due, rule: rule, zone: zone) else {
            return nil
        }
        if let until = fields.until, nextDue > until { return nil }
        let days = Int(zone.local(nextDue).date.daysSinceEpoch - zone.local(due).date.daysSinceEpoch)
        return DraftFields(
            title: fields.title, notes: fields.notes, done: false, due: nextDue,
            scheduled: fields.scheduled.map { zone.adding(days, .days, to: $0) },
            wait: fields.wait.map { zone.adding(days, .days, to: $0) }, until: fields.until, priority: fields.priority,
            project: fields.project, recur: rule, tags: fields.tags)
    }

    /// Why a draft's recurrence cannot be saved, if it cannot: a rule needs a `due`, and
    /// `until` cannot come before the `due`.
    public static func problem(with fields: DraftFields) -> NavError? {
        guard fields.recur != nil else { return nil }
        guard let due = fields.due else { return .recurNeedsDue }
        if let until = fields.until, until < due { return .untilBeforeDue }
        return nil
    }
}
