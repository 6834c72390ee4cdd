/// A `navstack://` URL: one per screen of the signed-in app.
///
/// `go` opens a link by selecting its tab and replacing that tab's path with the
/// synthesised back stack: `tasks/2/edit` becomes `[detail/2, edit/2]`.
public enum DeepLink: Equatable, Hashable, Sendable {
    case tasks
    case task(Int)
    case editTask(Int)
    case newTask
    case account
    case settings
    case about
    /// `tasks/<uuid>` and `tasks/<uuid>/edit`: a task named by its uuid, which `go`
    /// resolves to its id before it opens the link (a screen's own link names ids).
    case taskByUUID(String)
    case editTaskByUUID(String)

    public static let scheme = "navstack"

    /// The full URL, `navstack://tasks/2/edit`.
    public var url: String { "navstack://" + path }

    /// The part after the scheme, `tasks/2/edit`.
    public var path: String {
        switch self {
        case .tasks: "tasks"
        case .task(let id): "tasks/\(id)"
        case .editTask(let id): "tasks/\(id)/edit"
        case .newTask: "tasks/new"
        case .account: "account"
        case .settings: "account/settings"
        case .about: "account/about"
        case .taskByUUID(let uuid): "tasks/\(uuid)"
        case .editTaskByUUID(let uuid): "tasks/\(uuid)/edit"
        }
    }

    /// The uuid a link names its task by, until it is resolved.
    public var uuid: String? {
        switch self {
        case .taskByUUID(let uuid), .editTaskByUUID(let uuid): uuid
        default: nil
        }
    }

    /// The link with its task named by id.
    public func resolved(id: Int) -> DeepLink {
        switch self {
        case .taskByUUID: .task(id)
        case .editTaskByUUID: .editTask(id)
        default: self
        }
    }

    /// The tab the link selects.
    public var tab: Tab {
        switch self {
        case .tasks, .task, .editTask, .newTask, .taskByUUID, .editTaskByUUID: .tasks
        case .account, .settings, .about: .account
        }
    }

    /// The synthesised back stack of the link's tab.
    public var routes: [Route] {
        switch self {
        case .tasks, .newTask, .account, .taskByUUID, .editTaskByUUID: []
        case .task(let id): [.detail(id)]
        case .editTask(let id): [.detail(id), .edit(id)]
        case .settings: [.settings]
        case .about: [.about]
        }
    }

    /// The sheet the link presents.
    public var sheet: Sheet? { self == .newTask ? .newTask : nil }

    /// The task the link names, which must exist when it is opened.
    public var taskID: Int? {
        switch self {
        case .task(let id), .editTask(let id): id
        default: nil
        }
    }

    /// The link of a screen: a tab, its path and the sheet over it.
    ///
    /// Every path the app can reach has a link, so `go` can rebuild any state.
    public init(tab: Tab, path: [Route], sheet: Sheet?) {
        switch (tab, path.last, sheet) {
        case (.tasks, _, .newTask): self = .newTask
        case (.tasks, nil, nil): self = .tasks
        case (.tasks, .detail(let id)?, nil): self = .task(id)
        case (.tasks, .edit(let id)?, nil): self = .editTask(id)
        case (.account, .settings?, _): self = .settings
        case (.account, .about?, _): self = .about
        default: self = tab == .tasks ? .tasks : .account
        }
    }

    /// Parses a full URL (`navstack://tasks/2`) or the part after the scheme (`tasks/2`).
    public init(parsing text: String) throws(NavError) {
        var rest = Substring(text)
        if let range = text.firstRange(of: "://") {
            let scheme = text[..<range.lowerBound]
            guard scheme.lowercased() == Self.scheme else {
                throw .foreignScheme(String(scheme).escapedForDisplay)
            }
            rest = text[range.upperBound...]
        } else if let colon = text.firstIndex(of: ":") {
            let scheme = text[..<colon]
            if scheme.lowercased() != Self.scheme, scheme.allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }), !scheme.isEmpty {
                throw .foreignScheme(String(scheme).escapedForDisplay)
            }
            throw .malformedLink(text.escapedForDisplay)
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 || parts.count == 3, parts[0] == "tasks", String(parts[1]).isUUID {
            let uuid = parts[1].lowercased()
            switch parts.count {
            case 2: self = .taskByUUID(uuid); return
            default:
                guard parts[2] == "edit" else { throw .malformedLink(text.escapedForDisplay) }
                self = .editTaskByUUID(uuid); return
            }
        }
        func id(_ part: Substring) throws(NavError) -> Int {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw .malformedLink(text.escapedForDisplay)
            }
            guard part.count <= 18, let value = Int(part), value > 0 else {
                throw .noSuchTask(String(part))
            }
            return value
        }
        switch parts.count {
        case 1 where parts[0] == "tasks": self = .tasks
        case 1 where parts[0] == "account": self = .account
        case 2 where parts[0] == "tasks" && parts[1] == "new": self = .newTask
        case 2 where parts[0] == "tasks": self = .task(try id(parts[1]))
        case 2 where parts[0] == "account" && parts[1] == "settings": self = .settings
        case 2 where parts[0] == "account" && parts[1] == "about": self = .about
        case 3 where parts[0] == "tasks" && parts[2] == "edit": self = .editTask(try id(parts[1]))
        default: throw .malformedLink(text.escapedForDisplay)
        }
    }

    /// Every link form, for help and for completion.
    public static let forms = [
        "tasks", "tasks/ID", "tasks/ID/edit", "tasks/new",
        "account", "account/settings", "account/about",
    ]
}
