/// The two tabs of the signed-in app; each keeps its own path.
public enum Tab: String, CaseIterable, Equatable, Hashable, Sendable {
    case tasks
    case account
}

/// One element of a tab's path.
public enum Route: Equatable, Hashable, Sendable {
    case detail(Int)
    case edit(Int)
    case settings
    case about

    /// The route as the spec writes it: `detail/2`, `edit/2`, `settings`, `about`.
    public var description: String {
        switch self {
        case .detail(let id): "detail/\(id)"
        case .edit(let id): "edit/\(id)"
        case .settings: "settings"
        case .about: "about"
        }
    }

    /// Reads a route back from its description.
    public init?(description: String) {
        switch description {
        case "settings": self = .settings
        case "about": self = .about
        default:
            let parts = description.split(separator: "/")
            guard parts.count == 2, let id = Int(parts[1]), id > 0 else { return nil }
            switch parts[0] {
            case "detail": self = .detail(id)
            case "edit": self = .edit(id)
            default: return nil
            }
        }
    }

    /// The task this route shows, if any.
    public var taskID: Int? {
        switch self {
        case .detail(let id), .edit(let id): id
        case .settings, .about: nil
        }
    }
}

/// A modal presented over the tasks tab; never part of a path.
public enum Sheet: String, Equatable, Hashable, Sendable {
    case newTask = "new-task"
}

/// Which tasks the list shows.
public enum ListFilter: String, CaseIterable, Equatable, Hashable, Sendable {
    case all
    case open
    case done

    /// Whether a task passes this filter.
    public func admits(_ task: TaskItem) -> Bool {
        switch self {
        case .all: true
        case .open: !task.done
        case .done: task.done
        }
    }
}
