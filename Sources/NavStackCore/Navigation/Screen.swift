import NavStackBytes
import NavStackTime

/// One row of the list: its number as shown (counted over the filtered list, across
/// pages) and its task.
public struct ListRow: Equatable, Hashable, Sendable {
    public var row: Int
    public var task: TaskItem

    public init(row: Int, task: TaskItem) {
        self.row = row
        self.task = task
    }
}

/// The visible page of the list.
public struct ListPage: Equatable, Hashable, Sendable {
    public var rows: [ListRow]
    public var total: Int
    public var filter: ListFilter
    public var terms = ListTerms()
    public var search: String?
    /// The order `sort` gave; `nil`: the list's own.
    public var sort: ListSort?
    public var page: Int
    public var pages: Int

    /// How many pages `total` rows fill: at least one, even when the list is empty.
    public static func pageCount(total: Int, pageSize: Int) -> Int {
        max(1, (total + pageSize - 1) / pageSize)
    }
}

/// Where the agenda puts a task: by the local day of the earlier of its `due` and
/// `scheduled` dates.
public enum AgendaLabel: Equatable, Hashable, Sendable {
    /// A day before today.
    case overdue
    case today
    /// One of the next six days.
    case date(CivilDate)
    /// Further ahead.
    case later

    /// The label as JSON writes it: `overdue`, `today`, `2026-12-01`, `later`.
    public var key: String {
        switch self {
        case .overdue: "overdue"
        case .today: "today"
        case .date(let date): date.isoText
        case .later: "later"
        }
    }

    /// The section of a task dated `instant`, on `today` in `zone`.
    public static func of(_ instant: Instant, today: CivilDate, zone: Zone) -> AgendaLabel {
        let date = zone.local(instant).date
        let days = date.daysSinceEpoch - today.daysSinceEpoch
        switch days {
        case ..<0: return .overdue
        case 0: return .today
        case 1...6: return .date(date)
        default: return .later
        }
    }
}

/// Rows of the agenda under one label.
public struct AgendaSection: Equatable, Hashable, Sendable {
    public var label: AgendaLabel
    public var rows: [ListRow]
}

/// The visible page of the agenda: its rows in sections, numbered across them and
/// across pages. The agenda is not counted (at a million tasks, a count would cost more
/// than the page): `more` says whether a next page has rows.
public struct AgendaPage: Equatable, Hashable, Sendable {
    public var sections: [AgendaSection]
    public var page: Int
    public var more: Bool

    /// Rows in their sections, in order: a row starts a section when its label differs
    /// from the row before it.
    public init(rows: [ListRow], page: Int, more: Bool, today: CivilDate, zone: Zone) {
        var sections: [AgendaSection] = []
        for row in rows {
            let label = row.task.agendaInstant.map { AgendaLabel.of($0, today: today, zone: zone) } ?? .later
            if sections.last?.label == label {
                sections[sections.count - 1].rows.append(row)
            } else {
                sections.append(AgendaSection(label: label, rows: [row]))
            }
        }
        self.sections = sections
        self.page = page
        self.more = more
    }
}

/// Facts the settings screen shows, given by whoever runs the router.
public struct SettingsInfo: Equatable, Hashable, Sendable {
    public var pageSize: Int
    public var store: String
    public var language: String

    public init(pageSize: Int, store: String, language: String) {
        self.pageSize = pageSize
        self.store = store
        self.language = language
    }
}

