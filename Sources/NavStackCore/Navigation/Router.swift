/// The one place navigation happens: the root phase, both tabs' paths, the sheet, the
/// drafts, and the store they show.
///
/// Every command from every front end goes through ``apply(_:)``. A command that fails
/// throws a ``NavError`` and leaves the state as it was.
public struct Router {
    /// Settings fixed for the life of the router.
    public struct Configuration: Sendable {
        /// Rows per list page.
        public var pageSize: Int
        /// Whether a new profile starts with the sample tasks.
        public var sampleForNewProfiles: Bool
        /// What the settings screen says of the store.
        public var storeDescription: String
        /// The version the about screen shows.
        public var version: String
        /// The words of screens, messages and help.
        public var catalog: Catalog
        /// Whether the store keeps where each profile is, for the next launch. A store in
        /// memory has no next launch.
        public var savesNavigation: Bool
        /// "Now" and the zone dates are typed in.
        public var clock: TaskClock

        /// `storeDescription` nil: the store is in memory.
        public init(
            pageSize: Int = 20, sampleForNewProfiles: Bool = false,
            storeDescription: String? = nil, version: String = "0.0.0", catalog: Catalog = .english,
            savesNavigation: Bool = true, clock: TaskClock = TaskClock()
        ) {
            self.savesNavigation = savesNavigation
            self.clock = clock
            self.pageSize = max(1, pageSize)
            self.sampleForNewProfiles = sampleForNewProfiles
            self.storeDescription = storeDescription ?? catalog(.inMemory)
            self.version = version
            self.catalog = catalog
        }
    }

    /// The signed-in session, if any. (Kept apart from the pending link, rather than as
    /// a ``Phase``, so reading it copies nothing: it is read several times a command.)
    public private(set) var session: Session?
    /// While signed out: the link to open after login.
    private(set) var pendingLink: DeepLink?

    /// The root phase: signed out (with the pending link) or signed in.
    public private(set) var phase: Phase {
        get { session.map(Phase.signedIn) ?? .signedOut(pending: pendingLink) }
        set {
            switch newValue {
            case .signedIn(let session):
                self.session = session
                pendingLink = nil
            case .signedOut(let pending):
                session = nil
                pendingLink = pending
            }
        }
    }
    public let store: any TaskStore
    /// The commands of each shape of screen made so far.
    private let availableWordsMade = AvailableWords()
    /// The breadcrumb made last.
    let breadcrumbMade = BreadcrumbMade()
    /// The rows of the list shown last: what row numbers name.
    private(set) var shownList: ShownList?
    /// Why the link waiting for `login` was not opened, until the front end takes it.
    private var linkFailure: NavError?

    /// What the last `undo` or `redo` changed, until the front end takes it to say so.
    private var stepTaken: ChangeSummary?

    /// Takes what the last command's `undo` or `redo` changed, if it was one.
    public mutating func takeStep() -> ChangeSummary? {
        defer { stepTaken = nil }
        return stepTaken
    }

    /// Takes the failure of the link `login` was to open: `login` signed in and shows
    /// the tab's root, and the front end reports this as the command's error.
    public mutating func takeLinkFailure() -> NavError? {
        defer { linkFailure = nil }
        return linkFailure
    }
    public private(set) var configuration: Configuration

    /// Rows per list page from now on (the window was resized); at least one.
    public mutating func setPageSize(_ rows: Int) {
        configuration.pageSize = max(1, rows)
    }

    public init(
        store: any TaskStore, configuration: Configuration = Configuration(),
        phase: Phase = .signedOut(pending: nil)
    ) {
        self.store = store
        self.configuration = configuration
        self.phase = phase
    }

    /// Applies one command and answers with what to show.
    ///
    /// The command, the navigation state it leaves and the screen it shows are one
    /// store transaction: committed before the answer is returned, or not at all.
    public mutating func apply(_ command: Command) throws(NavError) -> Response {
        switch command {
        case .quit:
            return .quit
        case .help(let topic):
            let shown = try showingNow()
            return help(topic, on: shown.kind, available: availableWords(on: shown))
        case .where:
            // Where the session is in the tree as it is now (kept with the next command),
            // read in one snapshot.
            return try storeCall {
                try store.snapshot { () throws(NavError) -> Response in
                    let showing = try showing()
                    try ensureAvailable(.where, on: showing)
                    try settle(on: showing)
                    return .location(url: session?.link.url, breadcrumb: try breadcrumb(of: session, chain: showing.chain))
                }
            }
        default:
            // Whether the command is available is checked once, in its transaction, on
            // the screen as the transaction reads it. (A transaction begins nothing in
            // SQLite until it writes in memory, and is a savepoint in a file's shared
            // transaction: a refused command costs little.)
            let (before, pendingBefore) = (session, pendingLink)
            linkFailure = nil
            stepTaken = nil
            var response = Response.quit
            do {
                try storeCall {
                    try store.transaction {
                        response = try changeAndShow(by: command, from: before, pendingBefore)
                    }
                }
            } catch {
                // A failed command changes nothing.
                (session, pendingLink, linkFailure, stepTaken) = (before, pendingBefore, nil, nil)
                throw error
            }
            if case .screen(let screen) = response { remember(screen) }
            return response
        }
    }

