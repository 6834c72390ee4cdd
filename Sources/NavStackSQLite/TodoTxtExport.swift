import NavStackCore
import NavStackTime

/// Writes a task as a todo.txt line, the form ``TodoTxtReader`` reads back to the same
/// task. A line is, in order:
///
/// - `x`, the completion date and the creation date for a done task; `(A)`–`(Z)` and
///   the creation date for an open one (priorities `H`, `M`, `L` are `A`, `B`, `C`; a
///   letter kept in the custom field `pri` is itself; a done task's priority is `pri:X`);
/// - the title, then a `+tag` for each tag its words do not already carry;
/// - `due:`, `t:` (wait) and `rec:`; then navstack's fields todo.txt has no place for:
///   `scheduled:`, `until:`, `project:`, `depends:` (uuids joined by commas), `notes:`
///   and `ann:INSTANT:TEXT` (texts with spaces, tabs and line feeds written as `%20`,
///   `%09`, `%0A`, `%0D`, and a `%` that would read as one of these as `%25`), and
///   `navstack_parent:` (the uuid of the task it is a subtask of);
/// - the custom fields, `key:value`, their values written as notes are (but a Taskwarrior
///   series' template, ``TaskwarriorWriter/templateField``);
/// - `uuid:` when the line's text alone would not give back the task's uuid (a task
///   made in navstack, or changed since it came from todo.txt).
///
/// Dates are days in the local time zone; a due, wait, scheduled or until date that is
/// not at midnight keeps its time: `due:2026-12-01T09:30`.
public enum TodoTxtWriter {
    /// The custom field that keeps a line navstack would write otherwise, as it was (a
    /// name no todo.txt key can have: keys hold no `/`).
    public static let lineField = "todo.txt/line"

    /// The line, without `uuid:` (the reader derives the uuid from this text).
    public static func line(_ fields: DraftFields, stamps: TaskStamps, parentUUID: String?, zone: Zone) -> String {
        var words: [String] = []
        // A series' template is Taskwarrior's: todo.txt has `rec:` and no templates.
        var custom = fields.custom.filter { $0.name != lineField && $0.name != TaskwarriorWriter.templateField }
        let letter = priorityLetter(fields.priority, &custom)
        func day(_ instant: Instant?) -> String? { instant.map { zone.local($0).date.isoText } }
        // What the title's first word could be read as, after what comes before it.
        let start: LineStart
        if fields.done {
            words.append("x")
            start = stamps.completed != nil && stamps.created != nil ? [] : [.date]
            if let completed = day(stamps.completed) {
                words.append(completed)
                if let created = day(stamps.created) { words.append(created) }
            }
        } else {
            if let letter { words.append("(\(letter))") }
            start = stamps.created != nil ? [] : letter != nil ? [.date] : LineStart.lineStart
            if let created = day(stamps.created) { words.append(created) }
        }
        words.append(escapedTitle(fields.title, start: start, tags: fields.tags))
        let titleWords = Set(
            fields.title.split(separator: " ").filter { $0.first == "+" || $0.first == "@" }.map { $0.dropFirst().lowercased() })
        for tag in fields.tags where !titleWords.contains(tag.lowercased()) { words.append("+" + tag) }
        func date(_ key: String, _ instant: Instant?) {
            if let instant { words.append(key + ":" + zone.local(instant).dateTime.shortISOText) }
        }
        date("due", fields.due)
        date("t", fields.wait)
        if let recur = fields.recur { words.append("rec:" + recur) }
        date("scheduled", fields.scheduled)
        date("until", fields.until)
        if let project = fields.project { words.append("project:" + project) }
        if !fields.depends.isEmpty { words.append("depends:" + fields.depends.joined(separator: ",")) }
        if !fields.notes.isEmpty { words.append("notes:" + encoded(fields.notes)) }
        for annotation in fields.annotations { words.append("ann:" + annotation.entry.compactISO8601 + ":" + encoded(annotation.text)) }
        if let parentUUID { words.append(TaskwarriorWriter.parentAttribute + ":" + parentUUID) }
        if fields.done, let letter { words.append("pri:" + String(letter)) }
        for field in custom { words.append(field.name + ":" + encoded(field.value)) }
        return words.joined(separator: " ")
    }

