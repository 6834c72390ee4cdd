/// The fields an edit screen or the new-task sheet changes before `save`.
public struct DraftFields: Equatable, Hashable, Sendable {
    public var title: String
    public var notes: String
    public var done: Bool

    public init(title: String = "", notes: String = "", done: Bool = false) {
        self.title = title
        self.notes = notes
        self.done = done
    }

    public init(_ task: TaskItem) {
        self.init(title: task.title, notes: task.notes, done: task.done)
    }
}

/// A draft: what is being typed, and what it started from.
///
/// Nothing reaches the store before `save`. A draft is *dirty* when it differs from
/// what it edits; a dirty draft is never dropped by accident (see ``Router``).
public struct Draft: Equatable, Hashable, Sendable {
    public var fields: DraftFields
    public let original: DraftFields

    public init(editing original: DraftFields) {
        self.fields = original
        self.original = original
    }

    public var isDirty: Bool { fields != original }

    /// `save` is refused while the title is blank.
    public var canSave: Bool { !fields.title.isBlank }
}

/// Where a draft belongs: an edit route of the tasks tab, or the sheet.
public enum DraftOwner: Equatable, Hashable, Sendable {
    case edit(Int)
    case sheet

    /// `edit/2` or `sheet`.
    public var description: String {
        switch self {
        case .edit(let id): Route.edit(id).description
        case .sheet: "sheet"
        }
    }

    /// Reads an owner back from its description.
    public init?(description: String) {
        if description == "sheet" {
            self = .sheet
        } else if case .edit(let id)? = Route(description: description) {
            self = .edit(id)
        } else {
            return nil
        }
    }
}
