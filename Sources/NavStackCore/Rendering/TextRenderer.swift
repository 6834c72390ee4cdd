/// Renders responses as text screens no wider than `width` columns.
///
/// A screen is: its title; where you are (breadcrumb and URL); a rule; the content; a
/// rule; the actions available here; a blank line. User text is escaped, so control
/// characters never reach the terminal. The same response gives the same bytes.
public struct TextRenderer: Sendable {
    public var width: Int

    /// The narrowest width a screen is laid out for.
    public static let minimumWidth = 20

    public init(width: Int) {
        self.width = max(Self.minimumWidth, width)
    }

    public func render(_ response: Response, to out: inout some TextOutputStream) {
        var lines = Lines(width: width)
        switch response {
        case .screen(let screen):
            screenLines(screen, into: &lines)
        case .help(let entries, let details):
            helpLines(entries, details: details, into: &lines)
        case .location(let url, let breadcrumb):
            lines.add(breadcrumb.map(\.escapedForDisplay).joined(separator: " › "))
            lines.add(url ?? "signed out")
        case .quit:
            return
        }
        lines.blank()
        out.write(lines.text)
    }

    private func screenLines(_ screen: Screen, into lines: inout Lines) {
        lines.add(screen.title.escapedForDisplay)
        let place = screen.breadcrumb.map(\.escapedForDisplay).joined(separator: " › ")
        if let link = screen.link {
            let url = link.url
            let room = width - url.displayWidth - 3
            lines.add(room >= 8 ? place.truncated(toWidth: room) + " · " + url : url)
        } else {
            lines.add("signed out")
        }
        lines.rule()
        switch screen.content {
        case .login(let pending):
            lines.wrap("Sign in with your name to see your tasks. A new name starts a new profile.")
            if let pending { lines.field("Opens", pending.url, labelWidth: 6) }
        case .list(let page):
            listLines(page, into: &lines)
        case .detail(let task):
            lines.field("Title", task.title.escapedForDisplay)
            lines.field("Notes", task.notes.isEmpty ? "—" : task.notes.escapedForDisplay)
            lines.field("Done", task.done ? "yes" : "no")
        case .draft(let draft):
            lines.field("Title", draft.fields.title.isBlank ? "(blank)" : draft.fields.title.escapedForDisplay)
            lines.field("Notes", draft.fields.notes.isEmpty ? "—" : draft.fields.notes.escapedForDisplay)
            lines.field("Done", draft.fields.done ? "on" : "off")
            lines.blank()
            if !draft.canSave {
                lines.wrap("Save is disabled until the title is set.")
            } else {
                lines.wrap(draft.isDirty ? "Unsaved changes." : "No changes yet.")
            }
        case .notFound(let id):
            lines.wrap("Task \(id) does not exist: it may have been deleted.")
        case .account(let user, let counts):
            lines.field("User", user.escapedForDisplay)
            lines.field("Tasks", "\(counts.open) open, \(counts.done) done")
        case .settings(let info):
            lines.field("Page size", "\(info.pageSize) rows", labelWidth: 10)
            lines.field("Store", info.store, labelWidth: 10)
            lines.field("Language", info.language, labelWidth: 10)
        case .about(let version):
            lines.add("navstack \(version)")
            lines.blank()
            lines.wrap("A task app whose every screen lives on a navigation path: open pushes, "
                + "back pops, tabs keep their own stacks, a sheet floats above the path, and "
                + "every screen has a navstack:// link that rebuilds it.")
        }
        lines.rule()
        actionLines(screen, into: &lines)
    }

