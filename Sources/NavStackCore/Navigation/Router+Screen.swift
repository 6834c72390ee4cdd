import NavStackTime

/// What the state shows: the kind of screen and, for a task's screen, the task as it
/// was read to decide it. A command reads it once and passes it along.
struct Showing {
    var kind: ScreenKind
    var task: TaskItem?
    /// On a task's screen: the task and those above it, from the top of the tree down,
    /// as the store has them now.
    var chain: [TaskItem] = []
    /// On an edit screen: how the task stands against the draft's base.
    var elsewhere: Elsewhere = .unchanged

    /// What another writer did to the task an edit draft started from.
    enum Elsewhere {
        case unchanged
        /// Changed, perhaps in the fields the draft changed too.
        case changed
        case deleted
    }

    init(_ kind: ScreenKind, task: TaskItem? = nil, chain: [TaskItem] = [], elsewhere: Elsewhere = .unchanged) {
        self.kind = kind
        self.task = task
        self.chain = chain
        self.elsewhere = elsewhere
    }

    /// The path the chain makes: its detail screens, and the edit screen when `editing`.
    func path(editing: Bool) -> [Route] {
        chain.map { Route.detail($0.id) } + (editing ? [.edit(chain.last?.id ?? 0)] : [])
    }

    /// The commands this screen has besides its kind's: `save!` and `theirs` on an edit
    /// screen whose task changed elsewhere (`save!` alone when it was deleted).
    var extraWords: [CommandWord] {
        switch elsewhere {
        case .unchanged: []
        case .changed: [.saveKeepingMine, .theirs]
        case .deleted: [.saveKeepingMine]
        }
    }
}

extension Router {
    /// Which screen the state shows. A route whose task is gone shows not-found.
    public func screenKind() throws(NavError) -> ScreenKind {
        try showing().kind
    }

    /// Which screen the state shows, with the task on top read once: the screen is made
    /// from the same read that decided it.
    func showing() throws(NavError) -> Showing {
        guard let session else { return Showing(.login) }
        if let confirm = session.confirm {
            return Showing(.confirm, task: try storeCall { try store.task(session.user, id: confirm.taskID) })
        }
        if session.sheet != nil { return Showing(.newTask) }
        switch session.path.last {
        case nil:
            switch session.tab {
            case .tasks: return Showing(.list)
            case .agenda: return Showing(.agenda)
            case .account: return Showing(.account)
            }
        case .day?: return Showing(.day)
        case .settings?: return Showing(.settings)
        case .about?: return Showing(.about)
        case .detail(let id)?:
            let chain = try storeCall { try store.chain(session.user, id: id) }
            return Showing(chain.isEmpty ? .notFound : .detail, task: chain.last, chain: chain)
        case .edit(let id)?:
            let chain = try storeCall { try store.chain(session.user, id: id) }
            // A draft outlives its task deleted elsewhere: `save!` can bring it back.
            guard let draft = session.drafts[.edit(id)] else { return Showing(.notFound, task: chain.last, chain: chain) }
            guard let task = chain.last else { return Showing(.edit, elsewhere: .deleted) }
            return Showing(.edit, task: task, chain: chain, elsewhere: task.fields == draft.original ? .unchanged : .changed)
        }
    }

    /// What the state shows, read in one snapshot of the store, outside a command.
    func showingNow() throws(NavError) -> Showing {
        try storeCall { try store.snapshot { () throws(NavError) -> Showing in try showing() } }
    }

    /// The screen the state shows, read from the store now: every read of it sees the
    /// store at one moment, though another process deletes or changes its task meanwhile.
    public func screen() throws(NavError) -> Screen {
        try storeCall { try store.snapshot { () throws(NavError) -> Screen in try makeScreen(try showing()) } }
    }