/// What is shown: the screen's kind, its place, its actions and its content.
///
/// A screen is built fresh from the router's state and the store after every command;
/// renderers turn it into text or JSON. It never changes once built, so it is a class:
/// a screen is copied and compared several times a command (the interpreter looks up
/// what it printed for it), and a copy is then one reference rather than ten.
public final class Screen: Hashable, Sendable {
    /// (A task's and a draft's contents are `indirect`: the content is copied whole a few
    /// times a screen, by the memo of printed screens and by the renderers, and a task or
    /// a draft holds many references where a box is one.)
    public enum Content: Equatable, Hashable, Sendable {
        case login(pending: DeepLink?)
        case list(ListPage)
        /// A task, with the page of its subtasks shown.
        indirect case detail(TaskItem, subtasks: ListPage)
        /// An edit draft or the new-task sheet's, with the fields it and another writer
        /// both changed, and whether its task was deleted elsewhere. An edit draft is shown
        /// rebased on its task as stored now (see ``Draft/rebased(on:keepingMine:)``).
        indirect case draft(Draft, conflicts: [FieldConflict], deleted: Bool)
        case notFound(Int)
        case account(user: String, counts: TaskCounts)
        case settings(SettingsInfo)
        case about(version: String)
        /// Whether to delete a task with its subtasks (how many, at every level).
        case confirm(task: TaskItem, subtasks: Int, message: String)
        case agenda(AgendaPage)
        /// A day of the agenda and the page of its tasks shown.
        case day(CivilDate, ListPage)
    }

    public let kind: ScreenKind
    public let title: String
    public let tab: Tab?
    public let path: [Route]
    public let sheet: Sheet?
    /// The list's state and the page of the subtasks shown, which the link names with the
    /// tab, the path and the sheet.
    public let list: ListState
    public let subtaskPage: Int
    public let breadcrumb: [String]
    /// The command words available here, in the order the screen shows them.
    public let actions: [CommandWord]
    public let content: Content

    /// A screen of a signed-in session when `tab` is given, of the sign-in when not.
    public init(
        kind: ScreenKind, title: String, tab: Tab?, path: [Route], sheet: Sheet?, list: ListState = ListState(),
        subtaskPage: Int = 1, breadcrumb: [String], actions: [CommandWord], content: Content
    ) {
        self.kind = kind
        self.title = title
        self.tab = tab
        self.path = path
        self.sheet = sheet
        self.list = list
        self.subtaskPage = subtaskPage
        self.breadcrumb = breadcrumb
        self.actions = actions
        self.content = content
    }

    /// The deep link of what is shown; `nil` when signed out. (Made when asked for: a
    /// screen drawn as text writes its URL from the path.)
    public var link: DeepLink? {
        tab.map { DeepLink(tab: $0, path: path, sheet: sheet, list: list, page: subtaskPage) }
    }

    /// The URL's bytes, lent to `body`; `nil` when signed out. A task's screen, the usual
    /// one, writes them from its path on the stack.
    func withURLBytes<R>(_ body: (ByteView) -> R) -> R? {
        guard let tab else { return nil }
        if tab == .tasks, sheet == nil {
            switch path.last {
            case .detail? where subtaskPage == 1: return DeepLink.withTaskURLBytes(path: path, editing: false, body)
            case .edit?: return DeepLink.withTaskURLBytes(path: path, editing: true, body)
            default: break
            }
        }
        return link?.withURLBytes(body)
    }

    /// Two screens are equal when they show the same.
    public static func == (lhs: Screen, rhs: Screen) -> Bool {
        lhs === rhs
            || (lhs.kind == rhs.kind && lhs.title == rhs.title && lhs.tab == rhs.tab && lhs.path == rhs.path
                && lhs.sheet == rhs.sheet
                && (lhs.list == rhs.list && lhs.subtaskPage == rhs.subtaskPage || lhs.link == rhs.link)
                && lhs.breadcrumb == rhs.breadcrumb
                && lhs.actions == rhs.actions && lhs.content == rhs.content)
    }

    /// Hashes what tells screens apart cheaply (equal screens still hash alike; the rest
    /// is compared when hashes meet). The interpreter's memo of printed screens hashes
    /// them its own way (``Response/memoHash``).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(title)
        hasher.combine(path)
        hasher.combine(actions.count)
    }
}

/// One entry of `help`.
public struct HelpEntry: Equatable, Hashable, Sendable {
    public var command: String
    public var summary: String
}

