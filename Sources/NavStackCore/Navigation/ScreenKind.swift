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
    /// A question over the tasks tab (delete a task with its subtasks?).
    case confirm
    /// The agenda tab's root: what is overdue, due or scheduled, in sections by day.
    case agenda
    /// One day of the agenda.
    case day

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
        case .confirm: .phraseConfirm
        case .agenda: .phraseAgenda
        case .day: .phraseDay
        }
    }

    /// The kind's place in `allCases`.
    var index: Int {
        switch self {
        case .login: 0
        case .list: 1
        case .detail: 2
        case .edit: 3
        case .notFound: 4
        case .account: 5
        case .settings: 6
        case .about: 7
        case .newTask: 8
        case .confirm: 9
        case .agenda: 10
        case .day: 11
        }
    }

    /// The commands of this screen, before the ones available anywhere.
    var ownWords: [CommandWord] {
        switch self {
        case .login: [.login]
        case .list: [.open, .add, .new, .toggle, .done, .modify, .delete, .move, .filter, .find, .sort, .next, .prev, .page]
        case .detail: [.edit, .toggle, .done, .modify, .delete, .open, .add, .new, .move, .next, .prev, .page, .annotate]
        case .confirm: [.yes, .no]
        case .agenda: [.open, .toggle, .done, .modify, .day, .next, .prev, .page]
        case .day: [.open, .toggle, .done, .modify, .next, .prev, .day, .page]
        case .edit, .newTask:
            [.title, .notes, .done, .due, .scheduled, .wait, .until, .recur, .priority, .project, .tag, .save, .cancel]
        case .account: [.settings, .about, .logout]
        case .notFound, .settings, .about: []
        }
    }
}
