import NavStackTime

/// The tabs of the signed-in app; each keeps its own path.
public enum Tab: String, CaseIterable, Equatable, Hashable, Sendable {
    case tasks
    /// What is due or scheduled: overdue, today, the next six days, later; and one day.
    case agenda
    case account
}

/// One element of a tab's path.
public enum Route: Equatable, Hashable, Sendable {
    case detail(Int)
    case edit(Int)
    case settings
    case about
    /// The agenda's screen of one day (the local calendar's).
    case day(CivilDate)

    /// The route as the spec writes it: `detail/2`, `edit/2`, `settings`, `about`,
    /// `day/2026-12-01`.
    public var description: String {
        switch self {
        case .detail(let id): "detail/\(id)"
        case .edit(let id): "edit/\(id)"
        case .settings: "settings"
        case .about: "about"
        case .day(let date): "day/" + date.isoText
        }
    }

    /// Reads a route back from its description.
    public init?(description: String) {
        switch description {
        case "settings": self = .settings
        case "about": self = .about
        default:
            let parts = description.split(separator: "/")
            if parts.count == 2, parts[0] == "day" {
                guard let date = CivilDate(isoText: parts[1]) else { return nil }
                self = .day(date)
                return
            }
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
        case .settings, .about, .day: nil
        }
    }
}

/// A modal presented over the tasks tab; never part of a path.
public enum Sheet: String, Equatable, Hashable, Sendable {
    case newTask = "new-task"
}

/// Which tasks the list shows.
///
/// The list's default, `all`, shows every task but those waiting (a `wait` still ahead);
/// `filter all` (``every``) shows every task, `filter waiting` only those.
public enum ListFilter: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The default: every task but the waiting ones.
    case all
    /// Open tasks that are not waiting.
    case open
    case done
    /// Open tasks whose `wait` is still ahead.
    case waiting
    /// `filter all`: every task, waiting ones too (typed, linked and shown as `all`).
    case every

    /// The word typed, linked and shown: `all` for both ``all`` and ``every``.
    public var word: String { self == .every ? "all" : rawValue }

    /// The filter a typed word (or a link's) names: `all` is ``every``.
    public init?(word: String) {
        switch word {
        case "all": self = .every
        case "open", "done", "waiting": self.init(rawValue: word)
        default: return nil
        }
    }

    /// The words `filter` takes as a status.
    public static let words = ["all", "open", "done", "waiting"]

    /// Whether a task passes this filter at `now`.
    public func admits(_ task: TaskItem, at now: Instant) -> Bool {
        let waiting = !task.done && task.isWaiting(at: now)
        switch self {
        case .all: return !waiting
        case .open: return !task.done && !waiting
        case .done: return task.done
        case .waiting: return waiting
        case .every: return true
        }
    }
}
