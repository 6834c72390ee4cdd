import NavStackTime

extension Session {
    /// Applies a signed-in command to this session (a copy the router commits only on
    /// success), writing to the store where the command saves.
    ///
    /// `showing` is the screen it acts on, as the router read it; `shown` the rows of the
    /// list shown last. Returns whether the move may discard dirty drafts (`back!`,
    /// `save`, `cancel`).
    mutating func apply(
        _ command: Command, on showing: Showing, shown: ShownList?, store: any TaskStore,
        pageSize: Int, clock: TaskClock, language: Language
    ) throws(NavError) -> Bool {
        let kind = showing.kind
        switch command {
        case .back(let count, let discarding):
            guard count <= depth else {
                throw depth == 0 ? .nothingToGoBack : .cannotGoBack(count, depth: depth)
            }
            var remaining = count
            if isModal {
                (sheet, confirm) = (nil, nil)
                remaining -= 1
            }
            path.removeLast(remaining)
            return discarding
        case .backTo(let target, let discarding):
            switch target {
            case .list:
                path = []
            case .task(let id):
                guard tab != .account, let index = path.lastIndex(of: .detail(id)) else { throw .notOnPath(id) }
                path.removeSubrange((index + 1)...)
            }
            (sheet, confirm) = (nil, nil)
            return discarding
        case .root:
            path = []
        case .tab(let selected):
            if selected == tab { path = [] } else { tab = selected }
        case .go(let named):
            guard let link = try named.opened(by: user, in: store) else { throw .noSuchTask(named.taskName ?? "") }
            open(link)
        case .logout:
            break

        // The list
        case .open(let row):
            let task = try target(row, on: showing, word: .open, shown: shown, store: store, pageSize: pageSize, clock: clock)
            // Its chain: the path to here and the task, unless it is a search result
            // from further down. The agenda opens a task where it is.
            if task.parent == showing.task?.id || tab == .agenda {
                path.append(.detail(task.id))
            } else {
                path = try storeCall { try store.chain(user, id: task.id) }.map { Route.detail($0.id) }
            }
        case .add(let title):
            var fields =
                try title.map { line throws(NavError) in try AddLine.fields(line, clock: clock, language: language) } ?? DraftFields()
            if fields.title.isBlank { fields.title = Catalog.english(.defaultTaskTitle) }
            if let problem = Recurrence.problem(with: fields) { throw problem }
            let task = try storeCall { try store.insertAtTop(user, fields, under: showing.task?.id, as: .add) }
            path.append(.detail(task.id))
        case .new:
            sheet = .newTask
        case .toggle(let row):
            let task = try target(row, on: showing, word: .toggle, shown: shown, store: store, pageSize: pageSize, clock: clock)
            // Flipped as stored when the write runs, not as it was read.
            guard try storeCall({ try store.toggle(user, id: task.id) }) != nil else { throw .taskVanished(task.id) }
        case .delete(let row):
            let task = try target(row, on: showing, word: .delete, shown: shown, store: store, pageSize: pageSize, clock: clock)
            let popping = kind == .detail && row == nil
            // A task with subtasks goes only once the question is answered.
            if task.subtasks.total > 0 {
                confirm = .delete(task.id, popping: popping)
                return false
            }
            guard try storeCall({ try store.delete(user, id: task.id) }) else { throw .taskVanished(task.id) }
            if popping { path.removeLast() }
        case .yes:
            guard case .delete(let id, let popping)? = confirm else { break }
            guard try storeCall({ try store.delete(user, id: id) }) else { throw .taskVanished(id) }
            confirm = nil
            if popping, let index = path.firstIndex(of: .detail(id)) { path.removeSubrange(index...) }
        case .no:
            confirm = nil
        case .move(let row, let place):
            let task = try target(row, on: showing, word: .move, shown: shown, store: store, pageSize: pageSize, clock: clock)
            let parent: Int? = if case .task(let id) = place { id } else { nil }
            guard try storeCall({ try store.move(user, id: task.id, under: parent) }) != nil else { throw .taskVanished(task.id) }
        case .filter(let filter, let terms):
            list = ListState(filter: filter, terms: terms, search: list.search, sort: list.sort)
        case .find(let text):
            list = ListState(filter: list.filter, terms: list.terms, search: text, sort: list.sort)
        case .sort(let sort):
            list = ListState(filter: list.filter, terms: list.terms, search: list.search, sort: sort)
        case .next where kind == .agenda || kind == .day, .prev where kind == .agenda || kind == .day,
            .page where kind == .agenda || kind == .day:
            try step(command, on: kind, store: store, pageSize: pageSize, clock: clock)
        case .day(let text):
            let date = clock.zone.local(try clock.instant(typed: text, language: language)).date
            guard CivilDate.agendaDays.contains(date) else { throw .agendaBounds }
            // A day's screen replaces the one shown, as `next` and `prev` do.
            if kind == .day { path.removeLast() }
            path.append(.day(date))
            dayPage = 1
        case .next, .prev, .page:
            // The list's pages, or the subtasks' of the task shown.
            let subtasks = kind == .detail ? showing.task : nil
            let pages =
                if let subtasks {
                    ListPage.pageCount(total: subtasks.subtasks.total, pageSize: pageSize)
                } else {
                    try listPages(store: store, pageSize: pageSize, clock: clock)
                }
            let current = min(subtasks.map { subtaskPages[$0.id] ?? 1 } ?? list.page, pages)
            let next: Int
            switch command {
            case .next:
                guard current < pages else { throw .alreadyLastPage(pages: pages) }
                next = current + 1
            case .prev:
                guard current > 1 else { throw .alreadyFirstPage }
                next = current - 1
            case .page(let number):
                guard number <= pages else { throw .noSuchPage(number, pages: pages) }
                next = number
            default:
                next = current
            }
            if let subtasks { subtaskPages[subtasks.id] = next == 1 ? nil : next } else { list.page = next }

        // A task
        case .edit:
            guard case .detail(let id)? = path.last else { break }
            path.append(.edit(id))

        // Drafts
        case .title(let text):
            guard !text.isBlank else { throw .blankTitle }
            try editDraft { $0.title = text }
        case .notes(let text):
            try editDraft { $0.notes = text }
        case .done(let done):
            guard kind == .edit || kind == .newTask else { throw .needsRow(.done) }
            try editDraft { $0.done = done }
        case .complete(let row):
            guard kind != .edit, kind != .newTask else {
                guard let row else { throw .missingArgument(.done) }
                throw .badChoice(.done, String(row))
            }
            let task = try target(row, on: showing, word: .done, shown: shown, store: store, pageSize: pageSize, clock: clock)
            guard !task.done else { break }
            var fields = task.fields
            fields.done = true
            guard try storeCall({ try store.write(user, id: task.id, [.done], from: fields, as: .toggle) }) != nil else {
                throw .taskVanished(task.id)
            }
        case .modify(let row, let words):
            let task = try target(row, on: showing, word: .modify, shown: shown, store: store, pageSize: pageSize, clock: clock)
            var fields = task.fields
            let changed = try ModifyLine.apply(words, to: &fields, clock: clock, language: language)
            guard try storeCall({ try store.write(user, id: task.id, changed, from: fields, as: .save) }) != nil else {
                throw .taskVanished(task.id)
            }
        case .date(let field, let text):
            let instant = try text.map { typed throws(NavError) in try clock.instant(typed: typed, language: language) }
            try editDraft { $0[field] = .instant(instant) }
        case .recur(let rule):
            try editDraft { $0.recur = rule }
        case .priority(let priority):
            try editDraft { $0.priority = priority }
        case .project(let project):
            try editDraft { $0.project = project }
        case .tag(let change):
            try editDraft(checking: .tags) { $0.tags = change.applied(to: $0.tags) }
        case .annotate(let text):
            guard !text.isBlank else { throw .missingArgument(.annotate) }
            let task = try target(nil, on: showing, word: .annotate, shown: shown, store: store, pageSize: pageSize, clock: clock)
            let fields = try task.fields.annotated(text, at: clock.now())
            guard try storeCall({ try store.write(user, id: task.id, [.annotations], from: fields, as: .save) }) != nil else {
                throw .taskVanished(task.id)
            }
        case .save(let keepingMine):
            guard let owner = topDraftOwner, let draft = drafts[owner] else { throw .taskVanished(path.last?.taskID ?? 0) }
            guard draft.canSave else { throw .cannotSaveBlankTitle }
            // A rule, a due date or an end changed into a series that cannot be.
            let recurrence =
                draft.fields.recur != draft.original.recur || draft.fields.due != draft.original.due
                || draft.fields.until != draft.original.until || owner == .sheet
            if recurrence, let problem = Recurrence.problem(with: draft.fields) { throw problem }
            switch owner {
            case .sheet:
                // Over a task's screen, a subtask of that task.
                try storeCall { try store.insertAtTop(user, draft.fields, under: topTaskID, as: .save) }
                sheet = nil
            case .edit(let id):
                if draft.isDirty {
                    try save(draft, of: id, stored: showing.task, keepingMine: keepingMine, store: store)
                }
                path.removeLast()
                // The other tab's edit screen of the task, if open, starts again from what
                // was saved.
                drafts[owner] = nil
            }
            return true
        case .theirs:
            guard let owner = topDraftOwner, let draft = drafts[owner] else { throw .taskVanished(path.last?.taskID ?? 0) }
            // Offered only while the task stands changed elsewhere (see `Showing`).
            guard let stored = showing.task else { throw .draftTaskDeleted(task: draft.original.title) }
            drafts[owner] = draft.rebased(on: stored, keepingMine: false)
        case .cancel:
            // Discarded on both tabs: the other tab's edit screen of the task starts again.
            if let owner = topDraftOwner { drafts[owner] = nil }
            if sheet != nil { sheet = nil } else { path.removeLast() }
            return true

        // Account
        case .settings:
            path.append(.settings)
        case .about:
            path.append(.about)

        case .undo, .redo:
            // The router takes the step, and keeps what it changed to say so.
            break

        case .help, .where, .quit, .login:
            preconditionFailure("\(command) is answered by the router")
        }
        return false
    }

