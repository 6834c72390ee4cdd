import NavStackCore

/// The fields that merge as sets (`tags`, `annotations`, `depends`): what two replicas
/// add concurrently is kept on both, and a removal removes only what its replica had
/// seen. Each element keeps whether it is in the set with the stamp of the operation
/// that said so last (last writer wins, element by element), so replicas that apply the
/// same operations in any order hold the same set.
///
/// An operation of such a field carries the whole set it leaves (`value`) and the set
/// its replica saw (`old`): the elements it added are those of `value` not in `old`,
/// those it removed the other way round; the others it leaves as they are.
public struct SetElement: Equatable, Hashable, Sendable {
    /// The element as JSON, as the field's value holds it (`"home"`, an annotation's
    /// object).
    public var item: String
    public var present: Bool
    public var at: String

    public init(item: String, present: Bool, at: String) {
        self.item = item
        self.present = present
        self.at = at
    }
}

extension TaskField {
    /// Whether the field merges as a set.
    public var isSet: Bool {
        switch self {
        case .tags, .annotations, .depends: true
        default: false
        }
    }
}

extension FieldValue {
    /// The elements of a set field's value by key (a tag without case, an annotation's
    /// instant and text, a uuid), each as JSON.
    public var setItems: [(key: String, item: String)] {
        switch self {
        case .words(let words):
            return words.map { ($0.lowercased(), $0.jsonQuoted) }
        case .annotations(let list):
            return list.map { annotation in
                let item = FieldValue.annotations([annotation]).json
                return (annotation.entry.iso8601 + " " + annotation.text, String(item.dropFirst().dropLast()))
            }
        default:
            return []
        }
    }

    /// A set field's value holding `items` (JSON each); `nil` when one does not read.
    public static func set(_ field: TaskField, items: [String]) -> FieldValue? {
        guard let value = JSONValue(parsing: "[" + items.joined(separator: ",") + "]") else { return nil }
        return FieldValue(field, json: value)
    }
}

extension SyncRegister {
    /// Applies a set field's operation stamped `stamp`: marks what it added present and
    /// what it removed absent, where its stamp is later than the element's.
    mutating func applySet(_ field: TaskField, _ value: FieldValue, old: FieldValue?, at stamp: String) {
        let new = value.setItems
        let seen = old?.setItems ?? []
        let seenKeys = Set(seen.map(\.key))
        let newKeys = Set(new.map(\.key))
        guard newKeys != seenKeys else { return }
        var known = elements[field] ?? [:]
        for (key, item) in new where !seenKeys.contains(key) {
            if let element = known[key], element.at >= stamp { continue }
            known[key] = SetElement(item: item, present: true, at: stamp)
        }
        for (key, item) in seen where !newKeys.contains(key) {
            if let element = known[key], element.at >= stamp { continue }
            known[key] = SetElement(item: item, present: false, at: stamp)
        }
        elements[field] = known
        settle(field)
        if stamp > fieldsAt[Self.index(field)] { fieldsAt[Self.index(field)] = stamp }
    }

    /// Merges another register's elements of a set field: the later stamp of each wins.
    mutating func mergeSet(_ field: TaskField, from other: SyncRegister) {
        guard let theirs = other.elements[field], !theirs.isEmpty else { return }
        var known = elements[field] ?? [:]
        for (key, element) in theirs where element.at > (known[key]?.at ?? "") {
            known[key] = element
        }
        elements[field] = known
        settle(field)
        let index = Self.index(field)
        if other.fieldsAt[index] > fieldsAt[index] { fieldsAt[index] = other.fieldsAt[index] }
    }

    /// Sets the field's value to its present elements.
    public mutating func settle(_ field: TaskField) {
        let present = (elements[field] ?? [:]).values.filter(\.present).map(\.item).sorted()
        if let value = FieldValue.set(field, items: present) { fields[field] = value }
    }
}
