import NavStackTime

/// A field of a task that a change sets, as operations and conflicts name it.
public enum TaskField: String, CaseIterable, Equatable, Hashable, Sendable {
    case title, notes, done
    case due, scheduled, wait, until, priority, project, recur, tags
    case annotations, depends, fields
}

/// The value of a task's field.
public enum FieldValue: Equatable, Hashable, Sendable {
    case text(String)
    case flag(Bool)
    /// A date, or none.
    case instant(Instant?)
    /// A priority's letter, a project or a rule, or none.
    case name(String?)
    /// Tags, or dependencies by uuid.
    case words([String])
    case annotations([Annotation])
    case custom([CustomField])

    /// The value as JSON: a string, true or false, null, an array or an object, as task
    /// objects write it (instants as `"2026-12-01T00:00:00Z"`).
    public var json: String {
        switch self {
        case .text(let text): return text.jsonQuoted
        case .flag(let flag): return flag ? "true" : "false"
        default:
            var writer = JSONWriter()
            write(to: &writer)
            return writer.text
        }
    }

    public func write(to json: inout JSONWriter) {
        switch self {
        case .text(let text): json.string(text)
        case .flag(let flag): json.bool(flag)
        case .instant(let instant): json.string(instant?.iso8601)
        case .name(let name): json.string(name)
        case .words(let words): json.strings(words)
        case .annotations(let list):
            json.array(list) { json, annotation in
                json.object { json in
                    json.key("entry"); json.string(annotation.entry.iso8601)
                    json.key("text"); json.string(annotation.text)
                }
            }
        case .custom(let list):
            json.object { json in
                for field in list {
                    json.key(field.name); json.string(field.value)
                }
            }
        }
    }

    /// Reads a field's value back from its JSON; `nil` when it is not one of the field
    /// (the shape is checked here; what a text may hold, by the caller).
    public init?(_ field: TaskField, json value: JSONValue) {
        switch field {
        case .title, .notes:
            guard let text = value.string else { return nil }
            self = .text(text)
        case .done:
            guard let flag = value.bool else { return nil }
            self = .flag(flag)
        case .due, .scheduled, .wait, .until:
            if value == .null {
                self = .instant(nil)
            } else {
                guard let instant = value.string.flatMap(Instant.init(iso8601:)) else { return nil }
                self = .instant(instant)
            }
        case .priority, .project, .recur:
            if value == .null {
                self = .name(nil)
            } else {
                guard let name = value.string else { return nil }
                if field == .priority && Priority(rawValue: name) == nil { return nil }
                self = .name(name)
            }
        case .tags, .depends:
            guard let items = value.array else { return nil }
            let words = items.compactMap(\.string)
            guard words.count == items.count else { return nil }
            self = .words(field == .tags ? TaskWords.tagSet(words) : Array(Set(words)).sorted())
        case .annotations:
            guard let items = value.array else { return nil }
            var list: [Annotation] = []
            for item in items {
                guard let entry = item["entry"]?.string.flatMap(Instant.init(iso8601:)), let text = item["text"]?.string else {
                    return nil
                }
                list.append(Annotation(entry: entry, text: text))
            }
            self = .annotations(list)
        case .fields:
            guard case .object(let members) = value else { return nil }
            var list: [CustomField] = []
            var names = Set<String>()
            for (name, member) in members {
                guard let text = member.string else { return nil }
                if names.insert(name).inserted { list.append(CustomField(name: name, value: text)) }
            }
            self = .custom(list.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
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

extension DraftFields {
    /// Writes the fields beyond the title, the notes and `done` that are set, each under
    /// its name: what a record of a task that has none of them leaves out, so it reads
    /// as it did before they existed.
    public func writeSetAttributes(to json: inout JSONWriter) {
        let none = DraftFields()
        for field in TaskField.allCases.dropFirst(3) where self[field] != none[field] {
            json.key(field.rawValue)
            self[field].write(to: &json)
        }
    }

    /// Reads back what ``writeSetAttributes(to:)`` wrote from an object's members;
    /// `false` when one is not a value of its field.
    public mutating func readSetAttributes(from object: JSONValue) -> Bool {
        for field in TaskField.allCases.dropFirst(3) {
            guard let member = object[field.rawValue] else { continue }
            guard let value = FieldValue(field, json: member) else { return false }
            self[field] = value
        }
        return true
    }
}
