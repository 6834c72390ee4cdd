/// The list's own state, kept while you go deeper and come back.
public struct ListState: Equatable, Hashable, Sendable {
    public var filter: ListFilter = .all
    /// What the filter asks beyond the status.
    public var terms = ListTerms()
    public var search: String?
    /// The order `sort` gives; `nil`: the list's own.
    public var sort: ListSort?
    /// 1-based; clamped to the pages that exist when the list is shown.
    public var page: Int = 1

    public init(filter: ListFilter = .all, terms: ListTerms = ListTerms(), search: String? = nil, sort: ListSort? = nil, page: Int = 1) {
        self.filter = filter
        self.terms = terms
        self.search = search
        self.sort = sort
        self.page = page
    }

    /// The query of the list at the clock's "now".
    public func query(_ clock: TaskClock) -> ListQuery {
        ListQuery(filter: filter, terms: terms, search: search, sort: sort, clock: clock)
    }
}

/// Everything a signed-in profile has open: the selected tab, one path per tab, the
/// sheet, the drafts and the list's state.
///
/// A value, kept in one shared box until it changes: a command reads and copies the
/// session several times, and a copy is then one reference rather than nine.
public struct Session: Equatable, Hashable, Sendable {
    public var user: String {
        get { storage.fields.user }
        _modify { yield &unique.fields.user }
    }
    public var tab: Tab {
        get { storage.fields.tab }
        _modify { yield &unique.fields.tab }
    }
    public var tasksPath: [Route] {
        get { storage.fields.tasksPath }
        _modify { yield &unique.fields.tasksPath }
    }
    public var accountPath: [Route] {
        get { storage.fields.accountPath }
        _modify { yield &unique.fields.accountPath }
    }
    /// The agenda tab's path: a day's screen perhaps, then a task's detail and its
    /// subtasks' (and an edit screen).
    public var agendaPath: [Route] {
        get { storage.fields.agendaPath }
        _modify { yield &unique.fields.agendaPath }
    }
    /// The pages of the agenda's root and of the day on its path (1-based; clamped to
    /// the pages that exist when shown).
    public var agendaPage: Int {
        get { storage.fields.agendaPage }
        _modify { yield &unique.fields.agendaPage }
    }
    public var dayPage: Int {
        get { storage.fields.dayPage }
        _modify { yield &unique.fields.dayPage }
    }
    public var sheet: Sheet? {
        get { storage.fields.sheet }
        _modify { yield &unique.fields.sheet }
    }
    /// A question over the tasks tab, modal like the sheet and never on a path.
    public var confirm: Confirmation? {
        get { storage.fields.confirm }
        _modify { yield &unique.fields.confirm }
    }
    public var drafts: Drafts {
        get { storage.fields.drafts }
        _modify { yield &unique.fields.drafts }
    }
    public var list: ListState {
        get { storage.fields.list }
        _modify { yield &unique.fields.list }
    }
    /// The page of subtasks each task's detail screen on the path shows, when not the first.
    public var subtaskPages: [Int: Int] {
        get { storage.fields.subtaskPages }
        _modify { yield &unique.fields.subtaskPages }
    }

    private var storage: Storage

    public init(user: String) {
        storage = Storage(Fields(user: user))
    }

    /// The fields themselves: compared and hashed as they are.
    private struct Fields: Hashable {
        var user: String
        var tab: Tab = .tasks
        var tasksPath: [Route] = []
        var accountPath: [Route] = []
        var agendaPath: [Route] = []
        var agendaPage = 1
        var dayPage = 1
        var sheet: Sheet?
        var confirm: Confirmation?
        var drafts = Drafts()
        var list = ListState()
        var subtaskPages: [Int: Int] = [:]
    }

    /// The fields, shared by copies until one of them changes.
    ///
    /// Unchecked as the standard library's own array buffers are: the box is changed
    /// only while it is not shared (`isKnownUniquelyReferenced`, see `unique`), so a box
    /// two values (or threads) hold is only read, which the compiler cannot prove. A
    /// lock would be taken by every read of a field; a new immutable box per change
    /// (checked Sendable) copies every field each time: 102,797 instructions a cycle
    /// against 101,122 (docs/performance.md's cycle benchmark), more than noise.
    private final class Storage: @unchecked Sendable {
        // Changed only while the box is not shared (see `unique`).
        var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// The box, made this value's own before it changes.
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            return storage
        }
    }

    public static func == (lhs: Session, rhs: Session) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// The path of a tab.
    public subscript(path tab: Tab) -> [Route] {
        get {
            switch tab {
            case .tasks: tasksPath
            case .agenda: agendaPath
            case .account: accountPath
            }
        }
        set {
            switch tab {
            case .tasks: tasksPath = newValue
            case .agenda: agendaPath = newValue
            case .account: accountPath = newValue
            }
        }
    }

    /// The path of the selected tab.
    public var path: [Route] {
        get { self[path: tab] }
        set { self[path: tab] = newValue }
    }

    /// How many screens sit above the tab's root: the path and the sheet or question
    /// over it.
    public var depth: Int { path.count + (sheet == nil && confirm == nil ? 0 : 1) }

    /// Whether a sheet or a question covers the path.
    public var isModal: Bool { sheet != nil || confirm != nil }

    /// The deep link of what is shown (a question has none of its own: the screen under it).
    public var link: DeepLink {
        DeepLink(tab: tab, path: path, sheet: sheet, list: list, page: pageShown)
    }

    /// The page the link names: of the subtasks of the task shown, of the agenda, or of
    /// the day shown.
    public var pageShown: Int {
        guard tab == .agenda else { return subtaskPageShown }
        switch agendaPath.last {
        case nil: return agendaPage
        case .day?: return dayPage
        default: return subtaskPageShown
        }
    }

    /// The page of the subtasks of the task shown (1 when none is).
    public var subtaskPageShown: Int {
        topTaskID.flatMap { subtaskPages[$0] } ?? 1
    }

    /// The task whose detail screen is on top of the tasks path, if any.
    public var topTaskID: Int? {
        guard tab != .account, case .detail(let id)? = path.last else { return nil }
        return id
    }

    /// The draft of the screen on top, if that screen edits one.
    public var topDraftOwner: DraftOwner? {
        if sheet != nil { return .sheet }
        if tab != .account, case .edit(let id)? = path.last { return .edit(id) }
        return nil
    }

    /// Whether a draft still has its screen open (on either tab: a task has one draft,
    /// which both tabs' edit screens of it show).
    func keeps(_ owner: DraftOwner) -> Bool {
        switch owner {
        case .sheet: sheet != nil
        case .edit(let id): tasksPath.contains(.edit(id)) || agendaPath.contains(.edit(id))
        }
    }

    /// Whether a task's detail screen is on a path (its page of subtasks is kept while it is).
    func showsDetail(of id: Int) -> Bool {
        tasksPath.contains(.detail(id)) || agendaPath.contains(.detail(id))
    }
}

/// A question the app asks before it acts.
public enum Confirmation: Equatable, Hashable, Sendable {
    /// Delete a task with its subtasks; `popping` when it is the task shown, whose
    /// screen then closes.
    case delete(Int, popping: Bool)

    /// The task the question is about.
    public var taskID: Int {
        switch self {
        case .delete(let id, _): id
        }
    }
}

/// The root phase: the login screen, or the tabs of a signed-in profile.
public enum Phase: Equatable, Hashable, Sendable {
    case signedOut(pending: DeepLink?)
    case signedIn(Session)
}
