import NavStackCore
import NavStackTime

/// Writes tasks as `task import` takes them: one JSON object a line, in an array, with
/// Taskwarrior's attribute names and date form, so that a Taskwarrior export imported into
/// navstack and written back gives Taskwarrior the same tasks.
///
/// - Statuses: a done task is `completed`; an open one `waiting` while its `wait` is ahead,
///   else `pending`.
/// - Custom fields go back as the attributes they came from, with their text (Taskwarrior
///   reads a numeric UDA's text as its number). Tags Taskwarrior had that navstack's rules
///   do not take (kept in the custom field `tags`) join the tags again.
/// - A series' template, kept whole in the custom field ``templateField`` of one of its
///   instances (the open one, else the last), is written back once, before the first
///   instance that keeps it, when it is a template of that instance's series (a record
///   of status `recurring` whose uuid is the instance's `parent`); not when navstack has
///   carried the series on from a done instance (it holds the instance after it), whose
///   next instance gets a template of its own. A series whose open instance was made in
///   navstack (no template kept) gets a template made from it: the instance's fields,
///   status `recurring`, and a uuid derived from the instance's.
/// - navstack's own fields that Taskwarrior lacks travel as attributes of their own:
///   `navstack_notes` (the notes) and `navstack_parent` (the uuid of the task it is a
///   subtask of). ``TaskwarriorReader`` reads both back.
public enum TaskwarriorWriter {
    /// The custom field that keeps a series' template whole, as Taskwarrior had it: a name
    /// of navstack's own, which a record of another program cannot give
    /// (``TaskwarriorReader`` refuses it), so a user's attribute `template` stays theirs.
    public static let templateField = "taskwarrior/template"
    /// The attributes that carry navstack's notes and subtask links.
    public static let notesAttribute = "navstack_notes"
    public static let parentAttribute = "navstack_parent"

    /// A task's record (or, for an instance of a series, its template's record and then
    /// its own), each a line of JSON without a trailing comma. `written` holds the uuids of
    /// the templates written so far; `carriedOn` says whether the store holds the instance
    /// navstack made after a done one.
    public static func records(
        of task: TaskItem, parentUUID: String?, now: Instant, written: inout Set<String>, carriedOn: (String) throws -> Bool
    ) rethrows -> [String] {
        var lines: [String] = []
        // A todo.txt line kept whole says nothing the fields do not: not Taskwarrior's.
        var instance = task.custom.filter { $0.name != TodoTxtWriter.lineField }
        var template: JSONValue?
        if let index = instance.firstIndex(where: { $0.name == templateField }) {
            let kept = instance.remove(at: index)
            if let value = keptTemplate(kept.value, of: instance), let uuid = value["uuid"]?.string, !written.contains(uuid),
                try !task.done || !carriedOn(task.uuid)
            {
                written.insert(uuid)
                template = value
            }
        }
        if !task.done, task.recur != nil, template == nil, !instance.contains(where: { $0.name == "parent" }) {
            // A series begun (or carried on) in navstack: a template Taskwarrior will read.
            let uuid = SQLiteStore.nameUUID("taskwarrior template\n\(task.uuid)")
            var json = JSONWriter()
            json.object { json in
                write(task, status: "recurring", uuid: uuid, custom: [], parentUUID: nil, into: &json)
                json.key("mask")
                json.string("-")
                json.key("rtype")
                json.string("periodic")
            }
            lines.append(json.text)
            instance.append(contentsOf: [
                CustomField(name: "parent", value: uuid), CustomField(name: "imask", value: "0"),
                CustomField(name: "rtype", value: "periodic"),
            ])
        } else if let template {
            var json = JSONWriter()
            template.write(to: &json)
            lines.append(json.text)
        }
        let status = task.done ? "completed" : task.isWaiting(at: now) ? "waiting" : "pending"
        var json = JSONWriter()
        json.object { json in
            write(task, status: status, uuid: task.uuid, custom: instance, parentUUID: parentUUID, into: &json)
        }
        lines.append(json.text)
        return lines
    }

