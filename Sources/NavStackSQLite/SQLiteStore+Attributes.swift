import NavStackCore
import NavStackTime

/// How a task's fields beyond the title, the notes and `done`, and its stamps, are kept
/// in its row (schema v12): dates as seconds since 1970, tags and dependencies as words
/// joined by a space (neither holds one), annotations and custom fields as JSON, and
/// "" or NULL for none.
extension SQLiteStore {
    /// The columns, in the order ``readAttributes(_:at:into:)`` reads and
    /// ``Binding/attributes(_:_:)`` binds them.
    static let attributeColumns =
        "due, scheduled, wait, until, priority, project, recur, tags, annotations, depends, fields, created, modified, completed"
    /// How many there are.
    static let attributeCount: Int32 = 14
    /// `due = ?, …, completed = ?`.
    static let attributeAssignments = attributeColumns.split(separator: ", ").map { $0 + " = ?" }.joined(separator: ", ")
    /// `?, …` for each.
    static let attributePlaceholders = Array(repeating: "?", count: Int(attributeCount)).joined(separator: ", ")

    /// Reads the columns from `start` into `fields`, and returns the stamps.
    static func readAttributes(_ row: Row, at start: Int32, into fields: inout DraftFields) -> TaskStamps {
        func instant(_ column: Int32) -> Instant? {
            row.isNull(start + column) ? nil : Instant(secondsSinceEpoch: row.int64(start + column))
        }
        func words(_ column: Int32) -> [String] {
            let text = row.text(start + column)
            return text.isEmpty ? [] : text.split(separator: " ").map(String.init)
        }
        let stamps = TaskStamps(created: instant(11), modified: instant(12), completed: instant(13))
        // Most tasks hold none of the rest: one look at each column says so.
        for column in Int32(0)...10 where !row.isNull(start + column) && (column < 7 || row.textLength(start + column) > 0) {
            var values = TaskExtra.Values()
            values.due = instant(0)
            values.scheduled = instant(1)
            values.wait = instant(2)
            values.until = instant(3)
            values.priority = row.optionalText(start + 4).flatMap(Priority.init(rawValue:))
            values.project = row.optionalText(start + 5)
            values.recur = row.optionalText(start + 6)
            values.tags = words(7)
            values.annotations =
                json(row.text(start + 8), .annotations).flatMap { value in
                    if case .annotations(let list) = value { list } else { nil }
                } ?? []
            values.depends = words(9)
            values.custom =
                json(row.text(start + 10), .fields).flatMap { value in
                    if case .custom(let list) = value { list } else { nil }
                } ?? []
            fields.extra = TaskExtra(values)
            break
        }
        return stamps
    }

    /// A list column's value ("" for none).
    private static func json(_ text: String, _ field: TaskField) -> FieldValue? {
        guard !text.isEmpty, let value = JSONValue(parsing: text) else { return nil }
        return FieldValue(field, json: value)
    }

    /// The values of the columns, as arguments, in their order.
    static func attributeArguments(_ fields: DraftFields, _ stamps: TaskStamps) -> [any SQLArgument] {
        let columns = AttributeColumns(fields, stamps)
        return [
            columns.due, columns.scheduled, columns.wait, columns.until, columns.priority, columns.project, columns.recur,
            columns.tags, columns.annotations, columns.depends, columns.fields, columns.created, columns.modified,
            columns.completed,
        ]
    }

    /// The stamps of a task written at `now`: made now when new, changed now, completed
    /// now when it has just been done (and kept while it stays done).
    static func stamped(_ task: StoredTask, replacing old: StoredTask?, at now: Instant) -> StoredTask {
        var stamped = task
        stamped.stamps.created = task.stamps.created ?? old?.stamps.created ?? now
        if old == nil {
            stamped.stamps.modified = task.stamps.modified ?? now
        } else {
            stamped.stamps.modified = now
        }
        if !task.fields.done {
            stamped.stamps.completed = nil
        } else if old?.fields.done == true, let completed = old?.stamps.completed {
            stamped.stamps.completed = task.stamps.completed ?? completed
        } else {
            stamped.stamps.completed = task.stamps.completed ?? now
        }
        return stamped
    }
}

/// A task's attribute columns as SQL values.
struct AttributeColumns {
    let due: Int64?
    let scheduled: Int64?
    let wait: Int64?
    let until: Int64?
    let priority: String?
    let project: String?
    let recur: String?
    let tags: String
    let annotations: String
    let depends: String
    let fields: String
    let created: Int64?
    let modified: Int64?
    let completed: Int64?

    init(_ task: DraftFields, _ stamps: TaskStamps) {
        due = task.due?.secondsSinceEpoch
        scheduled = task.scheduled?.secondsSinceEpoch
        wait = task.wait?.secondsSinceEpoch
        until = task.until?.secondsSinceEpoch
        priority = task.priority?.rawValue
        project = task.project
        recur = task.recur
        tags = task.tags.joined(separator: " ")
        annotations = task.annotations.isEmpty ? "" : FieldValue.annotations(task.annotations).json
        depends = task.depends.joined(separator: " ")
        fields = task.custom.isEmpty ? "" : FieldValue.custom(task.custom).json
        created = stamps.created?.secondsSinceEpoch
        modified = stamps.modified?.secondsSinceEpoch
        completed = stamps.completed?.secondsSinceEpoch
    }
}

extension Binding {
    /// Binds the attribute columns, in their order.
    mutating func attributes(_ task: DraftFields, _ stamps: TaskStamps) {
        let columns = AttributeColumns(task, stamps)
        int(columns.due)
        int(columns.scheduled)
        int(columns.wait)
        int(columns.until)
        text(columns.priority)
        text(columns.project)
        text(columns.recur)
        text(columns.tags)
        text(columns.annotations)
        text(columns.depends)
        text(columns.fields)
        int(columns.created)
        int(columns.modified)
        int(columns.completed)
    }

    /// A number, or NULL.
    mutating func int(_ value: Int64?) {
        if let value { int(value) } else { int(nil as Int?) }
    }
}