    /// Opens a link: its tab, with the path, sheet and list state it names.
    mutating func open(_ link: DeepLink) {
        tab = link.tab
        self[path: link.tab] = link.routes
        sheet = link.sheet
        confirm = nil
        switch link {
        case .list(let state): list = state
        case .detail(let chain, let page): subtaskPages = page > 1 ? [chain.last!: page] : [:]
        case .agenda(let page): agendaPage = page
        case .day(_, let page): dayPage = page
        case .agendaTask(let day, let chain, _, let page):
            if day != nil { dayPage = 1 }
            subtaskPages[chain.last!] = page > 1 ? page : nil
        default: break
        }
    }

    /// The query of the agenda screen on top of the agenda tab: its root's or a day's.
    func agendaQuery(_ clock: TaskClock) -> ListQuery? {
        guard tab == .agenda else { return nil }
        switch agendaPath.last {
        case nil: return .agenda(clock)
        case .day(let date)?: return .day(date, clock)
        default: return nil
        }
    }

    /// `next`, `prev` and `page N` on the agenda (its pages) and on a day (the next or
    /// the previous day; its pages). The agenda is not counted to be shown: whether a
    /// page has rows is one look at the index.
    private mutating func step(_ command: Command, on kind: ScreenKind, store: any TaskStore, pageSize: Int, clock: TaskClock)
        throws(NavError)
    {
        guard let query = agendaQuery(clock) else { return }
        if kind == .day, case .day(let date)? = agendaPath.last {
            switch command {
            case .next, .prev:
                let next = date.adding(days: command == .next ? 1 : -1)
                guard CivilDate.agendaDays.contains(next) else { throw .agendaBounds }
                agendaPath[agendaPath.count - 1] = .day(next)
                dayPage = 1
            case .page(let number):
                let pages = ListPage.pageCount(total: try storeCall { try store.count(user, query) }, pageSize: pageSize)
                guard number <= pages else { throw .noSuchPage(number, pages: pages) }
                dayPage = number
            default: break
            }
            return
        }
        func hasRows(onPage page: Int) throws(NavError) -> Bool {
            if page == 1 { return true }
            return !(try storeCall { try store.page(user, query, offset: (page - 1) * pageSize, limit: 1) }).isEmpty
        }
        switch command {
        case .next:
            guard try hasRows(onPage: agendaPage + 1) else { throw .alreadyLastPage(pages: agendaPage) }
            agendaPage += 1
        case .prev:
            guard agendaPage > 1 else { throw .alreadyFirstPage }
            agendaPage -= 1
        case .page(let number):
            guard try hasRows(onPage: number) else {
                let pages = ListPage.pageCount(total: try storeCall { try store.count(user, query) }, pageSize: pageSize)
                throw .noSuchPage(number, pages: pages)
            }
            agendaPage = number
        default: break
        }
    }

