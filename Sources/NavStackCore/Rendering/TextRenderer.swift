import NavStackBytes
import NavStackTime

/// How text is emphasised: not at all, or with ANSI escape sequences for a terminal.
public enum TextStyle: Sendable {
    case plain
    case ansi

    /// The emphases a screen uses.
    public enum Emphasis: Sendable {
        case title, dim, error

        var code: String {
            switch self {
            case .title: "\u{1B}[1m"
            case .dim: "\u{1B}[2m"
            case .error: "\u{1B}[31m"
            }
        }
    }

    /// The text with the emphasis, when this style shows any.
    public func apply(_ emphasis: Emphasis?, to text: String) -> String {
        // Plain text has no codes to put around it.
        guard let emphasis, !text.isEmpty, self == .ansi else { return text }
        let (start, end) = codes(for: emphasis)
        return start + text + end
    }

    /// What starts and ends the emphasis in this style ("" in plain text).
    public func codes(for emphasis: Emphasis) -> (start: String, end: String) {
        self == .ansi ? (emphasis.code, "\u{1B}[0m") : ("", "")
    }
}

/// Renders responses as text screens no wider than `width` columns.
///
/// A screen is: its title; where you are (breadcrumb and URL); a rule; the content; a
/// rule; the actions available here; a blank line. User text is escaped, so control
/// characters never reach the terminal. The same response gives the same bytes.
public struct TextRenderer {
    public let width: Int
    public let style: TextStyle
    /// The zone dates are shown in.
    public let zone: Zone
    /// What is laid out once for the width and the language, in one box: a renderer is
    /// copied each screen it draws.
    private let laidOut: LaidOut

    public var catalog: Catalog { laidOut.catalog }
    /// A rule across the width.
    private var rule: String { laidOut.rule }
    /// The action lines of the screens shown so far: a screen's actions change with few
    /// things, and the same few screens come back again and again.
    private var actionsShown: Memo<ActionsKey, [UInt8]> { laidOut.actionsShown }
    /// A task's three fields as its screens show them (`Title:  `, `Notes:  `, `Done:   `):
    /// the labels padded alike, laid out once.
    private var taskFields: FieldHeads { laidOut.taskFields }

    private final class LaidOut {
        let catalog: Catalog
        let rule: String
        let actionsShown: Memo<ActionsKey, [UInt8]>
        let taskFields: FieldHeads

        init(width: Int, catalog: Catalog, memoizes: Bool) {
            self.catalog = catalog
            actionsShown = Memo(capacity: memoizes ? 32 : 0)
            rule = String(repeating: "─", count: width)
            taskFields = FieldHeads([catalog(.labelTitle), catalog(.labelNotes), catalog(.labelDone)])
        }
    }

    /// The narrowest width a screen is laid out for.
    public static let minimumWidth = 20

    /// A renderer for `width` columns; with `memoizes` off it lays out every screen's
    /// actions anew (the tests compare output with and without what is kept).
    public init(width: Int, catalog: Catalog = .english, style: TextStyle = .plain, memoizes: Bool = true, zone: Zone = .utc) {
        self.width = max(Self.minimumWidth, width)
        self.style = style
        self.zone = zone
        laidOut = LaidOut(width: self.width, catalog: catalog, memoizes: memoizes)
    }

    public func render(_ response: Response, to out: inout some TextOutputStream) {
        var bytes: [UInt8] = []
        render(response, into: &bytes)
        if !bytes.isEmpty { out.write(String(decoding: bytes, as: UTF8.self)) }
    }

    /// Appends the response's text, as UTF-8, to `bytes`.
    public func render(_ response: Response, into bytes: inout [UInt8]) {
        printed(response).withBytes { bytes.append(contentsOf: $0) }
    }

    /// The response's text, as UTF-8, in memory of its own.
    func printed(_ response: Response) -> PrintedBytes {
        var lines = Lines(width: width, style: style, rule: rule)
        write(response, into: &lines)
        return lines.finished()
    }

    private func write(_ response: Response, into lines: inout Lines) {
        switch response {
        case .screen(let screen):
            screenLines(screen, into: &lines)
        case .help(let entries, let details):
            helpLines(entries, details: details, into: &lines)
        case .location(let url, let breadcrumb):
            lines.add(Self.breadcrumb(breadcrumb, fitting: width))
            // Whole, however long, to be copied.
            if let url { lines.addWhole(url) } else { lines.add(catalog(.signedOut)) }
        case .quit:
            return
        }
        lines.blank()
    }

