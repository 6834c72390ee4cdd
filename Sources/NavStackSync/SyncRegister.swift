import NavStackCore

/// What a replica knows of one task: each field's value with the stamp of the
/// operation that set it (last writer wins, field by field). Registers outlive a task's
/// deletion, so a later re-creation or a late field change counts alike everywhere.
public struct SyncRegister: Equatable, Sendable {
    public var uuid: String
    public var alive = false
    public var aliveAt = ""
    public var fields = DraftFields()
    /// Each field's stamp, in ``TaskField``'s order.
    public var fieldsAt = Array(repeating: "", count: TaskField.allCases.count)
    public var parent: String?
    /// Where the last move took the task from: where it goes if that move makes a cycle.
    public var parentOld: String?
    public var parentAt = ""
    public var position = 0
    public var positionAt = ""
    /// The elements of the fields that merge as sets, by field and key
    /// (``SetElement``).
    public var elements: [TaskField: [String: SetElement]] = [:]
    /// The task's stamps (format 3), each with the stamp of the operation that set it, in
    /// ``StampField``'s order: `""` for one no operation set (a value this replica holds
    /// but did not make, from before format 3, is kept so, and loses to any operation).
    public var taskStamps = TaskStamps()
    public var taskStampsAt = ["", "", ""]

    public init(uuid: String) {
        self.uuid = uuid
    }

    public static func index(_ field: TaskField) -> Int {
        switch field {
        case .title: 0
        case .notes: 1
        case .done: 2
        default: TaskField.allCases.firstIndex(of: field)!
        }
    }

    /// Applies an operation stamped `at`; returns the fields whose value set by
    /// `replica` (this one) it replaced with another value, without the other writer
    /// having seen it (its `old` differs): the local values that lost.
    public mutating func apply(_ change: SyncChange, at stamp: String, replica: String) -> [String] {
        var lost: [String] = []
        func isMine(_ at: String) -> Bool { Stamp.replica(of: at) == replica }
        func setField(_ field: TaskField, _ value: FieldValue, old: FieldValue?) {
            guard !field.isSet else { return applySet(field, value, old: old, at: stamp) }
            let index = Self.index(field)
            guard stamp > fieldsAt[index] else { return }
            if alive && isMine(fieldsAt[index]) && fields[field] != value && old != fields[field] { lost.append(field.rawValue) }
            fields[field] = value
            fieldsAt[index] = stamp
        }
        func setParent(_ value: String?, old: String?) {
            guard stamp > parentAt else { return }
            if alive && isMine(parentAt) && parent != value && old != parent { lost.append("parent") }
            parent = value
            parentOld = old
            parentAt = stamp
        }
        func setPosition(_ value: Int) {
            guard stamp > positionAt else { return }
            position = value
            positionAt = stamp
        }
        switch change {
        case .create(let task):
            // Format 2's fields only when set: a created task that has none leaves them as
            // they are (every replica alike, whatever order operations come in).
            for field in TaskField.allCases where Self.index(field) < 3 || task.fields[field] != DraftFields()[field] {
                setField(field, task.fields[field], old: nil)
            }
            setParent(task.parent, old: nil)
            setPosition(task.position)
            // The stamps it carries (format 3), those set, as the fields above.
            for field in StampField.allCases where task.stamps[field] != nil {
                setStamp(field, task.stamps[field], at: stamp)
            }
            if stamp > aliveAt {
                alive = true
                aliveAt = stamp
            }
        case .delete(let old):
            guard stamp > aliveAt else { break }
            if alive, let old, TaskField.allCases.contains(where: { isMine(fieldsAt[Self.index($0)]) && old.fields[$0] != fields[$0] }) {
                lost.append("task")
            }
            alive = false
            aliveAt = stamp
        case .field(let field, let value, let old):
            setField(field, value, old: old)
        case .parent(let value, let old):
            setParent(value, old: old)
        case .position(let value):
            setPosition(value)
        case .stamp(let field, let value):
            setStamp(field, value, at: stamp)
        }
        return lost
    }
}

/// Where the registers a replica knows are found: its store, or a test's dictionary.
public protocol SyncRegisterLookup {
    /// The register of `uuid`; `nil` when the replica has never known the task.
    func register(_ uuid: String) throws -> SyncRegister?
}

extension SyncRegister {
    /// The parent this register puts its task under, as every replica decides it: `nil`
    /// (the top) when that parent is gone; when the registers' parents make a cycle, the
    /// task of the cycle whose move is the latest goes back where that move took it
    /// from (and if that too makes a cycle, to the top). A cycle met above the task is
    /// left to its latest task, which is appended to `queue` to be placed.
    public func effectiveParent(in registers: some SyncRegisterLookup, queue: inout [String]) throws -> String? {
        var candidate = parent
        for attempt in 0..<2 {
            guard let parent = candidate else { return nil }
            guard let parentRegister = try registers.register(parent), parentRegister.alive else { return nil }
            var chain = [self]
            var seen = [uuid: 0]
            var current: SyncRegister? = parentRegister
            var dropped = false
            while let step = current {
                if let first = seen[step.uuid] {
                    let latest = chain[first...].max { $0.parentAt < $1.parentAt }!
                    if first == 0 && latest.uuid == uuid {
                        dropped = true
                    } else {
                        queue.append(latest.uuid)
                    }
                    break
                }
                // The task and the parents walked so far are `chain.count` levels: one
                // more would pass the limit.
                guard chain.count < TreeLimits.depth else {
                    dropped = true
                    break
                }
                seen[step.uuid] = chain.count
                chain.append(step)
                guard let next = step.parent, let nextRegister = try registers.register(next), nextRegister.alive else { break }
                current = nextRegister
            }
            guard dropped else { return parent }
            candidate = attempt == 0 ? parentOld : nil
        }
        return nil
    }
}
