/// Which screen is shown; the raw value is the JSON `screen` field.
public enum ScreenKind: String, CaseIterable, Equatable, Hashable, Sendable {
    case login
    case list
    case detail
    case edit
    case notFound = "not-found"
    case account
    case settings
    case about
    case newTask = "new-task"

    /// The screen as named in messages: "not available on the task list".
    public var phrase: String {
        switch self {
        case .login: "the login screen"
        case .list: "the task list"
        case .detail: "the task detail"
        case .edit: "the edit screen"
        case .notFound: "the not-found screen"
        case .account: "the account screen"
        case .settings: "the settings screen"
        case .about: "the about screen"
        case .newTask: "the new-task sheet"
        }
    }

    /// The commands of this screen, before the ones available anywhere.
    var ownWords: [CommandWord] {
        switch self {
        case .login: [.login]
        case .list: [.open, .add, .new, .toggle, .delete, .filter, .find, .next, .prev, .page]
        case .detail: [.edit, .toggle, .delete]
        case .edit, .newTask: [.title, .notes, .done, .save, .cancel]
        case .account: [.settings, .about, .logout]
        case .notFound, .settings, .about: []
        }
    }
}