    /// The task on a row of the filtered list, or of a task's subtasks (`query`), read
    /// with the page it is on. A row the list showed must still hold the task it showed.
    func task(
        atRow row: Int, by word: CommandWord, in query: ListQuery, shown: ShownList?,
        store: any TaskStore, pageSize: Int
    ) throws(NavError) -> TaskItem {
        let seen = shown?.task(atRow: row, user: user, query: query)
        let (page, index) = (row - 1).quotientAndRemainder(dividingBy: pageSize)
        let tasks = try storeCall { try store.page(user, query, offset: page * pageSize, limit: pageSize) }
        guard index < tasks.count else {
            if let seen { throw .rowMoved(word, row: row, shown: seen.title, now: nil) }
            throw .noSuchRow(row, rows: try storeCall { try store.count(user, query) })
        }
        if let seen, seen.id != tasks[index].id {
            throw .rowMoved(word, row: row, shown: seen.title, now: tasks[index].title)
        }
        return tasks[index]
    }

    /// The task a row-or-this-task command acts on: row N on the list, the shown task
    /// on its detail screen.
    private func target(
        _ row: Int?, on showing: Showing, word: CommandWord, shown: ShownList?,
        store: any TaskStore, pageSize: Int, clock: TaskClock
    ) throws(NavError) -> TaskItem {
        switch (showing.kind, row) {
        case (.list, let row?):
            return try task(atRow: row, by: word, in: list.query(clock), shown: shown, store: store, pageSize: pageSize)
        case (.detail, let row?):
            return try task(atRow: row, by: word, in: .subtasks(of: showing.task?.id ?? 0), shown: shown, store: store, pageSize: pageSize)
        case (.agenda, let row?), (.day, let row?):
            guard let query = agendaQuery(clock) else { throw .needsRow(word) }
            return try task(atRow: row, by: word, in: query, shown: shown, store: store, pageSize: pageSize)
        case (.list, nil), (.agenda, nil), (.day, nil):
            throw .needsRow(word)
        case (.detail, nil) where word == .open || word == .move:
            throw .needsRow(word)
        case (_, nil):
            if let task = showing.task { return task }
            guard let id = path.last?.taskID, let task = try storeCall({ try store.task(user, id: id) }) else {
                throw .taskVanished(path.last?.taskID ?? 0)
            }
            return task
        case (_, .some):
            throw .takesNoRow(word)
        }
    }