    /// The screen the state shows, as it is shown: the row numbers typed next name its
    /// rows. (``screen()`` reads the same screen without showing it, for completion.)
    public mutating func show() throws(NavError) -> Screen {
        // Settled and made from one read of the store, as a command's screen is.
        let screen = try storeCall {
            try store.snapshot { () throws(NavError) -> Screen in
                let showing = try showing()
                try settle(on: showing)
                return try makeScreen(showing)
            }
        }
        remember(screen)
        return screen
    }

    /// Keeps the rows of a list screen, or of a task's subtasks, shown.
    private mutating func remember(_ screen: Screen) {
        guard let session else { return }
        switch screen.content {
        case .list(let page):
            shownList = ShownList(user: session.user, query: session.list.query(configuration.clock), rows: page.rows)
        case .detail(let task, let page): shownList = ShownList(user: session.user, query: .subtasks(of: task.id), rows: page.rows)
        case .agenda(let agenda):
            guard let query = session.agendaQuery(configuration.clock) else { return }
            shownList = ShownList(user: session.user, query: query, rows: agenda.sections.flatMap(\.rows))
        case .day(_, let page):
            guard let query = session.agendaQuery(configuration.clock) else { return }
            shownList = ShownList(user: session.user, query: query, rows: page.rows)
        default: break
        }
    }

    /// Applies a command that changes the state or the store, keeps the navigation
    /// state it leaves, and answers with the screen. (A method rather than the
    /// transaction's closure: a closure would copy the router to make the screen.)
    private mutating func changeAndShow(by command: Command, from before: Session?, _ pendingBefore: DeepLink?) throws -> Response {
        let read = try change(by: command)
        // What the command left, as the tree and the lists are now (an undone move put a
        // task elsewhere; a delete left fewer pages). A field typed into a draft leaves
        // the screen, its task and the store as they were read.
        let showing = command.changesOnlyADraftsFields ? read : try showing()
        try settle(on: showing)
        if configuration.savesNavigation, session != before || pendingLink != pendingBefore {
            try store.savePhase(phase)
        }
        return .screen(try makeScreen(showing))
    }

    /// Applies a command that changes the state or the store: the screen it acts on is
    /// read once, for the check that the command is available there and for the command,
    /// and returned.
    private mutating func change(by command: Command) throws(NavError) -> Showing {
        let showing = try showing()
        try settle(on: showing)
        try ensureAvailable(command.word, on: showing)
        switch session {
        case nil:
            try applySignedOut(command, pending: pendingLink)
        case let session?:
            if command == .undo || command == .redo {
                let user = session.user
                let step = try storeCall { try command == .undo ? store.undo(user) : store.redo(user) }
                guard let step else { throw command == .undo ? .nothingToUndo : .nothingToRedo }
                stepTaken = step
            }
            var next = session
            // `add` without a title names the task in the session's language.
            let command = command == .add(title: nil) ? .add(title: configuration.catalog(.defaultTaskTitle)) : command
            let discarding = try next.apply(
                command, on: showing, shown: shownList, store: store,
                pageSize: configuration.pageSize, clock: configuration.clock, language: configuration.catalog.language)
            if command == .logout {
                phase = .signedOut(pending: nil)
            } else {
                try commit(next, by: command.word, discarding: discarding)
            }
        }
        return showing
    }

    /// Makes the state name what is shown: the tasks path the chain of the task shown, as
    /// the tree has it now (another process, or an undone move, may have moved a task on
    /// it), and the page of the list or of the subtasks one that exists, so the URL names
    /// the page shown.
    private mutating func settle(on showing: Showing) throws(NavError) {
        guard let session else { return }
        if session.tab == .agenda { return try settleAgenda(on: showing) }
        guard session.tab == .tasks else { return }
        let pageSize = configuration.pageSize
        switch showing.kind {
        case .list where session.list.page > 1:
            let pages = try session.listPages(store: store, pageSize: pageSize, clock: configuration.clock)
            if session.list.page > pages { self.session?.list.page = pages }
        case .detail, .edit:
            guard !session.isModal, !showing.chain.isEmpty else { return }
            // The usual case, a path that is the chain already, is checked without
            // building the chain's path.
            let path = session.tasksPath
            let editing = if case .edit? = path.last { true } else { false }
            let details = path.count - (editing ? 1 : 0)
            if details != showing.chain.count || zip(path, showing.chain).contains(where: { $0.0 != .detail($0.1.id) }) {
                self.session?.tasksPath = showing.path(editing: editing)
            }
            if let task = showing.task, let page = session.subtaskPages[task.id] {
                let last = ListPage.pageCount(total: task.subtasks.total, pageSize: pageSize)
                if page > last { self.session?.subtaskPages[task.id] = last == 1 ? nil : last }
            }
        default:
            break
        }
    }

