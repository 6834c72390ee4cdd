import NavStackBytes
import NavStackCore
import NavStackTime

/// A record of Taskwarrior's `task export` (2.6 and 3) as navstack takes it.
public struct TaskwarriorRecord: Equatable, Sendable {
    /// What the record's `status` makes of it.
    public enum Status: Equatable, Sendable {
        /// `pending` or `waiting`: an open task.
        case open
        /// `completed`: a task done.
        case done
        /// `deleted`: not imported, counted.
        case deleted
        /// `recurring`: a series' template, whose rule its open instance carries.
        case template
    }

    public var uuid: String
    public var fields: DraftFields
    public var stamps: TaskStamps
    public var status: Status
    /// The uuid of the task it is a subtask of (navstack's own export's `navstack_parent`).
    public var parentUUID: String?
    /// A template's record as Taskwarrior had it (but `id` and `urgency`), as JSON.
    public var template: String?
    /// Whether it replaces the task of its uuid whenever they differ, whatever the stamps:
    /// a todo.txt line that names its uuid (the file keeps no time of change).
    public var wins = false
}

/// What an import did, or would do with `--dry-run`.
public struct ImportSummary: Equatable, Sendable {
    public var added = 0
    public var updated = 0
    /// Tasks the profile holds as the record has them, or changed later than the record.
    public var unchanged = 0
    /// Records not imported: deleted tasks, and series' templates (their open instance
    /// carries the rule).
    public var deleted = 0
    public var templates = 0
}

/// Which instance of each series keeps its template whole (the open one, else the last),
/// as the custom field ``TaskwarriorWriter/templateField``, so that an export to
/// Taskwarrior gives it back; told of the records one at a time, in order.
struct TemplateKeeper {
    /// Each template's text by its uuid.
    private var templates: [String: String] = [:]
    /// The instance chosen so far for each series (by its template's uuid), and whether
    /// it is open.
    private var keepers: [String: (uuid: String, open: Bool)] = [:]

    mutating func saw(_ record: TaskwarriorRecord) {
        switch record.status {
        case .template:
            if let text = record.template { templates[record.uuid] = text }
        case .open, .done:
            guard let series = record.fields.custom.first(where: { $0.name == "parent" })?.value else { return }
            if keepers[series]?.open == true { return }
            keepers[series] = (record.uuid, record.status == .open)
        case .deleted:
            break
        }
    }

    /// Each template with the instance that keeps it, by the instance's uuid.
    var kept: [(instance: String, template: String)] {
        templates.compactMap { uuid, text in keepers[uuid].map { (instance: $0.uuid, template: text) } }
            .sorted { $0.instance < $1.instance }
    }
}

/// Reads what `task export` prints: a JSON array of objects, or one object a line.
public enum TaskwarriorReader {
    /// The records, in order; bad ones fail the whole input, each named (``BadRecords``). Each series' template is kept in one of its instances
    /// (``TemplateKeeper``).
    public static func read(_ data: [UInt8], source: String) throws(ImportError) -> [TaskwarriorRecord] {
        var records: [TaskwarriorRecord] = []
        let kept: [(instance: String, template: String)]
        do {
            kept = try read(data, source: source) { record, _ in records.append(record) }
        } catch let error as ImportError {
            throw error
        } catch {
            preconditionFailure("only the reader throws while the records are collected: \(error)")
        }
        var at: [String: Int] = [:]
        for (index, record) in records.enumerated() { at[record.uuid] = index }
        for (instance, template) in kept {
            records[at[instance]!].fields.custom.append(CustomField(name: TaskwarriorWriter.templateField, value: template))
        }
        return records
    }

    /// Reads the records one at a time, in order, each given to `each` with its index and
    /// then let go: an import holds one record at a time, never all of them. Records whose
    /// values ``FieldRules`` refuses fail the whole input once it is read, each named
    /// (``BadRecords``); none is given to `each` after the first of them. Returns each
    /// series' template with the instance that keeps it (``TemplateKeeper``), known only
    /// once every record has been read. `data` is given to the reader in blocks of
    /// `blockSize` bytes (whole when nil), as ``read(source:more:each:)`` takes a file.
    public static func read(
        _ data: [UInt8], source: String, blockSize: Int? = nil, each: (TaskwarriorRecord, Int) throws -> Void
    ) throws -> [(instance: String, template: String)] {
        var offset = 0
        return try read(
            source: source,
            more: {
                guard offset < data.count else { return nil }
                let end = blockSize.map { min(data.count, offset + max(1, $0)) } ?? data.count
                defer { offset = end }
                return Array(data[offset..<end])
            }, each: each)
    }

