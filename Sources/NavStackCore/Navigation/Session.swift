/// The list's own state, kept while you go deeper and come back.
public struct ListState: Equatable, Hashable, Sendable {
    public var filter: ListFilter = .all
    public var search: String?
    /// 1-based; clamped to the pages that exist when the list is shown.
    public var page: Int = 1

    public init(filter: ListFilter = .all, search: String? = nil, page: Int = 1) {
        self.filter = filter
        self.search = search
        self.page = page
    }

    public var query: ListQuery { ListQuery(filter: filter, search: search) }
}

/// Everything a signed-in profile has open: the selected tab, one path per tab, the
/// sheet, the drafts and the list's state.
public struct Session: Equatable, Hashable, Sendable {
    public var user: String
    public var tab: Tab = .tasks
    public var tasksPath: [Route] = []
    public var accountPath: [Route] = []
    public var sheet: Sheet?
    /// A question over the tasks tab, modal like the sheet and never on a path.
    public var confirm: Confirmation?
    public var drafts: [DraftOwner: Draft] = [:]
    public var list = ListState()
    /// The page of subtasks each task's detail screen on the path shows, when not the first.
    public var subtaskPages: [Int: Int] = [:]

    public init(user: String) {
        self.user = user
    }

    /// The path of a tab.
    public subscript(path tab: Tab) -> [Route] {
        get { tab == .tasks ? tasksPath : accountPath }
        set {
            if tab == .tasks { tasksPath = newValue } else { accountPath = newValue }
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
        DeepLink(tab: tab, path: path, sheet: sheet, list: list, page: topTaskID.flatMap { subtaskPages[$0] } ?? 1)
    }

    /// The task whose detail screen is on top of the tasks path, if any.
    public var topTaskID: Int? {
        guard tab == .tasks, case .detail(let id)? = tasksPath.last else { return nil }
        return id
    }

    /// The draft of the screen on top, if that screen edits one.
    public var topDraftOwner: DraftOwner? {
        if sheet != nil { return .sheet }
        if tab == .tasks, case .edit(let id)? = tasksPath.last { return .edit(id) }
        return nil
    }

    /// Whether a draft still has its screen open.
    func keeps(_ owner: DraftOwner) -> Bool {
        switch owner {
        case .sheet: sheet != nil
        case .edit(let id): tasksPath.contains(.edit(id))
        }
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
