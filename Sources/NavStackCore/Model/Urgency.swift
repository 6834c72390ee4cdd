import NavStackTime

/// How urgent a task is: the number Taskwarrior 2.6 gives it (`task _urgency`, the
/// `urgency` of `task export`) with its default coefficients, worked out the same way.
///
/// Urgency is a sum of terms. Each term is a value from 0 to 1 taken from one thing about
/// the task, times that term's coefficient; then fixed amounts are added for a priority
/// and for the tag `next`. The coefficients are those of Taskwarrior 2.6.2's defaults:
///
/// | term | value | coefficient |
/// |---|---|---|
/// | `urgency.project.coefficient` | 1 with a project | 1.0 |
/// | `urgency.active.coefficient` | 1 when started (a `start` field) | 4.0 |
/// | `urgency.scheduled.coefficient` | 1 when `scheduled` is before now | 5.0 |
/// | `urgency.waiting.coefficient` | 1 when open and `wait` is after now | -3.0 |
/// | `urgency.blocked.coefficient` | 1 when open and it depends on an open task | -5.0 |
/// | `urgency.annotations.coefficient` | 0.8, 0.9, 1 for 1, 2, 3 or more annotations | 1.0 |
/// | `urgency.tags.coefficient` | 0.8, 0.9, 1 for 1, 2, 3 or more tags | 1.0 |
/// | `urgency.due.coefficient` | 0.2 for due 14 or more days ahead, rising evenly to 1 at 7 or more days overdue | 12.0 |
/// | `urgency.blocking.coefficient` | 1 when open and an open task depends on it | 8.0 |
/// | `urgency.age.coefficient` | whole days since it was made ÷ `urgency.age.max` (365), at most 1 | 2.0 |
/// | `urgency.uda.priority.H.coefficient` | added for priority `H` | 6.0 |
/// | `urgency.uda.priority.M.coefficient` | added for priority `M` | 3.9 |
/// | `urgency.uda.priority.L.coefficient` | added for priority `L` | 1.8 |
/// | `urgency.user.tag.next.coefficient` | added for the tag `next` | 15.0 |
///
/// `urgency.inherit` is off, and no project, keyword or other field adds anything, as in
/// Taskwarrior's defaults. A done task has a value too (its due, age, tags and so on), never
/// waiting, blocked or blocking. The arithmetic is Taskwarrior's: single precision terms,
/// the due term from seconds over 86,400, the age term from whole days; so the values agree
/// to the last digit `task export` prints.
///
/// What an import from Taskwarrior keeps as custom fields counts as Taskwarrior counts it:
/// a `start` field makes a task active, tags kept in the `tags` field (those navstack's tags
/// cannot hold beside others) count as tags, a `project` field as a project.
public enum Urgency {
    /// Each term's value from 0 to 1 (before its coefficient), and the fixed amounts added.
    public struct Terms: Equatable, Sendable {
        public var project: Float = 0
        public var active: Float = 0
        public var scheduled: Float = 0
        public var waiting: Float = 0
        public var blocked: Float = 0
        public var annotations: Float = 0
        public var tags: Float = 0
        public var due: Float = 0
        public var blocking: Float = 0
        public var age: Float = 0
        /// The priority's coefficient (`urgency.uda.priority.X.coefficient`), 0 without one.
        public var priority: Float = 0
        /// `urgency.user.tag.next.coefficient` with the tag `next`, else 0.
        public var next: Float = 0

        public init() {}

        /// The sum, added up in Taskwarrior's order and precision.
        public var value: Double {
            var sum: Float = 0
            for (term, coefficient) in [
                (project, Coefficient.project), (active, Coefficient.active), (scheduled, Coefficient.scheduled),
                (waiting, Coefficient.waiting), (blocked, Coefficient.blocked), (annotations, Coefficient.annotations),
                (tags, Coefficient.tags), (due, Coefficient.due), (blocking, Coefficient.blocking), (age, Coefficient.age),
            ] {
                // A float product added to the float sum through a double, as Taskwarrior's
                // `value += … ? term * coefficient : 0.0` does.
                sum = Float(Double(sum) + Double(term * coefficient))
            }
            sum += priority
            sum += next
            return Double(sum)
        }
    }

