import NavStackTime

/// One task of a profile: what the list shows and the detail screen edits.
///
/// Ids are assigned 1, 2, 3 … by the store and never reused; they are what a user types.
/// The uuid names the task everywhere (exports, imports, other stores) and never
/// changes. (The store also keeps a revision that grows with every change of the task;
/// nothing shown depends on it, so a task as read leaves it out: a screen of the same
/// task is then the same screen, whatever its revision.)
public struct TaskItem: Equatable, Hashable, Sendable {
    public var id: Int
    public var uuid: String
    public var title: String
    public var notes: String
    public var done: Bool
    /// The task it is a subtask of; `nil` for a task at the top of the list.
    public var parent: Int?
    /// How many subtasks it has (its own, not theirs), and how many of them are done.
    public var subtasks: SubtaskCounts
    /// Every other field, behind one reference (``TaskExtra``).
    public var extra = TaskExtra()
    public var due: Instant? { extra.due }
    public var scheduled: Instant? { extra.scheduled }
    public var wait: Instant? { extra.wait }
    public var until: Instant? { extra.until }
    public var priority: Priority? { extra.priority }
    public var project: String? { extra.project }
    public var recur: String? { extra.recur }
    public var tags: [String] { extra.tags }
    public var annotations: [Annotation] { extra.annotations }
    public var depends: [String] { extra.depends }
    public var custom: [CustomField] { extra.custom }
    /// When it was made, last changed and done, as the store stamped them.
    public var stamps = TaskStamps()

    public init(
        id: Int, uuid: String, title: String, notes: String = "", done: Bool = false,
        parent: Int? = nil, subtasks: SubtaskCounts = SubtaskCounts()
    ) {
        self.id = id
        self.uuid = uuid
        self.title = title
        self.notes = notes
        self.done = done
        self.parent = parent
        self.subtasks = subtasks
    }

    /// A task holding `fields`.
    public init(
        id: Int, uuid: String, fields: DraftFields, parent: Int? = nil, subtasks: SubtaskCounts = SubtaskCounts(),
        stamps: TaskStamps = TaskStamps()
    ) {
        self.init(id: id, uuid: uuid, title: fields.title, notes: fields.notes, done: fields.done, parent: parent, subtasks: subtasks)
        setAttributes(from: fields)
        self.stamps = stamps
    }

    /// Takes every field of `fields` but the title, the notes and `done`.
    public mutating func setAttributes(from fields: DraftFields) {
        extra = fields.extra
    }

    /// What the task holds: the fields a change sets.
    public var fields: DraftFields {
        var fields = DraftFields(title: title, notes: notes, done: done)
        fields.extra = extra
        return fields
    }

    /// Whether a list row shows more than its title: a priority, a due or scheduled date,
    /// or tags.
    public var hasRowAttributes: Bool {
        !extra.isEmpty && (priority != nil || due != nil || scheduled != nil || !tags.isEmpty)
    }

    /// Whether its `wait` is still ahead of `now`: the list's default filter hides it.
    public func isWaiting(at now: Instant) -> Bool {
        !extra.isEmpty && (wait.map { $0 > now } ?? false)
    }

    /// Where the agenda puts the task: the earlier of its `due` and `scheduled` dates.
    public var agendaInstant: Instant? {
        switch (due, scheduled) {
        case (let due?, let scheduled?): min(due, scheduled)
        case (let date?, nil), (nil, let date?): date
        case (nil, nil): nil
        }
    }
}

extension TaskItem {
    /// The three tasks a new profile starts with under `--memory` or `--sample`.
    public static let samples: [(title: String, notes: String, done: Bool)] = [
        ("Buy fruit", "Apples, bananas, grapes", false),
        ("Study SwiftUI", "NavigationStack and routes", false),
        ("Go for a walk", "30 minutes", true),
    ]
}

/// A task's progress: how many of its subtasks are done, of how many.
public struct SubtaskCounts: Equatable, Hashable, Sendable {
    public var done: Int
    public var total: Int

    public init(done: Int = 0, total: Int = 0) {
        self.done = done
        self.total = total
    }
}

/// How deep subtasks go: a task at the top of the list is at level 1.
public enum TreeLimits {
    public static let depth = 100
}
