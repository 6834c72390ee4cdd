extension Router {
    /// Which screen the state shows. A route whose task is gone shows not-found.
    public func screenKind() throws(NavError) -> ScreenKind {
        guard let session else { return .login }
        if session.sheet != nil { return .newTask }
        switch session.path.last {
        case nil: return session.tab == .tasks ? .list : .account
        case .settings?: return .settings
        case .about?: return .about
        case .detail(let id)?:
            return try exists(id, for: session) ? .detail : .notFound
        case .edit(let id)?:
            return try exists(id, for: session) && session.drafts[.edit(id)] != nil ? .edit : .notFound
        }
    }

    private func exists(_ id: Int, for session: Session) throws(NavError) -> Bool {
        try storeCall { try store.task(session.user, id: id) } != nil
    }

    /// The screen the state shows, read from the store now.
    public func screen() throws(NavError) -> Screen {
        let kind = try screenKind()
        let actions = availableWords(on: kind)
        guard let session else {
            guard case .signedOut(let pending) = phase else { preconditionFailure() }
            return Screen(kind: .login, title: "Sign in", tab: nil, path: [], sheet: nil, link: nil,
                          breadcrumb: ["Sign in"], actions: actions, content: .login(pending: pending))
        }
        let user = session.user
        var breadcrumb = [session.tab == .tasks ? "My Tasks" : "Account"]
        for route in session.path {
            switch route {
            case .detail(let id):
                breadcrumb.append(try storeCall { try store.task(user, id: id) }?.title ?? "Task \(id)")
            case .edit: breadcrumb.append("Edit")
            case .settings: breadcrumb.append("Settings")
            case .about: breadcrumb.append("About")
            }
        }
        if session.sheet != nil { breadcrumb.append("New Task") }

        let title: String
        let content: Screen.Content
        switch kind {
        case .list:
            title = "My Tasks"
            content = .list(try listPage(of: session))
        case .detail:
            let id = session.path.last!.taskID!
            let task = try storeCall { try store.task(user, id: id) }!
            title = task.title
            content = .detail(task)
        case .edit:
            title = "Edit Task"
            content = .draft(session.drafts[session.topDraftOwner!]!)
        case .newTask:
            title = "New Task"
            content = .draft(session.drafts[.sheet] ?? Draft(editing: DraftFields()))
        case .notFound:
            title = "Task not found"
            content = .notFound(session.path.last?.taskID ?? 0)
        case .account:
            title = "Account"
            content = .account(user: user, counts: try storeCall { try store.counts(user) })
        case .settings:
            title = "Settings"
            content = .settings(SettingsInfo(pageSize: configuration.pageSize, store: configuration.storeDescription))
        case .about:
            title = "About navstack"
            content = .about(version: configuration.version)
        case .login:
            preconditionFailure("signed in")
        }
        return Screen(kind: kind, title: title, tab: session.tab, path: session.path, sheet: session.sheet,
                      link: session.link, breadcrumb: breadcrumb, actions: actions, content: content)
    }

    /// The visible page of the list, its page clamped to the pages that exist.
    func listPage(of session: Session) throws(NavError) -> ListPage {
        let pageSize = configuration.pageSize
        let query = session.list.query
        let total = try storeCall { try store.count(session.user, query) }
        let pages = ListPage.pageCount(total: total, pageSize: pageSize)
        let page = min(session.list.page, pages)
        let offset = (page - 1) * pageSize
        let tasks = try storeCall { try store.page(session.user, query, offset: offset, limit: pageSize) }
        let rows = tasks.enumerated().map { ListRow(row: offset + $0.offset + 1, task: $0.element) }
        return ListPage(rows: rows, total: total, filter: session.list.filter, search: session.list.search,
                        page: page, pages: pages)
    }

    /// `help`: the commands of this screen, or one command in detail.
    func help(_ topic: CommandWord?, on kind: ScreenKind, available: [CommandWord]) -> Response {
        guard let topic else {
            let words = available.filter { $0 != .exit }
            return .help(words.map { HelpEntry(command: $0.usage, summary: $0.summary) }, details: [])
        }
        var details: [String] = []
        if topic == .go {
            details.append("Links: " + DeepLink.forms.map { "navstack://" + $0 }.joined(separator: ", "))
            details.append("The navstack:// part may be left out: go tasks/2/edit.")
        }
        if available.contains(topic) {
            details.append("Available here.")
        } else {
            let screens = ScreenKind.allCases.filter { $0.ownWords.contains(topic) }.map(\.phrase)
            details.append(screens.isEmpty ? "Not available here." : "Available on " + screens.joined(separator: ", ") + ".")
        }
        return .help([HelpEntry(command: topic.usage, summary: topic.summary)], details: details)
    }
}
