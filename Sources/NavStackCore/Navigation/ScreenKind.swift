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

    /// The screen as messages name it: "not available on the task list".
    public var phrase: Phrase {
        switch self {
        case .login: .phraseLogin
        case .list: .phraseList
        case .detail: .phraseDetail
        case .edit: .phraseEdit
        case .notFound: .phraseNotFound
        case .account: .phraseAccount
        case .settings: .phraseSettings
        case .about: .phraseAbout
        case .newTask: .phraseNewTask
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