    /// Makes the agenda tab's state name what is shown: the page of the agenda or of the
    /// day one that exists, and a path of tasks each a subtask of the one before (another
    /// process may have moved one: the path is then the task shown alone).
    private mutating func settleAgenda(on showing: Showing) throws(NavError) {
        guard let session, !session.isModal else { return }
        let pageSize = configuration.pageSize
        switch showing.kind {
        case .agenda where session.agendaPage > 1, .day where session.dayPage > 1:
            guard let query = session.agendaQuery(configuration.clock) else { return }
            let asked = showing.kind == .agenda ? session.agendaPage : session.dayPage
            // The agenda is counted only when the page asked for is past its end.
            if showing.kind == .agenda,
                try !storeCall({ try store.page(session.user, query, offset: (asked - 1) * pageSize, limit: 1) }).isEmpty
            {
                return
            }
            let pages = ListPage.pageCount(total: try storeCall { try store.count(session.user, query) }, pageSize: pageSize)
            guard asked > pages else { return }
            if showing.kind == .agenda { self.session?.agendaPage = pages } else { self.session?.dayPage = pages }
        case .detail, .edit:
            guard let task = showing.task else { return }
            let path = session.agendaPath
            let opened = path.compactMap { route -> Int? in
                if case .detail(let id) = route { return id }
                return nil
            }
            let tree = showing.chain.map(\.id)
            if opened.count > tree.count || !tree.suffix(opened.count).elementsEqual(opened) {
                let day = path.first.flatMap { route -> Route? in
                    if case .day = route { return route }
                    return nil
                }
                let editing = if case .edit? = path.last { true } else { false }
                self.session?.agendaPath = (day.map { [$0] } ?? []) + [.detail(task.id)] + (editing ? [.edit(task.id)] : [])
            }
            if let page = session.subtaskPages[task.id] {
                let last = ListPage.pageCount(total: task.subtasks.total, pageSize: pageSize)
                if page > last { self.session?.subtaskPages[task.id] = last == 1 ? nil : last }
            }
        default:
            break
        }
    }

    /// Handles the login screen: `login` and `go`.
    private mutating func applySignedOut(_ command: Command, pending: DeepLink?) throws(NavError) {
        switch command {
        case .go(let link):
            phase = .signedOut(pending: link)
        case .login(let user):
            try storeCall { try store.openProfile(user, sample: configuration.sampleForNewProfiles) }
            var session = Session(user: user)
            if let pending {
                session.tab = pending.tab
                // As `go` would: a link to a task the profile lacks is not opened.
                do {
                    if let link = try pending.opened(by: user, in: store) {
                        session.open(link)
                    } else {
                        linkFailure = .linkNotOpened(url: pending.url, id: pending.taskName ?? "")
                    }
                } catch .chainMismatch(let url, let id, let actual) {
                    linkFailure = .chainMismatch(url: url, id: id, actual: actual)
                }
            }
            phase = .signedIn(session)
            try commit(session, by: .login, discarding: true)
        default:
            preconditionFailure("\(command) is not available signed out")
        }
    }

    /// Makes `next` the session, unless that would drop a dirty draft without being
    /// asked to (`back!`, `save`, `cancel`). Drafts whose screen closed are dropped;
    /// edit screens and the sheet that opened get a fresh draft.
    private mutating func commit(_ next: consuming Session, by word: CommandWord, discarding: Bool) throws(NavError) {
        guard let drafts = session?.drafts else { return }
        var next = next
        // Each draft is looked at only when its screen closed.
        for (owner, draft) in drafts where !next.keeps(owner) {
            if !discarding, draft.isDirty { throw .unsavedDraft(word) }
            next.drafts[owner] = nil
        }
        if next.sheet != nil, !next.drafts.contains(.sheet) {
            next.drafts[.sheet] = Draft(editing: DraftFields())
        }
        // A page of subtasks is kept while its task's screen is open.
        if !next.subtaskPages.isEmpty {
            next.subtaskPages = next.subtaskPages.filter { next.showsDetail(of: $0.key) }
        }
        for case .edit(let id) in next.tasksPath + next.agendaPath where !next.drafts.contains(.edit(id)) {
            if let task = try storeCall({ try store.task(next.user, id: id) }) {
                next.drafts[.edit(id)] = Draft(editing: task)
            }
        }
        session = next
    }

