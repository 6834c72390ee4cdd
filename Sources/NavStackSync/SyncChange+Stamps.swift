import NavStackCore
import NavStackTime

/// The stamps a store keeps on a task (``TaskStamps``) as sync carries them (format 3,
/// docs/sync.md, "Stamps"): each a register of its own, set by the members of a created
/// task and by `created`, `modified` and `completed` operations, the later stamp winning.
public enum StampField: String, CaseIterable, Sendable {
    case created, modified, completed

    /// Its place in ``SyncRegister/taskStampsAt``.
    public var index: Int {
        switch self {
        case .created: 0
        case .modified: 1
        case .completed: 2
        }
    }

    /// The operation field that sets it.
    public var syncField: SyncField {
        switch self {
        case .created: .created
        case .modified: .modified
        case .completed: .completed
        }
    }

    /// The stamp an operation field sets, if it sets one.
    public init?(_ field: SyncField) {
        self.init(rawValue: field.rawValue)
    }
}

extension TaskStamps {
    public subscript(field: StampField) -> Instant? {
        get {
            switch field {
            case .created: created
            case .modified: modified
            case .completed: completed
            }
        }
        set {
            switch field {
            case .created: created = newValue
            case .modified: modified = newValue
            case .completed: completed = newValue
            }
        }
    }

    /// The members `created`, `modified` and `completed` of those set, as ISO 8601 text
    /// (as a task's dates travel).
    public func writeSetMembers(to json: inout JSONWriter) {
        for field in StampField.allCases {
            guard let instant = self[field] else { continue }
            json.key(field.rawValue); json.string(instant.iso8601)
        }
    }

    /// Reads the members ``writeSetMembers(to:)`` writes from an object (a missing or
    /// null one is not set); `nil` when one is not an instant the app takes.
    public init?(members object: JSONValue) {
        self.init()
        for field in StampField.allCases {
            guard let member = object[field.rawValue], member != .null else { continue }
            guard let instant = FieldRules.stamp(member) else { return nil }
            self[field] = instant
        }
    }
}

extension SyncRegister {
    /// Sets a stamp by an operation stamped `stamp`, when that is later than the one
    /// that set it last.
    mutating func setStamp(_ field: StampField, _ value: Instant?, at stamp: String) {
        guard stamp > taskStampsAt[field.index] else { return }
        taskStamps[field] = value
        taskStampsAt[field.index] = stamp
    }

    /// Merges a snapshot's register's stamps: the later stamp of each wins.
    mutating func mergeStamps(from other: SyncRegister) {
        for field in StampField.allCases where other.taskStampsAt[field.index] > taskStampsAt[field.index] {
            taskStamps[field] = other.taskStamps[field]
            taskStampsAt[field.index] = other.taskStampsAt[field.index]
        }
    }
}