    /// A kept template as the record it is, when it is a template of the series of an
    /// instance with these custom fields: an object of status `recurring` whose uuid is
    /// the instance's `parent`.
    static func keptTemplate(_ text: String, of custom: [CustomField]) -> JSONValue? {
        guard let value = try? JSONValue.parse(foreign: text), case .object = value, value["status"]?.string == "recurring",
            let uuid = value["uuid"]?.string, uuid.isUUID,
            custom.contains(where: { $0.name == "parent" && $0.value.lowercased() == uuid.lowercased() })
        else { return nil }
        return value
    }

    /// Every attribute of `task` but its status-dependent extras, under `uuid`.
    private static func write(
        _ task: TaskItem, status: String, uuid: String, custom: [CustomField], parentUUID: String?, into json: inout JSONWriter
    ) {
        func date(_ key: String, _ instant: Instant?) {
            guard let instant else { return }
            json.key(key)
            json.string(instant.compactISO8601)
        }
        json.key("uuid")
        json.string(uuid)
        json.key("description")
        json.string(task.title)
        json.key("status")
        json.string(status)
        date("entry", task.stamps.created)
        date("modified", task.stamps.modified)
        if task.done { date("end", task.stamps.completed) }
        date("due", task.due)
        date("scheduled", task.scheduled)
        date("wait", task.wait)
        date("until", task.until)
        if let recur = task.recur {
            json.key("recur")
            json.string(recur)
        }
        if let priority = task.priority {
            json.key("priority")
            json.string(priority.rawValue)
        }
        if let project = task.project {
            json.key("project")
            json.string(project)
        }
        var tags = task.tags
        var others = custom
        if let index = others.firstIndex(where: { $0.name == "tags" }) {
            tags += others.remove(at: index).value.split(separator: ",").map(String.init)
        }
        if !tags.isEmpty {
            json.key("tags")
            json.strings(tags)
        }
        if !task.annotations.isEmpty {
            json.key("annotations")
            json.array(task.annotations) { json, annotation in
                json.object { json in
                    json.key("entry")
                    json.string(annotation.entry.compactISO8601)
                    json.key("description")
                    json.string(annotation.text)
                }
            }
        }
        if !task.depends.isEmpty {
            json.key("depends")
            json.strings(task.depends)
        }
        if !task.notes.isEmpty {
            json.key(notesAttribute)
            json.string(task.notes)
        }
        if let parentUUID {
            json.key(parentAttribute)
            json.string(parentUUID)
        }
        for field in others {
            json.key(field.name)
            json.string(field.value)
        }
    }
}

extension SQLiteStore {
    /// Whether the profile holds a task of this uuid.
    func holds(uuid: String, user: String) throws -> Bool {
        try reading { db in try Self.stored(db, user, uuid: uuid) != nil }
    }

    /// The profile's tasks in list order (each task's subtasks after it), each with the
    /// uuid of the task it is a subtask of.
    public func everyTask(user: String, _ body: (TaskItem, _ parentUUID: String?) throws -> Void) throws {
        try snapshot {
            try reading { db in
                let query = "SELECT \(Self.columns) FROM task WHERE profile_id = \(Self.profileID) AND parent = ? ORDER BY position, uuid"
                var levels: [Statement] = []
                func tasks(under parent: Int, uuid: String?, level: Int) throws {
                    if levels.count == level { levels.append(try db.prepare(query)) }
                    try levels[level].each([user, parent]) { row in
                        let task = Self.task(row)
                        try body(task, uuid)
                        if task.subtasks.total > 0 { try tasks(under: task.id, uuid: task.uuid, level: level + 1) }
                    }
                }
                try tasks(under: 0, uuid: nil, level: 0)
            }
        }
    }
}