    /// Fails unless the command can be used on the screen shown now.
    public func ensureAvailable(_ word: CommandWord) throws(NavError) {
        try ensureAvailable(word, on: try showingNow())
    }

    /// Fails unless the command can be used on the screen shown.
    private func ensureAvailable(_ word: CommandWord, on showing: Showing) throws(NavError) {
        let available = availableWords(on: showing)
        guard available.contains(word) else {
            if word == .back, let session, session.depth == 0 { throw .nothingToGoBack }
            throw .notAvailable(word, screen: showing.kind, available: available)
        }
    }

    /// The commands available on a screen of this kind, in the order screens show them
    /// (without those a screen offers only for its task's state, as `theirs`).
    public func availableWords(on kind: ScreenKind) -> [CommandWord] {
        Self.availableWords(on: kind, in: session)
    }

    /// The commands available on the screen shown: made once for each of the few shapes
    /// a screen's words depend on, then looked up (a command reads them twice).
    func availableWords(on showing: Showing) -> [CommandWord] {
        let key = AvailableWords.key(showing.kind, showing.elsewhere, session)
        return availableWordsMade.words(for: key) {
            Self.availableWords(on: showing.kind, in: session, extra: showing.extraWords)
        }
    }
}

/// Runs a store call, turning its failure into a ``NavError``.
@discardableResult
func storeCall<T>(_ body: () throws -> T) throws(NavError) -> T {
    do {
        return try body()
    } catch let error as NavError {
        throw error
    } catch {
        throw .store(String(describing: error))
    }
}

extension DeepLink {
    /// The link as `go` or `login` opens it for a profile, with its task's chain as the
    /// tree has it (a task named by uuid resolved to it); `nil` when the task it names is
    /// not the profile's. A chain given in full must be the tree's.
    func opened(by user: String, in store: any TaskStore) throws(NavError) -> DeepLink? {
        if case .agendaTask(_, let given, _, _) = self {
            // The task opened from the agenda, then each a subtask of the one before.
            var above: Int?
            for id in given {
                guard let task = try storeCall({ try store.task(user, id: id) }) else { return nil }
                if let above, task.parent != above {
                    let tree = try storeCall { try store.chain(user, id: id) }.map(\.id)
                    throw .chainMismatch(url: url, id: id, actual: DeepLink.detail(chain: tree, page: 1).path)
                }
                above = id
            }
            return self
        }
        let id: Int
        if let uuid {
            guard let task = try storeCall({ try store.task(user, uuid: uuid) }) else { return nil }
            id = task.id
        } else {
            guard let named = taskID else { return self }
            id = named
        }
        let chain = try storeCall { try store.chain(user, id: id) }.map(\.id)
        guard !chain.isEmpty else { return nil }
        let given = self.chain
        if given.count > 1, given != chain {
            throw .chainMismatch(url: url, id: id, actual: resolved(chain: chain).path)
        }
        return resolved(chain: chain)
    }

    /// The task the link names, as it names it (an id or a uuid).
    var taskName: String? {
        uuid ?? taskID.map(String.init)
    }
}

/// The commands available on each shape of screen, made once: they depend only on the
/// screen's kind, what its task's edit draft met elsewhere, and five facts of the session.
final class AvailableWords {
    /// Signed out; else the kind, the draft's `Elsewhere` and five flags.
    private var made: [[CommandWord]?] = Array(repeating: nil, count: 1 + ScreenKind.allCases.count * 3 * 32)

    /// The slot of a screen's shape.
    static func key(_ kind: ScreenKind, _ elsewhere: Showing.Elsewhere, _ session: Session?) -> Int {
        guard let session else { return 0 }
        let elsewhereIndex =
            switch elsewhere {
            case .unchanged: 0
            case .changed: 1
            case .deleted: 2
            }
        var flags = 0
        if session.confirm != nil { flags |= 1 }
        if session.depth > 0 { flags |= 2 }
        if let owner = session.topDraftOwner, session.drafts.contains(owner) { flags |= 4 }
        if session.isModal { flags |= 8 }
        if session.tab == .agenda { flags |= 16 }
        return 1 + (kind.index * 3 + elsewhereIndex) * 32 + flags
    }

    /// The words kept in `key`'s slot, else those `make` makes, kept.
    func words(for key: Int, make: () -> [CommandWord]) -> [CommandWord] {
        if let words = made[key] { return words }
        let words = make()
        made[key] = words
        return words
    }
}
