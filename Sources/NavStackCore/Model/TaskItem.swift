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

    /// The fields a user edits.
    public var fields: DraftFields { DraftFields(title: title, notes: notes, done: done) }
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
