/// Byte-exact sameness of answers, for the memo of printed screens.
///
/// Swift's `==` on strings is canonical equivalence: `Cafe\u{301}` equals `Caf\u{e9}`,
/// though the two print different bytes. Two answers print the same bytes only when they
/// are equal and every text they show has the same bytes too.
extension Response {
    /// Whether `other` prints exactly what this answer prints: equal, and each text the
    /// same bytes.
    func printsLike(_ other: Response) -> Bool {
        guard self == other else { return false }
        var mine: [String] = []
        forEachText { mine.append($0) }
        var index = 0
        var same = true
        other.forEachText { text in
            if same { same = index < mine.count && mine[index].hasSameBytes(as: text) }
            index += 1
        }
        return same && index == mine.count
    }

    /// Calls `body` with every text the answer shows, in one fixed order.
    func forEachText(_ body: (String) -> Void) {
        switch self {
        case .screen(let screen): screen.forEachText(body)
        case .help(let entries, let details):
            for entry in entries {
                body(entry.command)
                body(entry.summary)
            }
            details.forEach(body)
        case .location(let url, let breadcrumb):
            url.map(body)
            breadcrumb.forEach(body)
        case .quit: break
        }
    }
}

extension Screen {
    /// Calls `body` with every text the screen shows, in one fixed order.
    func forEachText(_ body: (String) -> Void) {
        body(title)
        breadcrumb.forEach(body)
        list.search.map(body)
        switch content {
        case .login(let pending): pending?.forEachText(body)
        case .list(let page): page.forEachText(body)
        case .detail(let task, let subtasks):
            task.forEachText(body)
            subtasks.forEachText(body)
        case .draft(let draft, let conflicts, _):
            draft.fields.forEachText(body)
            draft.original.forEachText(body)
            for conflict in conflicts {
                for value in [conflict.base, conflict.mine, conflict.theirs] {
                    if case .text(let text) = value { body(text) }
                }
            }
        case .notFound: break
        case .account(let user, _): body(user)
        case .settings(let info):
            body(info.store)
            body(info.language)
        case .about(let version): body(version)
        case .confirm(let task, _, let message):
            task.forEachText(body)
            body(message)
        }
    }
}

extension ListPage {
    fileprivate func forEachText(_ body: (String) -> Void) {
        search.map(body)
        for row in rows { row.task.forEachText(body) }
    }
}

extension TaskItem {
    fileprivate func forEachText(_ body: (String) -> Void) {
        body(uuid)
        body(title)
        body(notes)
    }
}

extension DraftFields {
    fileprivate func forEachText(_ body: (String) -> Void) {
        body(title)
        body(notes)
    }
}

extension DeepLink {
    fileprivate func forEachText(_ body: (String) -> Void) {
        switch self {
        case .list(let state): state.search.map(body)
        case .taskByUUID(let uuid), .editTaskByUUID(let uuid): body(uuid)
        case .detail, .edit, .sheet, .account, .settings, .about: break
        }
    }
}
