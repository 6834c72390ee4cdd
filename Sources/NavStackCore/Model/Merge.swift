/// A field of a task that a change sets, as operations and conflicts name it.
public enum TaskField: String, CaseIterable, Equatable, Hashable, Sendable {
    case title, notes, done
}

/// The value of a task's field.
public enum FieldValue: Equatable, Hashable, Sendable {
    case text(String)
    case flag(Bool)

    /// The value as JSON: a string, or true or false.
    public var json: String {
        switch self {
        case .text(let text): text.jsonQuoted
        case .flag(let flag): flag ? "true" : "false"
        }
    }
}

/// A field a draft and another writer both changed, to different values.
public struct FieldConflict: Equatable, Hashable, Sendable {
    public var field: TaskField
    /// What the draft started from.
    public var base: FieldValue
    /// The draft's value.
    public var mine: FieldValue
    /// The stored value, from the other writer.
    public var theirs: FieldValue

    public init(field: TaskField, base: FieldValue, mine: FieldValue, theirs: FieldValue) {
        self.field = field
        self.base = base
        self.mine = mine
        self.theirs = theirs
    }
}

/// A three-way merge of a draft with the task as stored, field by field:
///
/// | mine vs base | theirs vs base | result                         |
/// |--------------|----------------|--------------------------------|
/// | same         | any            | theirs (changed elsewhere, or not) |
/// | changed      | same           | mine                           |
/// | changed      | changed, equal | mine (= theirs)                |
/// | changed      | changed, other | conflict: mine with `save!`, theirs with `theirs` |
public struct Merge: Equatable, Hashable, Sendable {
    /// The values to keep: every field merged, conflicts resolved by `keepingMine`.
    public let merged: DraftFields
    /// The fields the draft changed from its base: what a save writes.
    public let changed: [TaskField]
    /// The fields both changed, to different values.
    public let conflicts: [FieldConflict]

    public init(base: DraftFields, mine: DraftFields, theirs: DraftFields, keepingMine: Bool = true) {
        var merged = theirs
        var conflicts: [FieldConflict] = []
        let changed = mine.changedFields(from: base)
        for field in changed {
            if theirs[field] != base[field] && theirs[field] != mine[field] {
                conflicts.append(FieldConflict(field: field, base: base[field], mine: mine[field], theirs: theirs[field]))
                if !keepingMine { continue }
            }
            merged[field] = mine[field]
        }
        self.merged = merged
        self.changed = changed
        self.conflicts = conflicts
    }
}