    private func listLines(_ page: ListPage, into lines: inout Lines) {
        var status = page.total == 1 ? "1 task" : "\(page.total) tasks"
        if page.filter != .all { status += " · \(page.filter.rawValue)" }
        if let search = page.search { status += " · find \"\(search.escapedForDisplay)\"" }
        status += " · page \(page.page) of \(page.pages)"
        lines.add(status)
        lines.blank()
        if page.rows.isEmpty {
            lines.add(page.filter == .all && page.search == nil ? "No tasks yet: add one with add TITLE or new." : "No tasks match.")
            return
        }
        let numberWidth = max(2, String(page.rows.last!.row).count)
        for row in page.rows {
            let number = String(row.row)
            let mark = row.task.done ? "[x]" : "[ ]"
            lines.add(String(repeating: " ", count: numberWidth - number.count) + number + "  " + mark + " "
                + row.task.title.escapedForDisplay)
        }
    }

    /// The screen's own actions, then the ones available anywhere.
    private func actionLines(_ screen: Screen, into lines: inout Lines) {
        let canSave: Bool
        if case .draft(let draft) = screen.content { canSave = draft.canSave } else { canSave = true }
        let own = Set(screen.kind.ownWords + [.backDiscarding])
        func shown(_ word: CommandWord) -> String? {
            switch word {
            case .exit: nil
            case .toggle, .delete: screen.kind == .list ? "\(word.rawValue) N" : word.rawValue
            case .back: "back [N]"
            case .backDiscarding: "back!"
            case .help: "help"
            case .save where !canSave: "save (disabled)"
            default: word.usage
            }
        }
        let screenActions = screen.actions.filter(own.contains).compactMap(shown)
        let anywhere = screen.actions.filter { !own.contains($0) }.compactMap(shown)
        if !screenActions.isEmpty { lines.flow(screenActions, prefix: "Actions: ", separator: " · ") }
        lines.flow(anywhere, prefix: screenActions.isEmpty ? "Actions: " : "Also:    ", separator: " · ")
    }

    private func helpLines(_ entries: [HelpEntry], details: [String], into lines: inout Lines) {
        if details.isEmpty {
            let column = min(entries.map(\.command.displayWidth).max() ?? 0, width / 2) + 2
            lines.add("Commands here:")
            for entry in entries {
                lines.add("  " + entry.command.padded(toWidth: column) + entry.summary)
            }
            lines.add("help COMMAND tells more about one.")
        } else {
            for entry in entries {
                lines.add(entry.command)
                lines.wrap(entry.summary, indent: 2)
            }
            for detail in details { lines.wrap(detail, indent: 2) }
        }
    }
}

/// Lines of a text screen, each cut to the width.
struct Lines {
    let width: Int
    private(set) var text = ""

    init(width: Int) {
        self.width = width
    }

    mutating func add(_ line: String) {
        text += line.truncated(toWidth: width)
        text += "\n"
    }

    mutating func blank() {
        text += "\n"
    }

    mutating func rule() {
        text += String(repeating: "─", count: width)
        text += "\n"
    }

    /// Text wrapped to the width, each line indented.
    mutating func wrap(_ paragraph: String, indent: Int = 0) {
        let pad = String(repeating: " ", count: indent)
        for line in paragraph.wrapped(toWidth: width - indent) { add(pad + line) }
    }

    /// `Label:  value`, the value wrapped under itself.
    mutating func field(_ label: String, _ value: String, labelWidth: Int = 6) {
        let head = (label + ":").padded(toWidth: labelWidth + 2)
        let indent = head.displayWidth
        let room = width - indent
        guard room >= 8 else {
            add(label + ":")
            wrap(value, indent: 2)
            return
        }
        let pad = String(repeating: " ", count: indent)
        for (index, line) in value.wrapped(toWidth: room).enumerated() {
            add((index == 0 ? head : pad) + line)
        }
    }

    /// Items joined by a separator, flowing onto more lines under the first.
    mutating func flow(_ items: [String], prefix: String, separator: String) {
        let pad = String(repeating: " ", count: prefix.displayWidth)
        var line = prefix
        var empty = true
        for item in items {
            let piece = empty ? item : separator + item
            if !empty, (line + piece).displayWidth > width {
                add(line)
                line = pad + item
            } else {
                line += piece
            }
            empty = false
        }
        add(line)
    }
}
