import NavStackCore
import NavStackSync
import NavStackTime

/// A task as the store keeps it: with its position in the list.
struct StoredTask: Equatable {
    var id: Int?
    var position: Int
    var uuid: String
    var rev = 1
    var fields: DraftFields
    /// The task it is a subtask of; 0 at the top of the list.
    var parent = 0
    /// Its subtasks as last counted (kept by the store, never written from here).
    var subtasks = SubtaskCounts()
    /// When it was made, changed and done (set by the store as it writes).
    var stamps = TaskStamps()

    init(id: Int?, position: Int, uuid: String, _ fields: DraftFields) {
        self.id = id
        self.position = position
        self.uuid = uuid
        self.fields = fields
    }

    var item: TaskItem {
        TaskItem(id: id ?? 0, uuid: uuid, fields: fields, parent: parent == 0 ? nil : parent, subtasks: subtasks, stamps: stamps)
    }

    var json: String {
        var writer = JSONWriter()
        // A task's JSON is a few hundred bytes: one buffer, not several grown.
        writer.reserveCapacity(512)
        write(to: &writer)
        return writer.text
    }

    /// `{"id","position","uuid","rev","title","notes","done","parent"}` (`parent` only
    /// for a subtask).
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("id")
            if let id { json.number(id) } else { json.string(nil) }
            json.key("position"); json.number(position)
            json.key("uuid"); json.string(uuid)
            json.key("rev"); json.number(rev)
            json.key("title"); json.string(fields.title)
            json.key("notes"); json.string(fields.notes)
            json.key("done"); json.bool(fields.done)
            if parent != 0 { json.key("parent"); json.number(parent) }
            fields.writeSetAttributes(to: &json)
            if let created = stamps.created { json.key("created"); json.string(created.iso8601) }
            if let modified = stamps.modified { json.key("modified"); json.string(modified.iso8601) }
            if let completed = stamps.completed { json.key("completed"); json.string(completed.iso8601) }
        }
    }

    /// Reads ``write(to:)``'s JSON back; a record written before tasks had uuids has
    /// none (`""`) and revision 1.
    init?(json value: JSONValue) {
        guard let id = value["id"]?.number, let position = value["position"]?.number, let title = value["title"]?.string,
            let notes = value["notes"]?.string, let done = value["done"]?.bool
        else { return nil }
        self.init(id: id, position: position, uuid: value["uuid"]?.string ?? "", DraftFields(title: title, notes: notes, done: done))
        rev = value["rev"]?.number ?? 1
        parent = value["parent"]?.number ?? 0
        guard fields.readSetAttributes(from: value) else { return nil }
        stamps = TaskStamps(
            created: value["created"]?.string.flatMap(Instant.init(iso8601:)),
            modified: value["modified"]?.string.flatMap(Instant.init(iso8601:)),
            completed: value["completed"]?.string.flatMap(Instant.init(iso8601:)))
    }
}