    /// How many lines the list screen takes besides its rows, at this width: what a
    /// terminal of `rows` lines leaves for rows is `rows` minus this, minus the prompt.
    public func listChromeLines(actions: [CommandWord]) -> Int {
        let page = ListPage(rows: [], total: 0, filter: .all, search: nil, page: 1, pages: 1)
        let screen = Screen(
            kind: .list, title: "", tab: .tasks, path: [], sheet: nil, breadcrumb: [],
            actions: actions, content: .list(page))
        var text = ""
        render(.screen(screen), to: &text)
        // The empty list shows one line where rows would be.
        return text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) } - 1
    }

    private func screenLines(_ screen: Screen, into lines: inout Lines) {
        let t = catalog
        if style == .plain, lines.addPlain(screen.title) {
            // The usual title: printable ASCII that fits.
        } else {
            lines.add(screen.title.escapedForDisplay, .title)
        }
        let placed =
            screen.withURLBytes { url -> Bool in
                // A URL is ASCII: a column a byte.
                let room = width - url.count - 3
                // Printable ASCII that fits, the usual line, is written as it is.
                if room < 8 || !lines.addPlace(screen.breadcrumb, url, room: room) {
                    placeLine(screen.breadcrumb, url.string, room: room, into: &lines)
                }
                return true
            } ?? false
        if !placed { lines.add(t(.signedOut)) }
        lines.rule()
        // Read where the draft is at hand: read from the screen again, it is copied.
        var canSave = true
        switch screen.content {
        case .login(let pending):
            lines.wrap(t(.loginHelp))
            if let pending { lines.fields([(t(.labelOpens), pending.url)]) }
        case .list(let page):
            listLines(page, into: &lines)
        case .detail(let task, let subtasks):
            lines.fields(taskFields, task.title, task.notes.isEmpty ? "—" : task.notes, task.done ? t(.valueYes) : t(.valueNo))
            lines.blank()
            attributeLines(task.fields, stamps: task.stamps, into: &lines)
            if subtasks.total == 0 {
                lines.wrap(t(.subtasksNone))
            } else {
                lines.wrap(
                    t(
                        .subtasksHeading, ("done", task.subtasks.done), ("total", subtasks.total),
                        ("page", subtasks.page), ("pages", subtasks.pages)))
                lines.blank()
                rowLines(subtasks.rows, into: &lines)
            }
        case .confirm(_, _, let message):
            lines.wrap(message)
        case .draft(let draft, let conflicts, let deleted):
            lines.fields(
                taskFields, draft.fields.title.isBlank ? t(.valueBlank) : draft.fields.title,
                draft.fields.notes.isEmpty ? "—" : draft.fields.notes, draft.fields.done ? t(.valueOn) : t(.valueOff))
            lines.blank()
            attributeLines(draft.fields, stamps: nil, into: &lines)
            if deleted {
                lines.wrap(t(.textDeletedElsewhere), emphasis: .error)
                lines.blank()
            } else if !conflicts.isEmpty {
                lines.add(t(.textConflictHeading), .error)
                for conflict in conflicts {
                    lines.wrap(
                        t(
                            .textConflictLine, ("field", conflict.field.rawValue), ("mine", shown(conflict.mine)),
                            ("theirs", shown(conflict.theirs)), ("base", shown(conflict.base))), indent: 2)
                }
                lines.wrap(t(.textConflictHint))
                lines.blank()
            }
            canSave = draft.canSave
            if !canSave {
                lines.wrap(t(.saveDisabled))
            } else {
                lines.wrap(draft.isDirty ? t(.unsavedChanges) : t(.noChanges))
            }
        case .notFound(let id):
            lines.wrap(t(.notFoundText, ("id", id)))
        case .account(let user, let counts):
            lines.fields([
                (t(.labelUser), user.escapedForDisplay),
                (t(.labelTasks), t(.openAndDone, ("open", counts.open), ("done", counts.done))),
            ])
        case .settings(let info):
            lines.fields([
                (t(.labelPageSize), t(.pageSizeRows, ("count", info.pageSize))),
                (t(.labelStore), info.store.escapedForDisplay),
                (t(.labelLanguage), info.language),
            ])
        case .about(let version):
            lines.add("navstack \(version)")
            lines.blank()
            lines.wrap(t(.aboutText))
        case .agenda(let agenda):
            agendaLines(agenda, into: &lines)
        case .day(_, let page):
            var status = page.total == 1 ? t(.listOneTask) : t(.listTasks, ("count", page.total))
            status += " · " + t(.listPage, ("page", page.page), ("pages", page.pages))
            lines.add(status)
            lines.blank()
            if page.rows.isEmpty { lines.wrap(t(.dayEmpty)) } else { rowLines(page.rows, into: &lines) }
        }
        lines.rule()
        actionLines(screen, canSave: canSave, into: &lines)
    }

    /// The breadcrumb and the URL on one line, the URL in the `room` it leaves: a URL
    /// too long to share the line gives it to the breadcrumb (`where` prints it whole),
    /// and the URL gives way when the screen's own crumb would be cut.
    func placeLine(_ crumbs: [String], _ url: String, room: Int, into lines: inout Lines) {
        let last = crumbs.last?.escapedForDisplay ?? ""
        let shared = Self.breadcrumb(crumbs, fitting: room)
        // Cut short, the breadcrumb ends in "…": its last crumb whole is its last bytes.
        let endsWhole = shared.utf8.count >= last.utf8.count && shared.utf8.suffix(last.utf8.count).elementsEqual(last.utf8)
        lines.add(room >= 8 && endsWhole ? shared + " · " + url : Self.breadcrumb(crumbs, fitting: width))
    }

    /// What joins the crumbs of a breadcrumb, and the columns it takes.
    static let crumbSeparator = " › "
    static let crumbSeparatorWidth = 3

    /// The columns the crumbs take joined whole, when every one is printable ASCII (a
    /// column a byte, nothing to escape): such a breadcrumb that fits is its crumbs as
    /// they are. `nil` otherwise.
    static func plainWidth(of crumbs: [String]) -> Int? {
        var width = crumbSeparatorWidth * max(0, crumbs.count - 1)
        for crumb in crumbs {
            guard crumb.isPrintableASCII else { return nil }
            width += crumb.utf8.count
        }
        return width
    }

    /// A breadcrumb in `room` columns: whole when it fits, else shortened in the middle,
    /// keeping the tab and as many of the last crumbs as fit (`My Tasks › … › Parent ›
    /// Task`), the last one cut short only when nothing else fits.
    static func breadcrumb(_ crumbs: [String], fitting room: Int) -> String {
        if let plain = plainWidth(of: crumbs), plain <= room { return crumbs.joined(separator: crumbSeparator) }
        return laidOutBreadcrumb(crumbs, fitting: room)
    }

    /// ``breadcrumb(_:fitting:)`` laid out by characters, the plain way for any crumbs.
    static func laidOutBreadcrumb(_ crumbs: [String], fitting room: Int) -> String {
        let separator = crumbSeparator
        let separatorWidth = crumbSeparatorWidth
        let shown = crumbs.map(\.escapedForDisplay)
        let whole = shown.joined(separator: separator)
        guard shown.count > 2, whole.displayWidth > room else { return whole.truncated(toWidth: room) }
        let head = shown[0] + separator + "…"
        var used = head.displayWidth
        var kept = 0
        for crumb in shown.dropFirst().reversed() {
            let more = separatorWidth + crumb.displayWidth
            guard used + more <= room else { break }
            used += more
            kept += 1
        }
        // The task a screen is about stays named, cut short, when only the last crumb fits
        // whole (an edit screen's or a question's).
        if kept == 1 {
            // With three crumbs the parent itself takes the place of "…".
            let front = shown.count == 3 ? shown[0] : head
            let left = room - front.displayWidth - separatorWidth * 2 - shown[shown.count - 1].displayWidth
            if left >= 4 {
                return [front, shown[shown.count - 2].truncated(toWidth: left), shown[shown.count - 1]].joined(separator: separator)
            }
        }
        return ([head] + shown.suffix(max(1, kept))).joined(separator: separator).truncated(toWidth: room)
    }

    /// A field's value in a conflict line: text quoted and escaped, done as on or off,
    /// a date in the local zone, none as `—`.
    private func shown(_ value: FieldValue) -> String {
        switch value {
        case .text(let text): "'" + text.escapedForDisplay + "'"
        case .flag(let flag): flag ? catalog(.valueOn) : catalog(.valueOff)
        case .instant(let instant): instant.map(zone.screenText) ?? "—"
        case .name(let name): name?.escapedForDisplay ?? "—"
        case .words(let words): words.isEmpty ? "—" : words.joined(separator: " ").escapedForDisplay
        case .annotations(let list): String(list.count)
        case .custom(let list): list.map { $0.name + ":" + $0.value }.joined(separator: " ").escapedForDisplay
        }
    }

    /// The fields a task holds beyond the title, the notes and `done`, one a line, only
    /// those set (a task that has none shows none), then a blank line.
    private func attributeLines(_ fields: DraftFields, stamps: TaskStamps?, into lines: inout Lines) {
        guard !fields.extra.isEmpty || stamps?.completed != nil else { return }
        let t = catalog
        var pairs: [(label: String, value: String)] = []
        func date(_ phrase: Phrase, _ instant: Instant?) {
            if let instant { pairs.append((t(phrase), zone.screenText(instant))) }
        }
        date(.labelDue, fields.due)
        date(.labelScheduled, fields.scheduled)
        date(.labelWait, fields.wait)
        date(.labelUntil, fields.until)
        if let recur = fields.recur {
            // An open instance shows when the next one will be due.
            var text = recur.escapedForDisplay
            if !fields.done, let due = fields.due, let next = Recurrence.next(after: due, rule: recur, zone: zone),
                fields.until.map({ next <= $0 }) ?? true
            {
                text += " · " + t(.labelNext, ("date", zone.screenText(next)))
            }
            pairs.append((t(.labelRecur), text))
        }
        if let priority = fields.priority { pairs.append((t(.labelPriority), priority.rawValue)) }
        if let project = fields.project { pairs.append((t(.labelProject), project.escapedForDisplay)) }
        if !fields.tags.isEmpty { pairs.append((t(.labelTags), fields.tags.map { "+" + $0 }.joined(separator: " ").escapedForDisplay)) }
        if !fields.depends.isEmpty { pairs.append((t(.labelDepends), fields.depends.joined(separator: " "))) }
        for field in fields.custom { pairs.append((field.name.escapedForDisplay, field.value.escapedForDisplay)) }
        if let completed = stamps?.completed { pairs.append((t(.labelCompleted), zone.screenText(completed))) }
        for annotation in fields.annotations {
            pairs.append((t(.labelAnnotation), zone.screenText(annotation.entry) + " " + annotation.text.escapedForDisplay))
        }
        guard !pairs.isEmpty else { return }
        let fixed: [Phrase] = [
            .labelDue, .labelScheduled, .labelWait, .labelUntil, .labelRecur, .labelPriority, .labelProject, .labelTags,
            .labelDepends, .labelCompleted, .labelAnnotation,
        ]
        lines.fields(pairs, alike: fixed.map { t($0) })
        lines.blank()
    }

    /// The screen's own actions, then the ones available anywhere (`save` dimmed where it
    /// cannot be typed).
    private func actionLines(_ screen: Screen, canSave: Bool, into lines: inout Lines) {
        let key = ActionsKey(kind: screen.kind, actions: screen.actions, canSave: canSave)
        lines.append(actionsShown.value(for: key) { makeActionLines(key) })
    }

    /// The action lines of a key not shown yet. (A method of its own: the memo's closure
    /// then holds no copy of the renderer.)
    private func makeActionLines(_ key: ActionsKey) -> [UInt8] {
        var block = Lines(width: width, style: style, rule: rule)
        actionLines(key, into: &block)
        return block.takeBytes()
    }

    private func actionLines(_ screen: ActionsKey, into lines: inout Lines) {
        let canSave = screen.canSave
        let own = Set(screen.kind.ownWords + [.backDiscarding, .saveKeepingMine, .theirs])
        func shown(_ word: CommandWord) -> (String, TextStyle.Emphasis?)? {
            switch word {
            case .exit: nil
            case .toggle, .delete: (screen.kind == .list ? "\(word.rawValue) N" : word.usage, nil)
            case .done, .modify: (word.usage(on: screen.kind), nil)
            case .back: ("back [N]", nil)
            case .backDiscarding: ("back!", nil)
            case .help: ("help", nil)
            case .save where !canSave: (catalog(.actionsSaveDisabled), .dim)
            default: (word.usage, nil)
            }
        }
        var screenActions = screen.actions.filter(own.contains).compactMap(shown)
        // The four date words share their usage: one item.
        let dates: [CommandWord] = [.due, .scheduled, .wait, .until]
        let usages = dates.map { $0.usage }
        if let first = screenActions.firstIndex(where: { $0.0 == usages[0] }),
            usages.allSatisfy({ usage in screenActions.contains { $0.0 == usage } })
        {
            screenActions.removeAll { usages.dropFirst().contains($0.0) }
            screenActions[first] = (dates.map(\.rawValue).joined(separator: "|") + " DATE|none", nil)
        }
        let anywhere = screen.actions.filter { !own.contains($0) }.compactMap(shown)
        let label = catalog(.actionsLabel)
        let also = catalog(.actionsAlso)
        let labelWidth = max(label.displayWidth, screenActions.isEmpty ? 0 : also.displayWidth) + 1
        if !screenActions.isEmpty { lines.flow(screenActions, prefix: label.padded(toWidth: labelWidth)) }
        lines.flow(anywhere, prefix: (screenActions.isEmpty ? label : also).padded(toWidth: labelWidth))
    }

    private func helpLines(_ entries: [HelpEntry], details: [String], into lines: inout Lines) {
        if details.isEmpty {
            let column = min(entries.map(\.command.displayWidth).max() ?? 0, width / 2) + 2
            lines.add(catalog(.helpHeader))
            for entry in entries {
                lines.add("  " + entry.command.padded(toWidth: column) + entry.summary)
            }
            lines.add(catalog(.helpFooter))
        } else {
            for entry in entries {
                lines.add(entry.command, .title)
                lines.wrap(entry.summary, indent: 2)
            }
            for detail in details { lines.wrap(detail, indent: 2) }
        }
    }
}