    /// Taskwarrior 2.6.2's default coefficients.
    public enum Coefficient {
        public static let project: Float = 1.0
        public static let active: Float = 4.0
        public static let scheduled: Float = 5.0
        public static let waiting: Float = -3.0
        public static let blocked: Float = -5.0
        public static let annotations: Float = 1.0
        public static let tags: Float = 1.0
        public static let due: Float = 12.0
        public static let blocking: Float = 8.0
        public static let age: Float = 2.0
        /// `urgency.age.max`: the age, in days, at which the age term reaches 1.
        public static let ageMax: Float = 365
        public static let priorityHigh: Float = 6.0
        public static let priorityMedium: Float = 3.9
        public static let priorityLow: Float = 1.8
        public static let next: Float = 15.0
    }

    /// The urgency of `task` at `now`; `blocking` and `blocked` say whether an open task
    /// depends on it and whether it depends on an open task (``links(among:)``).
    public static func of(_ task: TaskItem, now: Instant, blocking: Bool, blocked: Bool) -> Double {
        terms(of: task, now: now, blocking: blocking, blocked: blocked).value
    }

    /// The terms of ``of(_:now:blocking:blocked:)``.
    public static func terms(of task: TaskItem, now: Instant, blocking: Bool, blocked: Bool) -> Terms {
        var terms = Terms()
        let custom = task.custom
        let tags = task.tags + custom.filter { $0.name == "tags" }.flatMap { $0.value.split(separator: ",").map(String.init) }
        terms.project = task.project != nil || custom.contains { $0.name == "project" } ? 1 : 0
        terms.active = custom.contains { $0.name == "start" } ? 1 : 0
        terms.scheduled = task.scheduled.map { $0 < now } ?? false ? 1 : 0
        terms.waiting = !task.done && task.isWaiting(at: now) ? 1 : 0
        terms.blocked = blocked ? 1 : 0
        terms.annotations = countTerm(task.annotations.count)
        terms.tags = countTerm(tags.count)
        terms.due = task.due.map { dueTerm($0, now: now) } ?? 0
        terms.blocking = blocking ? 1 : 0
        terms.age = ageTerm(task.stamps.created ?? now, now: now)
        switch task.priority {
        case .high: terms.priority = Coefficient.priorityHigh
        case .medium: terms.priority = Coefficient.priorityMedium
        case .low: terms.priority = Coefficient.priorityLow
        case nil: break
        }
        terms.next = tags.contains("next") ? Coefficient.next : 0
        return terms
    }

    /// 0.8, 0.9 and 1 for 1, 2, and 3 or more (annotations, tags); 0 for none.
    public static func countTerm(_ count: Int) -> Float {
        switch count {
        case ...0: 0
        case 1: 0.8
        case 2: 0.9
        default: 1
        }
    }

    /// The due term: 1 at 7 or more days overdue, 0.2 at 14 or more days ahead, a straight
    /// line between (days as seconds over 86,400, in single precision).
    public static func dueTerm(_ due: Instant, now: Instant) -> Float {
        let overdue = Double(Float(Double(now.secondsSinceEpoch - due.secondsSinceEpoch) / 86_400.0))
        if overdue >= 7.0 { return 1 }
        if overdue >= -14.0 { return Float((overdue + 14.0) * 0.8 / 21.0 + 0.2) }
        return 0.2
    }

    /// The age term: whole days since `created` (cut toward zero) over `urgency.age.max`,
    /// 1 past it.
    public static func ageTerm(_ created: Instant, now: Instant) -> Float {
        let days = (now.secondsSinceEpoch - created.secondsSinceEpoch) / 86_400
        if Float(days) > Coefficient.ageMax { return 1 }
        return Float(Double(days) / Double(Coefficient.ageMax))
    }

    /// Which of `tasks` are blocked and which blocking, as Taskwarrior sees them: an open
    /// task that depends on an open task among `tasks` is blocked, and that task is
    /// blocking. A dependency on a done task, or on one not among `tasks`, counts for
    /// neither. Uuids are compared without case, and given in lower case.
    public static func links(among tasks: [TaskItem]) -> (blocked: Set<String>, blocking: Set<String>) {
        let open = Set(tasks.lazy.filter { !$0.done }.map { $0.uuid.lowercased() })
        var blocked = Set<String>()
        var blocking = Set<String>()
        for task in tasks where !task.done {
            for uuid in task.depends.lazy.map({ $0.lowercased() }) where open.contains(uuid) {
                blocked.insert(task.uuid.lowercased())
                blocking.insert(uuid)
            }
        }
        return (blocked, blocking)
    }
}
