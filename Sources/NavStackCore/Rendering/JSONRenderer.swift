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
            json.key("filter"); json.string(page.filter.rawValue)
            json.key("search"); json.string(page.search)
            json.key("page"); json.number(page.page)
            json.key("pages"); json.number(page.pages)
        case .detail(let task, let subtasks):
            json.key("task")
            json.object { taskMembers(task, into: &$0) }
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
            }
            json.key("canSave"); json.bool(draft.canSave)
            json.key("dirty"); json.bool(draft.isDirty)
            json.key("conflicts")
            json.array(conflicts) { json, conflict in
                json.object { json in
                    json.key("field"); json.string(conflict.field.rawValue)
                    json.key("base"); value(conflict.base, into: &json)
                    json.key("mine"); value(conflict.mine, into: &json)
                    json.key("theirs"); value(conflict.theirs, into: &json)
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
        }
    }

    private func value(_ value: FieldValue, into json: inout JSONWriter) {
        switch value {
        case .text(let text): json.string(text)
        case .flag(let flag): json.bool(flag)
        }
    }

    /// `"items": [{"row": N, …task}]`
    private func rows(_ page: ListPage, into json: inout JSONWriter) {
        json.key("items")
        json.array(page.rows) { json, row in
            json.object { json in
                json.key("row"); json.number(row.row)
                taskMembers(row.task, into: &json)
            }
        }
    }

    private func taskMembers(_ task: TaskItem, into json: inout JSONWriter) {
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
    }
}
