import NavStackCore
import NavStackTime

/// A task as operations carry it: its fields, its parent by uuid, its position.
public struct SyncTask: Equatable, Sendable {
    public var fields: DraftFields
    public var parent: String?
    public var position: Int
    /// Its stamps, those set (format 3).
    public var stamps: TaskStamps

    public init(fields: DraftFields, parent: String?, position: Int, stamps: TaskStamps = TaskStamps()) {
        self.fields = fields
        self.parent = parent
        self.position = position
        self.stamps = stamps
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("title"); json.string(fields.title)
            json.key("notes"); json.string(fields.notes)
            json.key("done"); json.bool(fields.done)
            json.key("parent"); json.string(parent)
            json.key("position"); json.number(position)
            // The other fields only when set (format 2).
            fields.writeSetAttributes(to: &json)
            // The stamps only when set (format 3).
            stamps.writeSetMembers(to: &json)
        }
    }

    public var json: String {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.text
    }

    /// Reads a task as an operation carries it; `nil` unless every member is one the app
    /// would take (a title that is not blank, texts within their limits, a parent that is
    /// a uuid or null).
    public init?(_ value: JSONValue) {
        guard let title = value["title"]?.string, FieldRules.problem(title, as: .title) == nil, let notes = value["notes"]?.string,
            FieldRules.problem(notes, as: .notes) == nil, let done = value["done"]?.bool, let position = value["position"]?.number
        else { return nil }
        let parent = value["parent"] ?? .null
        guard parent == .null || parent.string.map(FieldRules.isTaskID) == true else { return nil }
        var fields = DraftFields(title: title, notes: notes, done: done)
        for field in TaskField.allCases.dropFirst(3) {
            guard let member = value[field.rawValue] else { continue }
            guard let read = FieldValue(field, json: member), FieldRules.takes(read, as: field) else { return nil }
            fields[field] = read
        }
        guard let stamps = TaskStamps(members: value) else { return nil }
        self.init(fields: fields, parent: parent.string, position: position, stamps: stamps)
    }
}

/// One operation: what it does to one task.
public enum SyncChange: Equatable, Sendable {
    case create(SyncTask)
    /// `old`: the task as the deleting replica knew it.
    case delete(old: SyncTask?)
    case field(TaskField, FieldValue, old: FieldValue?)
    case parent(String?, old: String?)
    case position(Int)
    /// One of the task's stamps set, or cleared (format 3).
    case stamp(StampField, Instant?)

    public var field: SyncField {
        switch self {
        case .create, .delete: .task
        case .field(let field, _, _): SyncField(field)
        case .parent: .parent
        case .position: .position
        case .stamp(let field, _): field.syncField
        }
    }

    /// The operation's `value` and `old` as JSON.
    public var json: (value: String, old: String) {
        switch self {
        case .create(let task): (task.json, "null")
        case .delete(let old): ("null", old?.json ?? "null")
        case .field(_, let value, let old): (value.json, old?.json ?? "null")
        case .parent(let parent, let old): (parent?.jsonQuoted ?? "null", old?.jsonQuoted ?? "null")
        case .position(let position): (String(position), "null")
        case .stamp(_, let instant): (instant?.iso8601.jsonQuoted ?? "null", "null")
        }
    }

    /// Reads an operation as it travels; `nil` for one that sets a value the app would
    /// refuse, or a task id that is not a uuid: every replica skips it alike, and the
    /// server refuses it.
    public init?(_ operation: SyncOperation) {
        guard FieldRules.isTaskID(operation.task), let value = JSONValue(parsing: operation.value) else { return nil }
        self.init(field: operation.field, value: value, old: operation.old == "null" ? nil : JSONValue(parsing: operation.old))
        if case .parent(let parent?, _) = self, parent == operation.task { return nil }
        if case .create(let task) = self, task.parent == operation.task { return nil }
    }

    /// Reads an operation's field, value and old value; `nil` for one this replica
    /// cannot apply (every replica skips it alike).
    public init?(field: SyncField, value: JSONValue, old: JSONValue?) {
        let old = old ?? .null
        switch field {
        case .task:
            if value == .null {
                self = .delete(old: SyncTask(old))
            } else {
                guard let task = SyncTask(value) else { return nil }
                self = .create(task)
            }
        case .title, .notes:
            guard let text = value.string, FieldRules.problem(text, as: field == .title ? .title : .notes) == nil else { return nil }
            self = .field(field == .title ? .title : .notes, .text(text), old: old.string.map(FieldValue.text))
        case .done:
            guard let flag = value.bool else { return nil }
            self = .field(.done, .flag(flag), old: old.bool.map(FieldValue.flag))
        case .parent:
            guard value == .null || value.string.map(FieldRules.isTaskID) == true else { return nil }
            // Where the move took the task from: a task id, or none (text that is not one
            // would put it at the top all the same, and no snapshot could carry it).
            self = .parent(value.string, old: old.string.flatMap { FieldRules.isTaskID($0) ? $0 : nil })
        case .position:
            guard let position = value.number else { return nil }
            self = .position(position)
        case .created, .modified, .completed:
            if value == .null {
                self = .stamp(StampField(field)!, nil)
            } else {
                guard let instant = FieldRules.stamp(value) else { return nil }
                self = .stamp(StampField(field)!, instant)
            }
        default:
            guard let taskField = TaskField(rawValue: field.rawValue), let read = FieldValue(taskField, json: value),
                FieldRules.takes(read, as: taskField)
            else { return nil }
            self = .field(taskField, read, old: FieldValue(taskField, json: old))
        }
    }
}

extension SyncField {
    /// The operation field of a task's field.
    public init(_ field: TaskField) {
        self = SyncField(rawValue: field.rawValue)!
    }
}