    /// The line `export --to todotxt` writes for a task: the line it came from when it
    /// still holds what that line says, else the line navstack writes for it; with
    /// `uuid:` when the line alone would not give its uuid back. `seen` counts the lines
    /// written so far, as the reader counts them.
    static func exportedLine(_ task: TaskItem, parentUUID: String?, zone: Zone, seen: inout [String: Int]) -> String {
        var written = Self.line(task.fields, stamps: task.stamps, parentUUID: parentUUID, zone: zone)
        // The line the reader derives the uuid from.
        var canonical = written
        if let kept = task.custom.first(where: { $0.name == lineField })?.value,
            let was = try? TodoTxtReader.parse(kept, zone: zone), was.uuid ?? task.uuid == task.uuid
        {
            // The dates the line did not give are the store's own: the line still says
            // what the task holds when the task, without them, is the line's.
            var stamps = task.stamps
            if was.stamps.created == nil { stamps.created = nil }
            if was.stamps.completed == nil { stamps.completed = nil }
            let wasLine = Self.line(was.fields, stamps: was.stamps, parentUUID: was.parentUUID, zone: zone)
            if wasLine == Self.line(task.fields, stamps: stamps, parentUUID: parentUUID, zone: zone) {
                if was.uuid != nil { return kept }
                written = kept
                canonical = wasLine
            }
        }
        // The uuid is written only when the line alone would not give it back; the reader
        // counts only the lines without one.
        let occurrence = seen[canonical, default: 0]
        guard TodoTxtReader.derivedUUID(canonical, occurrence: occurrence) == task.uuid else { return written + " uuid:" + task.uuid }
        seen[canonical] = occurrence + 1
        return written
    }

    /// todo.txt's letter for the task's priority (taking a kept letter out of `custom`).
    private static func priorityLetter(_ priority: Priority?, _ custom: inout [CustomField]) -> Character? {
        switch priority {
        case .high?: return "A"
        case .medium?: return "B"
        case .low?: return "C"
        case nil:
            guard let index = custom.firstIndex(where: { $0.name == "pri" && $0.value.count == 1 }),
                let letter = custom[index].value.first, ("A"..."Z").contains(letter)
            else { return nil }
            custom.remove(at: index)
            return letter
        }
    }

    /// The escapes a todo.txt word carries for what it cannot hold.
    private static let escapes: [(code: String, scalar: Unicode.Scalar)] = [
        ("20", " "), ("25", "%"), ("09", "\t"), ("0A", "\n"), ("0D", "\r"),
    ]

    /// A text as one todo.txt word: spaces, tabs, line feeds and carriage returns as
    /// `%20`, `%09`, `%0A`, `%0D`; a `%` as `%25` only where it would read as one of these,
    /// so a word that never needed them (`100%`) stays as it was.
    static func encoded(_ text: String) -> String {
        var out = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case " ", "\t", "\n", "\r":
                out += "%" + escapes.first { $0.scalar == scalar }!.code
            case "%" where escapes.contains { scalars.starts(with: $0.code.unicodeScalars) }:
                out += "%25"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A word's text as ``encoded(_:)`` wrote it.
    static func decoded(_ word: String) -> String {
        guard word.contains("%") else { return word }
        var out = ""
        var scalars = word.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "%", let escape = escapes.first(where: { scalars.starts(with: $0.code.unicodeScalars) }) {
                out.unicodeScalars.append(escape.scalar)
                scalars = scalars.dropFirst(2)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Another program's format navstack writes and reads: Taskwarrior's `task export`, or
/// todo.txt.
public enum ForeignFormat: String, CaseIterable, Sendable {
    case taskwarrior, todotxt
}

extension SQLiteStore {
    /// Writes the profile's tasks in `format`, in list order (each task's subtasks after
    /// it): for Taskwarrior a JSON array, one record a line; for todo.txt a line a task.
    public func exportTasks(to format: ForeignFormat, user: String, clock: TaskClock, write: (String) throws -> Void) throws {
        let now = clock.now()
        var first = true
        var seen: [String: Int] = [:]
        var templates: Set<String> = []
        if format == .taskwarrior { try write("[") }
        try everyTask(user: user) { task, parentUUID in
            switch format {
            case .taskwarrior:
                let records = try TaskwarriorWriter.records(of: task, parentUUID: parentUUID, now: now, written: &templates) { uuid in
                    try holds(uuid: Self.nextInstanceUUID(after: uuid), user: user)
                }
                for record in records {
                    try write((first ? "\n" : ",\n") + record)
                    first = false
                }
            case .todotxt:
                try write(TodoTxtWriter.exportedLine(task, parentUUID: parentUUID, zone: clock.zone, seen: &seen) + "\n")
            }
        }
        if format == .taskwarrior { try write(first ? "]\n" : "\n]\n") }
    }
}
