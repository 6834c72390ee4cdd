import NavStackTime

/// Renders responses as JSON Lines: one compact object per response, keys in the
/// order the spec lists them.
public struct JSONRenderer: Sendable {
    public init() {}

    public func render(_ response: Response, to out: inout some TextOutputStream) {
        var bytes: [UInt8] = []
        render(response, into: &bytes)
        if !bytes.isEmpty { out.write(String(decoding: bytes, as: UTF8.self)) }
    }

    /// Appends the response's JSON line, as UTF-8, to `bytes`.
    public func render(_ response: Response, into bytes: inout [UInt8]) {
        var json = JSONWriter()
        switch response {
        case .screen(let screen):
            json.object { screenMembers(screen, into: &$0) }
        case .help(let entries, _):
            json.object { json in
                json.key("help")
                json.array(entries) { json, entry in
                    json.object { json in
                        json.key("command"); json.string(entry.command)
                        json.key("summary"); json.string(entry.summary)
                    }
                }
            }
        case .location(let url, let breadcrumb):
            json.object { json in
                json.key("url"); json.string(url)
                json.key("breadcrumb"); json.strings(breadcrumb)
            }
        case .quit:
            return
        }
        bytes.append(contentsOf: json.bytes)
        bytes.append(0x0A)
    }

    /// `{"error": {"message": …, "line": N}}`
    public func renderError(_ message: String, line: Int, to out: inout some TextOutputStream) {
        out.write("{\"error\":{\"message\":" + message.jsonQuoted + ",\"line\":\(line)}}\n")
    }

    private func screenMembers(_ screen: Screen, into json: inout JSONWriter) {
        json.key("screen"); json.string(screen.kind.rawValue)
        json.key("title"); json.string(screen.title)
        json.key("tab"); json.string(screen.tab?.rawValue)
        json.key("path"); json.strings(screen.path.map(\.description))
        json.key("sheet"); json.string(screen.sheet?.rawValue)
        json.key("url"); json.string(screen.link?.url)
        json.key("actions"); json.strings(screen.actions.map(\.rawValue))
        switch screen.content {
        case .login(let pending):
            json.key("pending"); json.string(pending?.url)
        case .list(let page):
            rows(page, into: &json)
            json.key("total"); json.number(page.total)
            json.key("filter"); json.string(page.filter.word)
            // `tag`, the one tag a filter took before several did, stays for what reads it.
            json.key("tag"); json.string(page.terms.tags.first)
            json.key("tags"); json.strings(page.terms.tags)
            json.key("withoutTags"); json.strings(page.terms.withoutTags)
            json.key("project"); json.string(page.terms.project)
            json.key("priority"); json.string(page.terms.priority?.rawValue)
            json.key("due"); json.string(page.terms.dueWord)
            json.key("dueBefore"); json.string(page.terms.dueBefore)
            json.key("dueAfter"); json.string(page.terms.dueAfter)
            json.key("search"); json.string(page.search)
            json.key("sort"); json.string(page.sort?.word)
            json.key("page"); json.number(page.page)
            json.key("pages"); json.number(page.pages)
        case .detail(let task, let subtasks):
            json.key("task")
            json.object { taskMembers(task, into: &$0, whole: true) }
            rows(subtasks, into: &json)
            json.key("total"); json.number(subtasks.total)
            json.key("page"); json.number(subtasks.page)
            json.key("pages"); json.number(subtasks.pages)
        case .confirm(let task, let count, let message):
            json.key("message"); json.string(message)
            json.key("task")
            json.object { taskMembers(task, into: &$0) }
            json.key("subtasks"); json.number(count)
        case .draft(let draft, let conflicts, let deleted):
            json.key("draft")
            json.object { json in
                json.key("title"); json.string(draft.fields.title)
                json.key("notes"); json.string(draft.fields.notes)
                json.key("done"); json.bool(draft.fields.done)
                attributeMembers(draft.fields, into: &json)
            }
            json.key("canSave"); json.bool(draft.canSave)
            json.key("dirty"); json.bool(draft.isDirty)
            json.key("conflicts")
            json.array(conflicts) { json, conflict in
                json.object { json in
                    json.key("field"); json.string(conflict.field.rawValue)
                    json.key("base"); conflict.base.write(to: &json)
                    json.key("mine"); conflict.mine.write(to: &json)
                    json.key("theirs"); conflict.theirs.write(to: &json)
                }
            }
            json.key("deleted"); json.bool(deleted)
        case .notFound(let id):
            json.key("id"); json.number(id)
        case .account(let user, let counts):
            json.key("user"); json.string(user)
            json.key("open"); json.number(counts.open)
            json.key("done"); json.number(counts.done)
        case .settings(let info):
            json.key("pageSize"); json.number(info.pageSize)
            json.key("store"); json.string(info.store)
            json.key("language"); json.string(info.language)
        case .about(let version):
            json.key("version"); json.string(version)
        case .agenda(let agenda):
            json.key("sections")
            json.array(agenda.sections) { json, section in
                json.object { json in
                    json.key("label"); json.string(section.label.key)
                    rows(section.rows, into: &json)
                }
            }
            json.key("page"); json.number(agenda.page)
            json.key("more"); json.bool(agenda.more)
        case .day(let date, let page):
            json.key("date"); json.string(date.isoText)
            rows(page, into: &json)
            json.key("total"); json.number(page.total)
            json.key("page"); json.number(page.page)
            json.key("pages"); json.number(page.pages)
        }
    }