    /// The screen of what the state shows.
    func makeScreen(_ showing: Showing) throws(NavError) -> Screen {
        let t = configuration.catalog
        let kind = showing.kind
        let actions = availableWords(on: showing)
        guard let session else {
            return Screen(
                kind: .login, title: t(.titleSignIn), tab: nil, path: [], sheet: nil, breadcrumb: try breadcrumb(of: nil, chain: []),
                actions: actions, content: .login(pending: pendingLink))
        }
        let user = session.user
        let breadcrumb = try self.breadcrumb(of: session, chain: showing.chain)

        let title: String
        let content: Screen.Content
        switch kind {
        case .list:
            title = t(.titleMyTasks)
            content = .list(try listPage(of: session))
        case .detail:
            guard let task = showing.task else { preconditionFailure("a detail screen is decided by its task") }
            title = task.title
            content = .detail(task, subtasks: try subtaskPage(of: task, in: session))
        case .confirm:
            title = t(.titleConfirmDelete)
            let id = session.confirm?.taskID ?? 0
            let task = showing.task ?? TaskItem(id: id, uuid: "", title: t(.crumbTask, ("id", id)))
            let count = try storeCall { try store.descendantCount(user, id: id) }
            content = .confirm(
                task: task, subtasks: count,
                message: t(
                    count == 1 ? .confirmDeleteOne : .confirmDeleteMany,
                    ("task", task.title.escapedForDisplay), ("count", count)))
        case .edit:
            title = t(.titleEditTask)
            // The draft as it would be saved: what changed elsewhere where it changed
            // nothing, against the task as stored now.
            let draft = session.drafts[session.topDraftOwner!]!
            if let task = showing.task, task.uuid == draft.uuid, draft.isItsOwnRebase(on: task.fields) {
                // Nothing changed elsewhere, as is usual: the draft is shown as it is.
                content = .draft(draft, conflicts: [], deleted: false)
            } else {
                content = .draft(
                    showing.task.map { draft.rebased(on: $0, keepingMine: true) } ?? draft,
                    conflicts: showing.task.map { draft.merge(with: $0.fields).conflicts } ?? [],
                    deleted: showing.elsewhere == .deleted)
            }
        case .newTask:
            title = t(.titleNewTask)
            content = .draft(session.drafts[.sheet] ?? Draft(editing: DraftFields()), conflicts: [], deleted: false)
        case .notFound:
            title = t(.titleNotFound)
            content = .notFound(session.path.last?.taskID ?? 0)
        case .account:
            title = t(.titleAccount)
            content = .account(user: user, counts: try storeCall { try store.counts(user) })
        case .settings:
            title = t(.titleSettings)
            content = .settings(
                SettingsInfo(
                    pageSize: configuration.pageSize, store: configuration.storeDescription,
                    language: t(.languageName)))
        case .about:
            title = t(.titleAbout)
            content = .about(version: configuration.version)
        case .agenda:
            title = t(.titleAgenda)
            content = .agenda(try agendaPage(of: session))
        case .day:
            guard case .day(let date)? = session.path.last else { preconditionFailure("a day screen is decided by its route") }
            title = t.dayText(date)
            content = .day(date, try dayPage(of: date, in: session))
        case .login:
            preconditionFailure("signed in")
        }
        return Screen(
            kind: kind, title: title, tab: session.tab, path: session.path, sheet: session.sheet, list: session.list,
            subtaskPage: session.pageShown, breadcrumb: breadcrumb, actions: actions, content: content)
    }

    /// Where the session is, as the screen's second line names it: the tab, then each
    /// route of its path (a task by its title), then the sheet or question; signed out,
    /// the sign-in. `chain` is the chain of the task on top, when it was read already.
    func breadcrumb(of session: Session?, chain: [TaskItem]) throws(NavError) -> [String] {
        let t = configuration.catalog
        guard let session else { return [t(.titleSignIn)] }
        var chain = chain
        if chain.isEmpty, let id = session.path.last(where: { $0.taskID != nil })?.taskID {
            chain = try storeCall { try store.chain(session.user, id: id) }
        }
        if let kept = breadcrumbMade.breadcrumb(of: session, chain: chain, language: t.language) { return kept }
        var breadcrumb: [String] = []
        // The tab, each route, and the sheet or question: room for all at once.
        breadcrumb.reserveCapacity(session.path.count + 2)
        switch session.tab {
        case .tasks: breadcrumb.append(t(.titleMyTasks))
        case .agenda: breadcrumb.append(t(.titleAgenda))
        case .account: breadcrumb.append(t(.titleAccount))
        }
        var fromChain = true
        for route in session.path {
            switch route {
            case .detail(let id):
                var title = chain.first(where: { $0.id == id })?.title
                if title == nil {
                    // Read apart from the chain: not kept (the chain would not tell it changed).
                    fromChain = false
                    title = try storeCall { try store.task(session.user, id: id) }?.title
                }
                breadcrumb.append(title ?? t(.crumbTask, ("id", id)))
            case .edit: breadcrumb.append(t(.crumbEdit))
            case .settings: breadcrumb.append(t(.titleSettings))
            case .about: breadcrumb.append(t(.crumbAbout))
            case .day(let date): breadcrumb.append(t.dayText(date))
            }
        }
        if session.sheet != nil { breadcrumb.append(t(.titleNewTask)) }
        if session.confirm != nil { breadcrumb.append(t(.titleConfirmDelete)) }
        if fromChain { breadcrumbMade.keep(breadcrumb, of: session, chain: chain, language: t.language) }
        return breadcrumb
    }

