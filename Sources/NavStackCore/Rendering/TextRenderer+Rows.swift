import NavStackBytes
import NavStackTime

/// The rows of lists, agendas and days, and what a row shows after its title.
extension TextRenderer {
    /// What a list row shows after the title: priority, due date (else the scheduled one)
    /// and tags, compactly (`H · due 2026-12-01 · +home`); empty for a task with none of them.
    func rowAttributes(_ task: TaskItem) -> String {
        var parts: [String] = []
        if let priority = task.priority { parts.append(priority.rawValue) }
        if let due = task.due {
            parts.append(catalog(.rowDue, ("date", zone.screenText(due))))
        } else if let scheduled = task.scheduled {
            parts.append(catalog(.rowScheduled, ("date", zone.screenText(scheduled))))
        }
        if !task.tags.isEmpty { parts.append(task.tags.map { "+" + $0 }.joined(separator: " ").escapedForDisplay) }
        return parts.isEmpty ? "" : " · " + parts.joined(separator: " · ")
    }

    func listLines(_ page: ListPage, into lines: inout Lines) {
        let t = catalog
        var status = page.total == 1 ? t(.listOneTask) : t(.listTasks, ("count", page.total))
        switch page.filter {
        case .all: break
        case .open: status += " · " + t(.listFilterOpen)
        case .done: status += " · " + t(.listFilterDone)
        case .waiting: status += " · " + t(.listFilterWaiting)
        case .every: status += " · " + t(.listFilterAll)
        }
        for tag in page.terms.tags { status += " · +" + tag }
        for tag in page.terms.withoutTags { status += " · -" + tag }
        if let project = page.terms.project { status += " · " + t(.labelProject).lowercased() + " " + project }
        if let priority = page.terms.priority { status += " · " + priority.rawValue }
        if let due = page.terms.dueWord { status += " · " + t(.listFilterWhen, ("when", due.escapedForDisplay)) }
        if let before = page.terms.dueBefore { status += " · due.before:" + before.escapedForDisplay }
        if let after = page.terms.dueAfter { status += " · due.after:" + after.escapedForDisplay }
        if let search = page.search { status += " · " + t(.listFind, ("text", search.escapedForDisplay)) }
        if let sort = page.sort { status += " · sort " + sort.word }
        status += " · " + t(.listPage, ("page", page.page), ("pages", page.pages))
        lines.add(status)
        lines.blank()
        if page.rows.isEmpty {
            lines.add(page.filter == .all && page.terms.isEmpty && page.search == nil ? t(.listEmpty) : t(.listNoMatch))
            return
        }
        rowLines(page.rows, into: &lines)
    }

    /// The agenda's sections, each its label over its rows, numbered across them; then,
    /// past the first page or before more, which page this is.
    func agendaLines(_ agenda: AgendaPage, into lines: inout Lines) {
        let t = catalog
        guard let last = agenda.sections.last?.rows.last else {
            lines.wrap(agenda.page > 1 ? t(.listNoMatch) : t(.agendaEmpty))
            return
        }
        let numberWidth = max(2, String(last.row).utf8.count)
        for (index, section) in agenda.sections.enumerated() {
            if index > 0 { lines.blank() }
            switch section.label {
            case .overdue: lines.add(t(.agendaOverdue), .error)
            case .today: lines.add(t(.agendaToday), .title)
            case .date(let date): lines.add(t.dayText(date), .title)
            case .later: lines.add(t(.agendaLater), .title)
            }
            rowLines(section.rows, numberWidth: numberWidth, into: &lines)
        }
        if agenda.page > 1 || agenda.more {
            lines.blank()
            lines.add(t(agenda.more ? .agendaPageMore : .agendaPageLast, ("page", agenda.page)))
        }
    }

    /// Numbered rows: ` 1  [ ] Title [1/3] · #42`, with the progress of a task that has
    /// subtasks and the task's id (the number in its URL, which the shell's commands
    /// take); the row numbers as wide as `numberWidth`, else as the last row's.
    func rowLines(_ rows: [ListRow], numberWidth: Int? = nil, into lines: inout Lines) {
        guard let last = rows.last else { return }
        let numberWidth = numberWidth ?? max(2, String(last.row).utf8.count)
        // Each row is put together in one string, kept from row to row, rather than
        // by joining six new ones; most rows (a plain title that fits, no emphasis) go
        // straight to the screen's bytes.
        var line = ""
        for row in rows {
            let progress = row.task.subtasks
            let emphasis: TextStyle.Emphasis? = row.task.done ? .dim : nil
            if progress.total == 0, emphasis == nil || style == .plain, !row.task.hasRowAttributes,
                lines.addRow(number: row.row, numberWidth: numberWidth, done: row.task.done, title: row.task.title, id: row.task.id)
            {
                continue
            }
            rowLine(row, numberWidth: numberWidth, into: &line)
            lines.add(line, emphasis)
        }
    }

    /// A row laid out by characters into `line` (emptied first), the plain way for any
    /// row: what ``Lines/addRow(number:numberWidth:done:title:id:)`` writes from the bytes.
    /// The progress, the attributes and the task's id stay on the row: a title too long
    /// gives way to them.
    func rowLine(_ row: ListRow, numberWidth: Int, into line: inout String) {
        let progress = row.task.subtasks
        let number = String(row.row)
        line.removeAll(keepingCapacity: true)
        for _ in 0..<max(0, numberWidth - number.utf8.count) { line += " " }
        line += number
        line += row.task.done ? "  [x] " : "  [ ] "
        let end = (progress.total > 0 ? " [\(progress.done)/\(progress.total)]" : "") + rowAttributes(row.task) + " · #\(row.task.id)"
        let title = row.task.title.escapedForDisplay
        let room = width - numberWidth - 6 - end.displayWidth
        line += title.displayWidth > room && room >= 4 ? title.truncated(toWidth: room) : title
        line += end
    }

    /// What the action lines of a screen depend on.
    struct ActionsKey: MemoKey, Equatable {
        var kind: ScreenKind
        var actions: [CommandWord]
        var canSave: Bool

        /// Command words and flags: no text, so `==` says it.
        func isSameKey(as other: ActionsKey) -> Bool { self == other }

        /// Hashed without the words themselves (the words are compared when hashes meet):
        /// a screen's kind and how many words it has tell the few keys of a session apart.
        var memoHash: Int {
            var hasher = MemoHasher()
            hasher.combine(kind.index)
            hasher.combine(actions.count)
            hasher.combine(canSave)
            return hasher.value
        }
    }
}