    /// ``read(_:source:each:)`` of an input given a block at a time by `more` (nil at its
    /// end): only the record being read and a block are held, so an export of any size
    /// is read in the memory of one block. Offsets in failures count from the input's
    /// start (after a byte order mark).
    public static func read(
        source: String, more: () throws -> [UInt8]?, each: (TaskwarriorRecord, Int) throws -> Void
    ) throws -> [(instance: String, template: String)] {
        var buffer: [UInt8] = []
        var exhausted = false
        func take() throws -> Bool {
            guard !exhausted, let block = try more() else {
                exhausted = true
                return false
            }
            buffer += block
            return true
        }
        // A byte order mark, then the first byte that is not blank says which form.
        while buffer.count < 3, try take() {}
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { buffer.removeFirst(3) }
        var first = 0
        while true {
            if let index = buffer[first...].firstIndex(where: { !JSONReader.isBlank($0) }) {
                first = index
                break
            }
            first = buffer.count
            guard try take() else { throw ImportError.empty(source: source) }
        }
        var count = 0
        var seen = Set<UUIDKey>()
        var keeper = TemplateKeeper()
        var bad = BadRecords()
        // A record whose values ``FieldRules`` refuses is named, and reading goes on: the
        // import then fails with every such record (``BadRecords``), nothing written.
        func add(_ object: JSONValue) throws {
            defer { count += 1 }
            let record: TaskwarriorRecord
            do throws(ImportError) {
                record = try self.record(object, index: count)
                guard seen.insert(UUIDKey(record.uuid)).inserted else {
                    throw ImportError.badRecord(index: count, .duplicateUUID(record.uuid))
                }
            } catch {
                guard case .badRecord(let index, let problem) = error else { throw error }
                let uuid = object["uuid"]?.string?.lowercased()
                bad.add(BadRecord(.record(index), uuid: uuid?.isUUID == true ? uuid : nil, title: object["description"]?.string, problem))
                return
            }
            keeper.saw(record)
            guard bad.isEmpty else { return }
            try each(record, count)
        }
        if buffer[first] == UInt8(ascii: "[") {
            // An array, read one element at a time.
            var elements = JSONArrayStream(after: buffer, position: first + 1, base: 0)
            buffer = []
            while true {
                let element: JSONValue?
                do {
                    element = try elements.next(more: { exhausted ? nil : try more() })
                } catch let error as JSONError {
                    throw ImportError.notJSON(error)
                }
                guard let element else { break }
                try add(element)
            }
        } else {
            // One object a line; a line is a record, numbered among the records.
            var start = 0
            var lineStart = 0
            func line(_ bytes: ArraySlice<UInt8>, at offset: Int) throws {
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw ImportError.notJSON(.invalidUTF8(at: offset + (firstNotUTF8(bytes) ?? 0)))
                }
                guard !text.allSatisfy(\.isWhitespace) else { return }
                let object: JSONValue
                do throws(JSONError) {
                    object = try JSONValue.parse(foreign: text)
                } catch {
                    bad.add(BadRecord(.record(count), .notJSON(error)))
                    count += 1
                    return
                }
                try add(object)
            }
            while true {
                while let end = buffer[start...].firstIndex(of: 0x0A) {
                    try line(buffer[start..<end], at: lineStart + start)
                    start = end + 1
                }
                // What is left is the start of a line: kept, with the next block after it.
                lineStart += start
                buffer.removeFirst(start)
                start = 0
                guard try take() else { break }
            }
            if !buffer.isEmpty { try line(buffer[...], at: lineStart) }
        }
        try bad.check()
        return keeper.kept
    }

    /// Where (from the start of `bytes`) the first byte is that does not begin a whole
    /// UTF-8 character, in one pass; nil when they are all UTF-8.
    static func firstNotUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// One record: every attribute kept, those navstack has a field for in it, the rest
    /// (user-defined attributes, `start`, a template's `mask`, an instance's `parent` and
    /// `imask`) as custom fields with their text exactly; `id` and `urgency`, which
    /// Taskwarrior works out, are left out.
    static func record(_ object: JSONValue, index: Int) throws(ImportError) -> TaskwarriorRecord {
        func bad(_ problem: ImportError.Record) -> ImportError { .badRecord(index: index, problem) }
        guard case .object(let members) = object else { throw bad(.notAnObject) }
        guard let uuidValue = object["uuid"] else { throw bad(.badValue(key: "uuid", expected: "8-4-4-4-12")) }
        guard let uuid = uuidValue.string?.lowercased(), uuid.isUUID else { throw bad(.notAUUID) }
        guard let description = object["description"] else { throw bad(.badValue(key: "description", expected: "\"…\"")) }
        guard let title = description.string else { throw bad(.wrongType("description")) }
        var fields = DraftFields(title: title)
        var stamps = TaskStamps()
        var status = TaskwarriorRecord.Status.open
        var invalidTags: [String] = []
        var parentUUID: String?
        // Gathered here and set once: appending to a draft's field one at a time copies it
        // each time (a record of 20,000 custom fields took quadratic time).
        var annotations: [Annotation] = []
        var custom: [CustomField] = []
        for (key, value) in members {
            switch key {
            case "uuid", "description", "id", "urgency":
                continue
            case TaskwarriorWriter.templateField, TodoTxtWriter.lineField:
                // What only navstack's own readers put in a task: a record that names it
                // could make `export --to taskwarrior` write a record of its choosing.
                throw bad(.reservedField(key))
            case TaskwarriorWriter.notesAttribute where value.string != nil:
                fields.notes = value.string!
            case TaskwarriorWriter.parentAttribute where value.string?.isUUID ?? false:
                parentUUID = value.string!.lowercased()
            case "status":
                switch value.string {
                case "pending", "waiting": status = .open
                case "completed": status = .done
                case "deleted": status = .deleted
                case "recurring": status = .template
                default: throw bad(.badValue(key: key, expected: "pending, waiting, completed, deleted, recurring"))
                }
            case "entry": stamps.created = try date(value, key, index: index)
            case "modified": stamps.modified = try date(value, key, index: index)
            case "end": stamps.completed = try date(value, key, index: index)
            case "due": fields.due = try date(value, key, index: index)
            case "scheduled": fields.scheduled = try date(value, key, index: index)
            case "wait": fields.wait = try date(value, key, index: index)
            case "until": fields.until = try date(value, key, index: index)
            case "priority" where Priority(letter: value.string ?? "") != nil && value.string?.count == 1:
                fields.priority = Priority(letter: value.string!)
            case "project" where value.string.map(FieldRules.isProject) ?? false:
                fields.project = value.string
            case "recur" where value.string.flatMap(RecurRule.normalized) != nil:
                fields.recur = RecurRule.normalized(value.string!)
            case "tags":
                guard let tags = value.array?.compactMap(\.string), tags.count == value.array?.count else {
                    throw bad(.badValue(key: key, expected: "[\"…\"]"))
                }
                // navstack's tags are one of each without case: a second `Home` beside
                // `home` is kept with the tags navstack cannot hold.
                fields.tags = TaskWords.tagSet(tags.filter(FieldRules.isTag))
                let kept = Set(fields.tags)
                invalidTags = tags.filter { !kept.contains($0) }
            case "annotations":
                guard let list = value.array else { throw bad(.badValue(key: key, expected: "[{\"entry\", \"description\"}]")) }
                guard list.count <= FieldRules.itemsPerTask else {
                    throw bad(.value(.tooManyItems(.annotations, count: list.count, limit: FieldRules.itemsPerTask)))
                }
                for annotation in list {
                    guard let text = annotation["description"]?.string, let entry = annotation["entry"] else {
                        throw bad(.badValue(key: key, expected: "[{\"entry\", \"description\"}]"))
                    }
                    annotations.append(Annotation(entry: try date(entry, key, index: index), text: text))
                }
            case "depends":
                // A string of uuids joined by commas (2.6), or an array (3).
                let uuids: [String]
                if let text = value.string {
                    uuids = text.split(separator: ",").map { String($0.filter { $0 != " " }).lowercased() }
                } else if let list = value.array?.compactMap(\.string), list.count == value.array?.count {
                    uuids = list.map { $0.lowercased() }
                } else {
                    throw bad(.badValue(key: key, expected: "8-4-4-4-12,…"))
                }
                guard uuids.allSatisfy(\.isUUID) else { throw bad(.badValue(key: key, expected: "8-4-4-4-12,…")) }
                fields.depends = uuids
            default:
                custom.append(CustomField(name: key, value: text(of: value)))
            }
        }
        if !invalidTags.isEmpty { custom.append(CustomField(name: "tags", value: invalidTags.joined(separator: ","))) }
        if !annotations.isEmpty { fields.annotations = annotations }
        if !custom.isEmpty { fields.custom = custom }
        fields.done = status == .done
        // Every value as every door holds it; a template's record, as its instance keeps it.
        if let problem = FieldRules.problem(in: fields) { throw bad(.value(problem)) }
        var template: String?
        if status == .template {
            var json = JSONWriter()
            JSONValue.object(members.filter { $0.0 != "id" && $0.0 != "urgency" }).write(to: &json)
            template = json.text
            if let problem = FieldRules.problem(json.text, as: .customValue) { throw bad(.value(problem)) }
        }
        return TaskwarriorRecord(uuid: uuid, fields: fields, stamps: stamps, status: status, parentUUID: parentUUID, template: template)
    }

    /// `20261127T090000Z`, Taskwarrior's form, or an extended ISO 8601 instant: both are
    /// forms ``Instant/parse(iso8601:)`` reads.
    static func date(_ value: JSONValue, _ key: String, index: Int) throws(ImportError) -> Instant {
        guard let text = value.string, let instant = Instant(iso8601: text) else {
            throw .badRecord(index: index, .badValue(key: key, expected: "YYYYMMDDTHHMMSSZ"))
        }
        return instant
    }

    /// An attribute's text: a string as it is, a number as written, anything else as JSON.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return String(number)
        default:
            var writer = JSONWriter()
            value.write(to: &writer)
            return writer.text
        }
    }
}