    /// The visible page of the agenda: its rows, numbered across pages, in their sections.
    func agendaPage(of session: Session) throws(NavError) -> AgendaPage {
        let clock = configuration.clock
        let pageSize = configuration.pageSize
        let page = session.agendaPage
        let offset = (page - 1) * pageSize
        // The page as row numbers read it (one answer, kept for both), then whether the
        // next page has a row: one look at the index.
        let query = ListQuery.agenda(clock)
        let tasks = try storeCall { try store.page(session.user, query, offset: offset, limit: pageSize) }
        var more = false
        if tasks.count == pageSize {
            more = !(try storeCall { try store.page(session.user, query, offset: offset + pageSize, limit: 1) }).isEmpty
        }
        let rows = tasks.enumerated().map { ListRow(row: offset + $0.offset + 1, task: $0.element) }
        return AgendaPage(rows: rows, page: page, more: more, today: clock.zone.local(clock.now()).date, zone: clock.zone)
    }

    /// The visible page of a day's tasks, its page clamped to the pages that exist.
    func dayPage(of date: CivilDate, in session: Session) throws(NavError) -> ListPage {
        let query = ListQuery.day(date, configuration.clock)
        return try page(
            of: query, total: try storeCall { try store.count(session.user, query) }, asked: session.dayPage, user: session.user)
    }

    /// The visible page of a task's subtasks, its page clamped to the pages that exist.
    func subtaskPage(of task: TaskItem, in session: Session) throws(NavError) -> ListPage {
        try page(
            of: .subtasks(of: task.id), total: task.subtasks.total, asked: session.subtaskPages[task.id] ?? 1,
            user: session.user)
    }

    /// The visible page of the list, its page clamped to the pages that exist.
    func listPage(of session: Session) throws(NavError) -> ListPage {
        let query = session.list.query(configuration.clock)
        return try page(
            of: query, total: try storeCall { try store.count(session.user, query) }, asked: session.list.page,
            user: session.user)
    }

    /// The page `asked` of a query's `total` rows, clamped to the pages that exist, its
    /// rows numbered across pages.
    private func page(of query: ListQuery, total: Int, asked: Int, user: String) throws(NavError) -> ListPage {
        let pageSize = configuration.pageSize
        let pages = ListPage.pageCount(total: total, pageSize: pageSize)
        let page = min(asked, pages)
        let offset = (page - 1) * pageSize
        let tasks = total == 0 ? [] : try storeCall { try store.page(user, query, offset: offset, limit: pageSize) }
        let rows = tasks.enumerated().map { ListRow(row: offset + $0.offset + 1, task: $0.element) }
        var listed = ListPage(rows: rows, total: total, filter: query.filter, search: query.search, page: page, pages: pages)
        listed.sort = query.sort
        listed.terms = query.terms
        return listed
    }

    /// `help`: the commands of this screen, or one command in detail.
    func help(_ topic: CommandWord?, on kind: ScreenKind, available: [CommandWord]) -> Response {
        let t = configuration.catalog
        guard let topic else {
            let words = available.filter { $0 != .exit }
            return .help(words.map { HelpEntry(command: $0.usage(on: kind), summary: t.summary($0)) }, details: [])
        }
        var details: [String] = []
        if topic == .go {
            details.append(t(.helpLinks, ("links", DeepLink.forms.map { "navstack://" + $0 }.joined(separator: ", "))))
            details.append(t(.helpSchemeOptional))
        }
        if topic == .filter { details.append(t(.helpFilterTerms)) }
        if available.contains(topic) {
            details.append(t(.helpAvailableHere))
        } else {
            let screens = ScreenKind.allCases.filter { $0.ownWords.contains(topic) }.map { t($0.phrase) }
            details.append(screens.isEmpty ? t(.helpNotHere) : t(.helpAvailableOn, ("screens", screens.joined(separator: ", "))))
        }
        return .help([HelpEntry(command: topic.usage, summary: t.summary(topic))], details: details)
    }
}

/// The breadcrumb made last and what it was made from: a command mostly shows the
/// screen it acted on again, under the same crumbs.
final class BreadcrumbMade {
    private var crumbs: [String] = []
    private var tab = Tab.tasks
    private var path: [Route] = []
    private var sheet = false
    private var confirm = false
    private var chain: [TaskItem] = []
    private var language: Language?

    /// The crumbs kept, when they were made from the same tab, path, chain of tasks
    /// (their ids and titles byte for byte), sheet, question and language.
    func breadcrumb(of session: Session, chain: [TaskItem], language: Language) -> [String]? {
        guard self.language == language, tab == session.tab, path == session.path, sheet == (session.sheet != nil),
            confirm == (session.confirm != nil), self.chain.count == chain.count
        else { return nil }
        for (kept, now) in zip(self.chain, chain) where kept.id != now.id || !kept.title.hasSameBytes(as: now.title) {
            return nil
        }
        return crumbs
    }

    func keep(_ crumbs: [String], of session: Session, chain: [TaskItem], language: Language) {
        (self.crumbs, tab, path, sheet, confirm, self.chain, self.language) =
            (crumbs, session.tab, session.path, session.sheet != nil, session.confirm != nil, chain, language)
    }
}