/// What a command answers with.
public enum Response: Equatable, Hashable, Sendable {
    /// The screen after the command.
    case screen(Screen)
    /// `help`: the commands of this screen, or one command in detail.
    case help([HelpEntry], details: [String])
    /// `where`: the URL (`nil` when signed out) and the breadcrumb.
    case location(url: String?, breadcrumb: [String])
    /// `quit`, `exit`.
    case quit
}

extension Response: MemoKey {
    func isSameKey(as other: Response) -> Bool { printsLike(other) }

    /// What tells the responses of a session apart, cheaply: the text of what was printed
    /// is looked up by it once a command.
    var memoHash: Int {
        var hasher = MemoHasher()
        switch self {
        case .screen(let screen):
            hasher.combine(1)
            hasher.combine(screen.kind.index)
            hasher.combine(screen.title)
            hasher.combine(screen.path.count)
            if let route = screen.path.last, let id = route.taskID { hasher.combine(id) }
            hasher.combine(screen.actions.count)
            switch screen.content {
            case .list(let page):
                hasher.combine(page.total)
                hasher.combine(page.page)
                for row in page.rows {
                    hasher.combine(row.task.id)
                    hasher.combine(row.task.done)
                }
            case .detail(let task, let subtasks):
                hasher.combine(task.id)
                hasher.combine(task.done)
                hasher.combine(subtasks.total)
                hasher.combine(subtasks.page)
            case .draft(let draft, let conflicts, let deleted):
                hasher.combine(draft.fields.title)
                hasher.combine(draft.fields.notes.utf8.count)
                hasher.combine(draft.fields.done)
                hasher.combine(conflicts.count)
                hasher.combine(deleted)
            case .confirm(let task, let count, _):
                hasher.combine(task.id)
                hasher.combine(count)
            case .notFound(let id):
                hasher.combine(id)
            case .agenda(let agenda):
                hasher.combine(agenda.page)
                for section in agenda.sections {
                    for row in section.rows {
                        hasher.combine(row.task.id)
                        hasher.combine(row.task.done)
                    }
                }
            case .day(let date, let page):
                hasher.combine(Int(date.daysSinceEpoch))
                hasher.combine(page.total)
                hasher.combine(page.page)
                for row in page.rows {
                    hasher.combine(row.task.id)
                    hasher.combine(row.task.done)
                }
            case .login, .account, .settings, .about:
                break
            }
        case .help(let entries, let details):
            hasher.combine(2)
            hasher.combine(entries.count)
            hasher.combine(details.count)
        case .location(let url, let breadcrumb):
            hasher.combine(3)
            hasher.combine(url ?? "")
            hasher.combine(breadcrumb.count)
        case .quit:
            hasher.combine(4)
        }
        return hasher.value
    }
}

extension Screen {
    /// The tasks it shows, by uuid: a list's or a day's rows, the agenda's, a task and
    /// its subtasks, the task a draft edits or a deletion would take.
    var shownTasks: [String: TaskItem] {
        var tasks: [String: TaskItem] = [:]
        func add(_ rows: [ListRow]) { for row in rows { tasks[row.task.uuid] = row.task } }
        switch content {
        case .list(let page), .day(_, let page): add(page.rows)
        case .detail(let task, let subtasks):
            tasks[task.uuid] = task
            add(subtasks.rows)
        case .agenda(let agenda): add(agenda.sections.flatMap(\.rows))
        case .confirm(let task, _, _): tasks[task.uuid] = task
        case .draft(let draft, _, _):
            if let uuid = draft.uuid { tasks[uuid] = TaskItem(id: 0, uuid: uuid, title: draft.fields.title) }
        case .login, .notFound, .account, .settings, .about: break
        }
        return tasks
    }

    /// How many of the tasks shown here and on `old` differ: come, gone or changed. A
    /// draft's task counts once when the draft's screen changed.
    func tasksChanged(since old: Screen) -> Int {
        if case .draft = content { return shownTasks.count }
        let (before, after) = (old.shownTasks, shownTasks)
        var count = before.keys.filter { after[$0] == nil }.count
        for (uuid, task) in after where before[uuid] != task { count += 1 }
        return count
    }
}