extension SQLiteStore {
    /// Imports Taskwarrior's records as one transaction (one change for `undo`): a task the
    /// profile holds by the record's uuid is updated when the record was modified later
    /// than the task (its fields become the record's; a field changed in navstack since
    /// is then replaced), else left; the others are added after the profile's tasks.
    /// Deleted tasks and series' templates are counted, not imported. With `dryRun`,
    /// nothing is written.
    public func importTaskwarrior(_ records: [TaskwarriorRecord], user: String, dryRun: Bool) throws -> ImportSummary {
        try importTaskwarrior(user: user, dryRun: dryRun) { each in
            for (index, record) in records.enumerated() { try each(record, index) }
            return []
        }
    }

    /// Imports the records `read` gives, one at a time, as ``importTaskwarrior(_:user:dryRun:)``
    /// does, in the one transaction; `read` returns each series' template with the instance
    /// that keeps it, which is given it once every record is in. A failure of `read` (a bad
    /// record) rolls the whole import back.
    public func importTaskwarrior(
        user: String, dryRun: Bool,
        reading read: (_ each: (TaskwarriorRecord, Int) throws -> Void) throws -> [(instance: String, template: String)]
    ) throws -> ImportSummary {
        var summary = ImportSummary()
        if dryRun {
            try reading { db in
                _ = try read { record, index in
                    switch record.status {
                    case .deleted: summary.deleted += 1
                    case .template: summary.templates += 1
                    case .open, .done:
                        if let stored = try Self.stored(db, user, uuid: record.uuid) {
                            if Self.replaces(record, stored) { summary.updated += 1 } else { summary.unchanged += 1 }
                        } else {
                            try Self.checkUUIDFree(db, record.uuid, index: index)
                            summary.added += 1
                        }
                    }
                }
            }
            return summary
        }
        try writing { db in
            try openProfile(user, sample: false)
            let words = try Self.holdBackWordsOfNewTasks(db)
            var log: ChangeLog?
            func change(_ pair: ChangePair) throws -> StoredTask? {
                if log == nil { log = try beginChange(db, user, .import) }
                return try Self.change(db, user, pair, &log!).after
            }
            let kept = try read { record, index in
                switch record.status {
                case .deleted:
                    summary.deleted += 1
                    return
                case .template:
                    summary.templates += 1
                    return
                case .open, .done:
                    break
                }
                if let stored = try Self.stored(db, user, uuid: record.uuid) {
                    guard Self.replaces(record, stored) else {
                        summary.unchanged += 1
                        return
                    }
                    summary.updated += 1
                    var after = stored
                    after.fields = Self.keepingTemplate(of: stored, in: record.fields)
                    after.rev += 1
                    let written = try change(ChangePair(before: stored, after: after))
                    try Self.keepStamps(db, record.stamps, id: written?.id ?? stored.id)
                } else {
                    try Self.checkUUIDFree(db, record.uuid, index: index)
                    summary.added += 1
                    let bottom = try db.first("SELECT bottom + 1 FROM profile WHERE name = ?", [user]) { $0.int(0) } ?? 0
                    var task = StoredTask(id: nil, position: bottom, uuid: record.uuid, record.fields)
                    task.stamps = record.stamps
                    if let parentUUID = record.parentUUID {
                        // A subtask goes under its task when the profile holds it (navstack's
                        // own export writes a task before its subtasks); else the link is kept.
                        if let parent = try Self.stored(db, user, uuid: parentUUID)?.id {
                            task.parent = parent
                        } else {
                            task.fields.custom.append(CustomField(name: TaskwarriorWriter.parentAttribute, value: parentUUID))
                        }
                    }
                    _ = try change(ChangePair(before: nil, after: task))
                }
            }
            // Each template into the instance that keeps it, unless it holds it already.
            let field = TaskwarriorWriter.templateField
            for (instance, template) in kept {
                guard let stored = try Self.stored(db, user, uuid: instance),
                    !stored.fields.custom.contains(CustomField(name: field, value: template))
                else { continue }
                var after = stored
                after.fields.custom.removeAll { $0.name == field }
                after.fields.custom.append(CustomField(name: field, value: template))
                after.rev += 1
                _ = try change(ChangePair(before: stored, after: after))
                try Self.keepStamps(db, stored.stamps, id: stored.id)
            }
            try Self.giveWordsToNewTasks(db, words)
        }
        return summary
    }

