/// Every way a command can fail. A failed command changes nothing.
///
/// The words of each message live in ``message``, and only there.
public enum NavError: Error, Equatable, Hashable, Sendable {
    // The line itself
    case lineTooLong(bytes: Int)
    case invalidUTF8
    case nulByte
    case controlCharacter(Unicode.Scalar)

    // Words and arguments
    case unknownCommand(String, suggestion: CommandWord?)
    case missingArgument(CommandWord)
    case unexpectedArgument(CommandWord, String)
    case notANumber(CommandWord, String)
    case numberBelowOne(CommandWord, String)
    case numberTooLarge(CommandWord, String)
    case badChoice(CommandWord, String)
    case textTooLong(TextField, count: Int, limit: Int)
    case blankTitle

    // The screen
    case notAvailable(CommandWord, screen: ScreenKind, available: [CommandWord])
    case needsRow(CommandWord)
    case takesNoRow(CommandWord)
    case noSuchRow(Int, rows: Int)
    case noSuchPage(Int, pages: Int)
    case alreadyFirstPage
    case alreadyLastPage(pages: Int)
    case nothingToGoBack
    case cannotGoBack(Int, depth: Int)
    case cannotSaveBlankTitle
    case unsavedDraft(CommandWord)
    case nothingToUndo
    case nothingToRedo

    // Links and tasks
    case foreignScheme(String)
    case malformedLink(String)
    case noSuchTask(String)
    case taskVanished(Int)

    // The store
    case store(String)

    /// The message shown after `error:` or `navstack: line N:`.
    public var message: String {
        switch self {
        case .lineTooLong(let bytes):
            "line too long (\(bytes) bytes; the limit is \(Limits.lineBytes))"
        case .invalidUTF8:
            "line is not valid UTF-8"
        case .nulByte:
            "line contains a NUL byte"
        case .controlCharacter(let scalar):
            "line contains the control character \(String(scalar).escapedForDisplay); type plain text"
        case .unknownCommand(let word, let suggestion?):
            "unknown command '\(word)'; did you mean '\(suggestion.rawValue)'? (help lists the commands)"
        case .unknownCommand(let word, nil):
            "unknown command '\(word)' (help lists the commands)"
        case .missingArgument(let word):
            "'\(word.rawValue)' needs \(word.argumentNoun): \(word.usage)"
        case .unexpectedArgument(let word, let text):
            "unexpected '\(text)' after '\(word.rawValue)': \(word.usage)"
        case .notANumber(let word, let text):
            "'\(text)' is not a number: \(word.usage)"
        case .numberBelowOne(let word, let text):
            "'\(text)' is not allowed: \(word.numberNoun) count from 1"
        case .numberTooLarge(_, let text):
            "'\(text)' is too large"
        case .badChoice(let word, let text):
            "'\(text)' is not one of \(word.choices): \(word.usage)"
        case .textTooLong(let field, let count, let limit):
            "\(field.rawValue) too long (\(count) characters; the limit is \(limit))"
        case .blankTitle:
            "a title cannot be blank"
        case .notAvailable(let word, let screen, let available):
            "'\(word.rawValue)' is not available on \(screen.phrase); here: "
                + available.filter { $0 != .exit }.map(\.rawValue).joined(separator: ", ")
        case .needsRow(let word):
            "'\(word.rawValue)' on the list needs a row number: \(word.rawValue) N"
        case .takesNoRow(let word):
            "'\(word.rawValue)' here takes no row number; it acts on this task"
        case .noSuchRow(let row, let rows):
            rows == 0 ? "there is no row \(row): the list is empty"
                : "there is no row \(row): the list has \(rows == 1 ? "1 row" : "\(rows) rows")"
        case .noSuchPage(let page, let pages):
            "there is no page \(page): the list has \(pages == 1 ? "1 page" : "\(pages) pages")"
        case .alreadyFirstPage:
            "already on the first page"
        case .alreadyLastPage(let pages):
            "already on the last page (page \(pages) of \(pages))"
        case .nothingToGoBack:
            "nothing to go back to: this is the root of the tab"
        case .cannotGoBack(let count, let depth):
            "cannot go back \(count) screens: only \(depth) \(depth == 1 ? "is" : "are") open above the root"
        case .cannotSaveBlankTitle:
            "cannot save: the title is blank (set it with: title TEXT)"
        case .unsavedDraft(let word):
            "'\(word.rawValue)' would discard unsaved changes: save them, cancel them, or use back! to discard"
        case .nothingToUndo:
            "nothing to undo"
        case .nothingToRedo:
            "nothing to redo"
        case .foreignScheme(let scheme):
            "'\(scheme)://' links are not navstack links: use navstack://… (help go lists them)"
        case .malformedLink(let text):
            "'\(text)' is not a navstack link (help go lists them)"
        case .noSuchTask(let id):
            "there is no task \(id)"
        case .taskVanished(let id):
            "task \(id) no longer exists"
        case .store(let reason):
            "store failed: \(reason)"
        }
    }
}

extension CommandWord {
    /// What the argument is called in "needs …" messages.
    var argumentNoun: String {
        switch self {
        case .go: "a link"
        case .tab: "a tab"
        case .login: "a name"
        case .open, .toggle, .delete: "a row number"
        case .page: "a page number"
        case .filter: "a filter"
        case .title: "a title"
        case .done: "on or off"
        default: "an argument"
        }
    }

    /// What the number counts, in "… count from 1".
    var numberNoun: String {
        switch self {
        case .back, .backDiscarding: "screens"
        case .page: "pages"
        default: "rows"
        }
    }

    /// The allowed words, for "is not one of …".
    var choices: String {
        switch self {
        case .tab: "tasks, account"
        case .filter: "all, open, done"
        case .done: "on, off"
        default: usage
        }
    }
}