    /// Saves an edit draft: only the fields it changed from its base, merged with what
    /// another writer changed since (`stored`, read in this command's transaction). Both
    /// changing a field differently fails, unless `keepingMine` (`save!`); a task deleted
    /// elsewhere fails, unless `keepingMine` re-creates it with its id, uuid and place.
    private func save(
        _ draft: Draft, of id: Int, stored: TaskItem?, keepingMine: Bool,
        store: any TaskStore
    ) throws(NavError) {
        guard let stored else {
            guard keepingMine else { throw .draftTaskDeleted(task: draft.original.title) }
            try storeCall { try store.recreate(user, id: id, uuid: draft.uuid, draft.fields, as: .save) }
            return
        }
        let merge = draft.merge(with: stored.fields)
        if !merge.conflicts.isEmpty && !keepingMine {
            throw .saveConflict(task: stored.title, fields: merge.conflicts.map(\.field))
        }
        guard try storeCall({ try store.write(user, id: id, merge.changed, from: draft.fields, as: .save) }) != nil else {
            throw .taskVanished(id)
        }
    }

    /// Changes the draft of the screen on top.
    /// Changes the top draft; with `field`, refuses a value of it ``FieldRules`` refuses.
    private mutating func editDraft(checking field: TaskField? = nil, _ change: (inout DraftFields) -> Void) throws(NavError) {
        if let field, let owner = topDraftOwner, var fields = drafts[owner]?.fields {
            change(&fields)
            if let problem = FieldRules.problem(fields[field], as: field) { throw .badValue(problem) }
        }
        guard let owner = topDraftOwner, drafts.change(owner, { change(&$0.fields) }) else {
            throw .taskVanished(path.last?.taskID ?? 0)
        }
    }

    /// How many pages the list has.
    func listPages(store: any TaskStore, pageSize: Int, clock: TaskClock) throws(NavError) -> Int {
        let query = list.query(clock)
        return ListPage.pageCount(total: try storeCall { try store.count(user, query) }, pageSize: pageSize)
    }
}
