/// One task of a profile: what the list shows and the detail screen edits.
///
/// Ids are assigned 1, 2, 3 … by the store and never reused.
public struct TaskItem: Equatable, Hashable, Sendable {
    public var id: Int
    public var title: String
    public var notes: String
    public var done: Bool

    public init(id: Int, title: String, notes: String = "", done: Bool = false) {
        self.id = id
        self.title = title
        self.notes = notes
        self.done = done
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
