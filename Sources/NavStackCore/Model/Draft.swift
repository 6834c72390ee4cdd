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

    /// The value of a field.
    public subscript(field: TaskField) -> FieldValue {
        get {
            switch field {
            case .title: .text(title)
            case .notes: .text(notes)
            case .done: .flag(done)
            }
        }
        set {
            switch (field, newValue) {
            case (.title, .text(let text)): title = text
            case (.notes, .text(let text)): notes = text
            case (.done, .flag(let flag)): done = flag
            default: preconditionFailure("\(newValue) is not a value of \(field)")
            }
        }
    }

    /// The fields whose values differ from `other`'s, in field order.
    public func changedFields(from other: DraftFields) -> [TaskField] {
        // Field by field, in ``TaskField``'s order, without wrapping each value.
        var changed: [TaskField] = []
        if title != other.title { changed.append(.title) }
        if notes != other.notes { changed.append(.notes) }
        if done != other.done { changed.append(.done) }
        return changed
    }
}

/// A draft: what is being typed, and what it started from (its base).
///
/// Nothing reaches the store before `save`, which writes only the fields the draft
/// changed from its base. A draft is *dirty* when it differs from its base; a dirty draft
/// is never dropped by accident (see ``Router``).
public struct Draft: Equatable, Hashable, Sendable {
    public var fields: DraftFields
    /// The values the draft started from: what `save` merges against.
    public private(set) var original: DraftFields
    /// The task the draft edits (`nil` on the new-task sheet, and for a draft kept by a
    /// navstack that did not know uuids yet).
    public private(set) var uuid: String?

    public init(editing original: DraftFields, uuid: String? = nil) {
        self.fields = original
        self.original = original
        self.uuid = uuid
    }

    /// A draft of a task as it is stored.
    public init(editing task: TaskItem) {
        self.init(editing: task.fields, uuid: task.uuid)
    }

    public var isDirty: Bool { fields != original }

    /// `save` is refused while the title is blank.
    public var canSave: Bool { !fields.title.isBlank }

    /// The merge of this draft with the task as stored now.
    public func merge(with stored: DraftFields) -> Merge {
        Merge(base: original, mine: fields, theirs: stored)
    }

    /// Whether rebasing on `stored` gives this draft back byte for byte: the stored
    /// fields hold the base's own bytes, and every field the draft did not change holds
    /// them too. (`==` compares text by canonical equivalence: "é" retyped as "e" and
    /// U+0301 counts as unchanged, and a rebase shows the stored bytes for it.)
    public func isItsOwnRebase(on stored: DraftFields) -> Bool {
        func kept(_ mine: String, _ base: String, _ theirs: String) -> Bool {
            theirs.hasSameBytes(as: base) && (mine.hasSameBytes(as: base) || mine != base)
        }
        return stored.done == original.done && kept(fields.title, original.title, stored.title)
            && kept(fields.notes, original.notes, stored.notes)
    }

    /// The draft rebased on the task as stored now: fields only this draft changed keep
    /// its values, the others take the stored ones; fields both changed keep mine when
    /// `keepingMine` (what the edit screen shows: what `save!` would write), else take the
    /// stored value (`theirs`).
    public func rebased(on stored: TaskItem, keepingMine: Bool) -> Draft {
        var draft = Draft(editing: stored)
        draft.fields = Merge(base: original, mine: fields, theirs: stored.fields, keepingMine: keepingMine).merged
        return draft
    }
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

/// The drafts of a session by owner: a few at most (the sheet's and the edit screens' on
/// the path), kept in a list, so a command's several lookups compare owners rather than
/// hash them.
public struct Drafts: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    private var owners: [DraftOwner] = []
    private var drafts: [Draft] = []

    public init() {}

    public init(dictionaryLiteral elements: (DraftOwner, Draft)...) {
        for (owner, draft) in elements { self[owner] = draft }
    }

    /// The draft of `owner`; setting `nil` removes it.
    public subscript(owner: DraftOwner) -> Draft? {
        get { owners.firstIndex(of: owner).map { drafts[$0] } }
        set {
            switch (owners.firstIndex(of: owner), newValue) {
            case (let index?, let draft?): drafts[index] = draft
            case (let index?, nil):
                owners.remove(at: index)
                drafts.remove(at: index)
            case (nil, let draft?):
                owners.append(owner)
                drafts.append(draft)
            case (nil, nil): break
            }
        }
    }

    /// Whether `owner` has a draft (without copying it).
    public func contains(_ owner: DraftOwner) -> Bool { owners.contains(owner) }

    /// Changes the draft of `owner` where it is kept; `false` when there is none.
    @discardableResult
    public mutating func change(_ owner: DraftOwner, _ change: (inout Draft) -> Void) -> Bool {
        guard let index = owners.firstIndex(of: owner) else { return false }
        change(&drafts[index])
        return true
    }

    /// The owners of the drafts, in the order they came.
    public var allOwners: [DraftOwner] { owners }

    public var isEmpty: Bool { owners.isEmpty }
    public var count: Int { owners.count }
    public var values: [Draft] { drafts }

    public func makeIterator() -> Zip2Sequence<[DraftOwner], [Draft]>.Iterator {
        zip(owners, drafts).makeIterator()
    }

    /// The same owners with the same drafts, in any order.
    public static func == (lhs: Drafts, rhs: Drafts) -> Bool {
        lhs.count == rhs.count && zip(lhs.owners, lhs.drafts).allSatisfy { rhs[$0.0] == $0.1 }
    }

    /// Hashed without their order, as they are compared.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (owner, draft) in self {
            var one = Hasher()
            one.combine(owner)
            one.combine(draft)
            combined ^= one.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