    /// A record's fields as they replace a task's: the template the task keeps (which the
    /// import gives it again once every record is read) stays, when the record has none.
    private static func keepingTemplate(of stored: StoredTask, in fields: DraftFields) -> DraftFields {
        let field = TaskwarriorWriter.templateField
        guard !fields.custom.contains(where: { $0.name == field }) else { return fields }
        var kept = fields
        kept.custom += stored.fields.custom.filter { $0.name == field }
        return kept
    }

    /// Whether a record replaces the task the profile holds by its uuid: it was modified
    /// later than the task, and differs from it.
    private static func replaces(_ record: TaskwarriorRecord, _ stored: StoredTask) -> Bool {
        let fields = keepingTemplate(of: stored, in: record.fields)
        if record.wins { return stored.fields != fields }
        guard let modified = record.stamps.modified else { return false }
        return (stored.stamps.modified.map { modified > $0 } ?? true) && stored.fields != fields
    }

    /// Gives a task the stamps its record has (those it has: the rest stay as written).
    private static func keepStamps(_ db: Connection, _ stamps: TaskStamps, id: Int?) throws {
        guard let id else { return }
        try db.run(
            """
            UPDATE task SET created = coalesce(?, created), modified = coalesce(?, modified), completed = CASE WHEN done THEN coalesce(?, completed) END
            WHERE id = ?
            """, [stamps.created?.secondsSinceEpoch, stamps.modified?.secondsSinceEpoch, stamps.completed?.secondsSinceEpoch, id])
    }
}
