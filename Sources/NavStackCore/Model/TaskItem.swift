/// One task of a profile: what the list shows and the detail screen edits.
///
/// Ids are assigned 1, 2, 3 … by the store and never reused; they are what a user types.
/// The uuid names the task everywhere (exports, imports, other stores) and never
/// changes; the revision grows with every change of the task.
public struct TaskItem: Equatable, Hashable, Sendable {
    public var id: Int
    public var uuid: String
    public var rev: Int
    public var title: String
    public var notes: String
    public var done: Bool

    public init(id: Int, uuid: String, rev: Int = 1, title: String, notes: String = "", done: Bool = false) {
        self.id = id
        self.uuid = uuid
        self.rev = rev
        self.title = title
        self.notes = notes
        self.done = done
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