    /// `"items": [{"row": N, …task}]`
    private func rows(_ page: ListPage, into json: inout JSONWriter) {
        rows(page.rows, into: &json)
    }

    private func rows(_ rows: [ListRow], into json: inout JSONWriter) {
        json.key("items")
        json.array(rows) { json, row in
            json.object { json in
                json.key("row"); json.number(row.row)
                taskMembers(row.task, into: &json)
            }
        }
    }

    private func taskMembers(_ task: TaskItem, into json: inout JSONWriter, whole: Bool = false) {
        TaskJSON.members(of: task, into: &json, whole: whole)
    }

    /// The fields a draft edits beyond the title, the notes and `done`.
    private func attributeMembers(_ fields: DraftFields, into json: inout JSONWriter) {
        TaskJSON.draftAttributes(fields, into: &json)
    }
}

/// The members every task object gains beyond navstack's first fields, as screens and
/// exports write them: dates in UTC (`"2026-12-01T00:00:00Z"`) or null.
public enum TaskJSON {
    /// A task's members; `whole` adds its lists (annotations, dependencies, custom
    /// fields), which the detail shows and list rows leave out.
    public static func members(of task: TaskItem, into json: inout JSONWriter, whole: Bool = false) {
        json.key("id"); json.number(task.id)
        json.key("uuid"); json.string(task.uuid)
        json.key("title"); json.string(task.title)
        json.key("notes"); json.string(task.notes)
        json.key("done"); json.bool(task.done)
        json.key("parent")
        if let parent = task.parent { json.number(parent) } else { json.string(nil) }
        json.key("subtasks")
        json.object { json in
            json.key("done"); json.number(task.subtasks.done)
            json.key("total"); json.number(task.subtasks.total)
        }
        attributes(of: task, into: &json, whole: whole)
    }

    /// `due`, `scheduled`, `wait`, `until`, `priority`, `project`, `recur`, `tags`.
    public static func draftAttributes(_ fields: DraftFields, into json: inout JSONWriter) {
        json.key("due"); json.string(fields.due?.iso8601)
        json.key("scheduled"); json.string(fields.scheduled?.iso8601)
        json.key("wait"); json.string(fields.wait?.iso8601)
        json.key("until"); json.string(fields.until?.iso8601)
        json.key("priority"); json.string(fields.priority?.rawValue)
        json.key("project"); json.string(fields.project)
        json.key("recur"); json.string(fields.recur)
        json.key("tags"); json.strings(fields.tags)
    }

    /// The draft's attributes, the stamps, and with `whole` the lists.
    public static func attributes(of task: TaskItem, into json: inout JSONWriter, whole: Bool) {
        let fields = task.fields
        draftAttributes(fields, into: &json)
        json.key("created"); json.string(task.stamps.created?.iso8601)
        json.key("modified"); json.string(task.stamps.modified?.iso8601)
        json.key("completed"); json.string(task.stamps.completed?.iso8601)
        guard whole else { return }
        json.key("annotations"); FieldValue.annotations(fields.annotations).write(to: &json)
        json.key("depends"); json.strings(fields.depends)
        json.key("fields"); FieldValue.custom(fields.custom).write(to: &json)
    }
}
