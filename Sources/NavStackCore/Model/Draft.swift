import NavStackTime

/// What a task holds that a change sets: the fields an edit screen or the new-task sheet
/// changes before `save`, and the lists (annotations, dependencies, custom fields) that
/// other commands and imports set. Every one of them is merged, conflict-checked, logged,
/// undone and synced alike, field by field (``TaskField``).
public struct DraftFields: Equatable, Hashable, Sendable {
    public var title: String
    public var notes: String
    public var done: Bool
    /// Every other field, behind one reference (``TaskExtra``).
    public var extra: TaskExtra

    public init(
        title: String = "", notes: String = "", done: Bool = false, due: Instant? = nil, scheduled: Instant? = nil,
        wait: Instant? = nil, until: Instant? = nil, priority: Priority? = nil, project: String? = nil, recur: String? = nil,
        tags: [String] = [], annotations: [Annotation] = [], depends: [String] = [], custom: [CustomField] = []
    ) {
        self.title = title
        self.notes = notes
        self.done = done
        // The usual draft, a title and notes: nothing else to make.
        guard
            due != nil || scheduled != nil || wait != nil || until != nil || priority != nil || project != nil || recur != nil
                || !tags.isEmpty || !annotations.isEmpty || !depends.isEmpty || !custom.isEmpty
        else {
            extra = TaskExtra()
            return
        }
        extra = TaskExtra(
            TaskExtra.Values(
                due: due, scheduled: scheduled, wait: wait, until: until, priority: priority, project: project, recur: recur,
                tags: tags, annotations: annotations, depends: depends, custom: custom))
    }

    public var due: Instant? {
        get { extra.due }
        set { extra.values.due = newValue }
    }
    public var scheduled: Instant? {
        get { extra.scheduled }
        set { extra.values.scheduled = newValue }
    }
    /// Hidden from the list until this instant (the task is *waiting*).
    public var wait: Instant? {
        get { extra.wait }
        set { extra.values.wait = newValue }
    }
    /// When the task (or its series) ends.
    public var until: Instant? {
        get { extra.until }
        set { extra.values.until = newValue }
    }
    public var priority: Priority? {
        get { extra.priority }
        set { extra.values.priority = newValue }
    }
    /// A dotted name (`home.garden`).
    public var project: String? {
        get { extra.project }
        set { extra.values.project = newValue }
    }
    /// The recurrence rule of its series (`monthly`, `2w`).
    public var recur: String? {
        get { extra.recur }
        set { extra.values.recur = newValue }
    }
    /// A set: one of each without case, kept sorted (``TaskWords/tagSet(_:)``).
    public var tags: [String] {
        get { extra.tags }
        set { extra.values.tags = newValue }
    }
    /// Oldest first.
    public var annotations: [Annotation] {
        get { extra.annotations }
        set { extra.values.annotations = newValue }
    }
    /// The uuids of the tasks this one waits for, sorted.
    public var depends: [String] {
        get { extra.depends }
        set { extra.values.depends = newValue }
    }
    /// Sorted by name.
    public var custom: [CustomField] {
        get { extra.custom }
        set { extra.values.custom = newValue }
    }

    /// The value of a field.
    public subscript(field: TaskField) -> FieldValue {
        get {
            switch field {
            case .title: .text(title)
            case .notes: .text(notes)
            case .done: .flag(done)
            case .due: .instant(due)
            case .scheduled: .instant(scheduled)
            case .wait: .instant(wait)
            case .until: .instant(until)
            case .priority: .name(priority?.rawValue)
            case .project: .name(project)
            case .recur: .name(recur)
            case .tags: .words(tags)
            case .annotations: .annotations(annotations)
            case .depends: .words(depends)
            case .fields: .custom(custom)
            }
        }
        set {
            switch (field, newValue) {
            case (.title, .text(let text)): title = text
            case (.notes, .text(let text)): notes = text
            case (.done, .flag(let flag)): done = flag
            case (.due, .instant(let instant)): due = instant
            case (.scheduled, .instant(let instant)): scheduled = instant
            case (.wait, .instant(let instant)): wait = instant
            case (.until, .instant(let instant)): until = instant
            case (.priority, .name(let name)): priority = name.flatMap(Priority.init(rawValue:))
            case (.project, .name(let name)): project = name
            case (.recur, .name(let name)): recur = name
            case (.tags, .words(let words)): tags = words
            case (.annotations, .annotations(let list)): annotations = list
            case (.depends, .words(let words)): depends = words
            case (.fields, .custom(let list)): custom = list
            default: preconditionFailure("\(newValue) is not a value of \(field)")
            }
        }
    }

    /// The fields whose values differ from `other`'s, in field order.
    public func changedFields(from other: DraftFields) -> [TaskField] {
        // The first three field by field, without wrapping each value, into one of the
        // eight lists made once (a save asks twice, and a toggle or a title's change is
        // nearly every change); the others, rarely set, only when they differ.
        let changed = (title != other.title ? 1 : 0) | (notes != other.notes ? 2 : 0) | (done != other.done ? 4 : 0)
        guard !hasSameAttributes(as: other) else { return Self.fieldLists[changed] }
        return TaskField.allCases.filter { self[$0] != other[$0] }
    }

    /// Whether every field but the title, the notes and `done` is equal.
    public func hasSameAttributes(as other: DraftFields) -> Bool {
        extra == other.extra
    }

    /// The fields of each subset of the first three, in ``TaskField``'s order, at the
    /// subset's bits (title 1, notes 2, done 4).
    private static let fieldLists: [[TaskField]] = (0..<8).map { bits in
        [TaskField.title, .notes, .done].enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element)
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
            && kept(fields.notes, original.notes, stored.notes) && stored.hasSameAttributes(as: original)
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
    /// A draft with its owner: kept in one list, which a change copies once.
    fileprivate struct Entry: Sendable {
        let owner: DraftOwner
        var draft: Draft
    }

    private var entries: [Entry] = []

    public init() {}

    public init(dictionaryLiteral elements: (DraftOwner, Draft)...) {
        for (owner, draft) in elements { self[owner] = draft }
    }

    private func index(of owner: DraftOwner) -> Int? {
        entries.firstIndex { $0.owner == owner }
    }

    /// The draft of `owner`; setting `nil` removes it.
    public subscript(owner: DraftOwner) -> Draft? {
        get { index(of: owner).map { entries[$0].draft } }
        set {
            switch (index(of: owner), newValue) {
            case (let index?, let draft?): entries[index].draft = draft
            case (let index?, nil): entries.remove(at: index)
            case (nil, let draft?): entries.append(Entry(owner: owner, draft: draft))
            case (nil, nil): break
            }
        }
    }

    /// Whether `owner` has a draft (without copying it).
    public func contains(_ owner: DraftOwner) -> Bool { index(of: owner) != nil }

    /// Changes the draft of `owner` where it is kept; `false` when there is none.
    @discardableResult
    public mutating func change(_ owner: DraftOwner, _ change: (inout Draft) -> Void) -> Bool {
        guard let index = index(of: owner) else { return false }
        change(&entries[index].draft)
        return true
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }
    public var values: [Draft] { entries.map(\.draft) }

    /// The drafts with their owners, in the order they came.
    public struct Iterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[Entry]>

        public mutating func next() -> (DraftOwner, Draft)? {
            base.next().map { ($0.owner, $0.draft) }
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(base: entries.makeIterator())
    }

    /// The same owners with the same drafts, in any order.
    public static func == (lhs: Drafts, rhs: Drafts) -> Bool {
        lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.owner] == $0.draft }
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
