/// Every way a command can fail. A failed command changes nothing.
///
/// The words of each message live in ``message``, and only there.
public enum NavError: CatalogError, Equatable, Hashable, Sendable {
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
    /// A value ``FieldRules`` refuses, past what the cases above say.
    case badValue(FieldProblem)
    case blankTitle
    case badDate(String)
    case badPriority(String)
    case badTag(String)
    case badProject(String)
    case badRule(String)
    case badFilterTerm(String)
    /// A rule set on a task without a due date.
    case recurNeedsDue
    /// A recurring task's `until` before its `due`.
    case untilBeforeDue

    // The screen
    case notAvailable(CommandWord, screen: ScreenKind, available: [CommandWord])
    case needsRow(CommandWord)
    case takesNoRow(CommandWord)
    case noSuchRow(Int, rows: Int)
    case noSuchPage(Int, pages: Int)
    case alreadyFirstPage
    case alreadyLastPage(pages: Int)
    /// A day before 0001-01-01 or after 9999-12-31 (the days a link can name).
    case agendaBounds
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
    /// An ID that is not a task's number, uuid or uuid's start.
    case badTaskReference(String)
    /// A uuid's start that several tasks' uuids begin with: "ID uuid" of each (the first few).
    case ambiguousTaskReference(String, matches: [String])
    /// `modify` with nothing to change.
    case modifyNeedsWords
    /// A one-shot command with no `--user` while no profile is signed in.
    case noProfileSignedIn
    case taskVanished(Int)
    /// `login` signed in, but the link waiting for it names a task the profile lacks.
    case linkNotOpened(url: String, id: String)

    // The store
    case store(String)
    // MARK: Store failures with their own message
    /// A store's failure as the store words it, already in the session's language (it
    /// stands alone, without the "store failed" of ``store(_:)``).
    case storeFailure(String)

    // MARK: Rows that moved
    /// A row command named a row of the list as it was shown, and that row now holds
    /// another task (`now`), or none (`nil`).
    case rowMoved(CommandWord, row: Int, shown: String, now: String?)

    // MARK: Conflicts with other writers
    /// `save`: the draft and another writer changed these fields differently.
    case saveConflict(task: String, fields: [TaskField])
    /// `save` or `theirs`: the task the draft edits was deleted elsewhere.
    case draftTaskDeleted(task: String)
    /// `undo` or `redo`: a field the change set has changed since (none named: the task
    /// was deleted or re-created since).
    case changedSince(CommandWord, task: String, fields: [TaskField])

    // MARK: Subtasks
    /// A task would be deeper than ``TreeLimits/depth`` levels (`depth` is how deep).
    case tooDeep(depth: Int)
    /// `move` of a task under itself or one of its own subtasks.
    case moveIntoItself(task: String)
    /// `back to ID` names a task whose detail screen is not on the path.
    case notOnPath(Int)
    /// `undo` or `redo` of a change whose task was moved since, or would be left without
    /// its parent or with subtasks it never had.
    case treeChangedSince(CommandWord, task: String)
    /// A link names a chain of tasks the tree does not have; the task is at `actual`.
    case chainMismatch(url: String, id: Int, actual: String)

    /// The message shown after `error:` or `navstack: line N:`, in English.
    public var message: String { message(in: .english) }

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .lineTooLong(let bytes):
            t(.lineTooLong, ("bytes", bytes), ("limit", Limits.lineBytes))
        case .invalidUTF8:
            t(.invalidUTF8)
        case .nulByte:
            t(.nulByte)
        case .controlCharacter(let scalar):
            t(.controlCharacter, ("character", String(scalar).escapedForDisplay))
        case .unknownCommand(let word, let suggestion?):
            t(.unknownCommandSuggestion, ("word", word), ("suggestion", suggestion.rawValue))
        case .unknownCommand(let word, nil):
            t(.unknownCommand, ("word", word))
        case .missingArgument(let word):
            t(.missingArgument, ("word", word.rawValue), ("noun", t(word.argumentNoun)), ("usage", word.usage))
        case .unexpectedArgument(let word, let text):
            t(.unexpectedArgument, ("text", text), ("word", word.rawValue), ("usage", word.usage))
        case .notANumber(let word, let text):
            t(.notANumber, ("text", text), ("usage", word.usage))
        case .numberBelowOne(let word, let text):
            t(.numberBelowOne, ("text", text), ("noun", t(word.numberNoun)))
        case .numberTooLarge(_, let text):
            t(.numberTooLarge, ("text", text))
        case .badDate(let text): t(.badDate, ("text", text))
        case .badPriority(let text): t(.badPriority, ("text", text))
        case .badTag(let text): t(.badTag, ("text", text))
        case .badProject(let text): t(.badProject, ("text", text))
        case .badRule(let text): t(.badRecur, ("text", text))
        case .recurNeedsDue: t(.recurNeedsDue)
        case .untilBeforeDue: t(.untilBeforeDue)
        case .badFilterTerm(let text): t(.badFilterTerm, ("text", text))
        case .badChoice(let word, let text):
            t(.badChoice, ("text", text), ("choices", word.choices), ("usage", word.usage))
        case .textTooLong(let field, let count, let limit):
            t(.textTooLong, ("field", t(field.phrase)), ("count", count), ("limit", limit))
        case .badValue(let problem):
            problem.message(in: t)
        case .blankTitle:
            t(.blankTitle)
        case .notAvailable(let word, let screen, let available):
            t(
                .notAvailable, ("word", word.rawValue), ("screen", t(screen.phrase)),
                ("available", available.filter { $0 != .exit }.map(\.rawValue).joined(separator: ", ")))
        case .needsRow(let word):
            t(.needsRow, ("word", word.rawValue))
        case .takesNoRow(let word):
            t(.takesNoRow, ("word", word.rawValue))
        case .noSuchRow(let row, let rows):
            t(rows == 0 ? .noSuchRowEmpty : rows == 1 ? .noSuchRowOne : .noSuchRowMany, ("row", row), ("rows", rows))
        case .noSuchPage(let page, let pages):
            t(pages == 1 ? .noSuchPageOne : .noSuchPageMany, ("page", page), ("pages", pages))
        case .alreadyFirstPage:
            t(.alreadyFirstPage)
        case .alreadyLastPage(let pages):
            t(.alreadyLastPage, ("pages", pages))
        case .agendaBounds:
            t(.agendaBounds)
        case .nothingToGoBack:
            t(.nothingToGoBack)
        case .cannotGoBack(let count, let depth):
            t(depth == 1 ? .cannotGoBackOne : .cannotGoBackMany, ("count", count), ("depth", depth))
        case .cannotSaveBlankTitle:
            t(.cannotSaveBlankTitle)
        case .unsavedDraft(let word):
            t(.unsavedDraft, ("word", word.rawValue))
        case .nothingToUndo:
            t(.nothingToUndo)
        case .nothingToRedo:
            t(.nothingToRedo)
        case .foreignScheme(let scheme):
            t(.foreignScheme, ("scheme", scheme))
        case .malformedLink(let text):
            t(.malformedLink, ("text", text))
        case .noSuchTask(let id):
            t(.noSuchTask, ("id", id))
        case .badTaskReference(let text):
            t(.badTaskReference, ("text", text))
        case .ambiguousTaskReference(let text, let matches):
            t(.ambiguousTaskReference, ("text", text), ("matches", matches.joined(separator: ", ")))
        case .modifyNeedsWords:
            t(.modifyNeedsWords)
        case .noProfileSignedIn:
            t(.noProfileSignedIn)
        case .taskVanished(let id):
            t(.taskVanished, ("id", id))
        case .linkNotOpened(let url, let id):
            t(.linkNotOpened, ("url", url), ("id", id))
        case .store(let reason):
            t(.storeFailed, ("reason", reason))
        case .storeFailure(let message):
            message
        case .rowMoved(let word, let row, let shown, let now?):
            t(.rowMoved, ("word", word.rawValue), ("row", row), ("shown", shown.escapedForDisplay), ("now", now.escapedForDisplay))
        case .rowMoved(let word, let row, let shown, nil):
            t(.rowMovedPastTheEnd, ("word", word.rawValue), ("row", row), ("shown", shown.escapedForDisplay))
        case .saveConflict(let task, let fields):
            t(.saveConflict, ("task", task.escapedForDisplay), ("fields", fields.map(\.rawValue).joined(separator: ", ")))
        case .draftTaskDeleted(let task):
            t(.draftTaskDeleted, ("task", task.escapedForDisplay))
        case .changedSince(let word, let task, let fields) where fields.isEmpty:
            t(.changedSinceTask, ("word", word.rawValue), ("task", task.escapedForDisplay))
        case .changedSince(let word, let task, let fields):
            t(
                .changedSince, ("word", word.rawValue), ("task", task.escapedForDisplay),
                ("fields", fields.map(\.rawValue).joined(separator: ", ")))
        case .tooDeep(let depth):
            t(.tooDeep, ("limit", TreeLimits.depth), ("depth", depth))
        case .moveIntoItself(let task):
            t(.moveIntoItself, ("task", task.escapedForDisplay))
        case .treeChangedSince(let word, let task):
            t(.treeChangedSince, ("word", word.rawValue), ("task", task.escapedForDisplay))
        case .notOnPath(let id):
            t(.notOnPath, ("id", id))
        case .chainMismatch(let url, let id, let actual):
            t(.chainMismatch, ("url", url), ("id", id), ("actual", actual))
        }
    }
}

extension CommandWord {
    /// What the argument is called in "needs …" messages.
    var argumentNoun: Phrase {
        switch self {
        case .go: .nounLink
        case .tab: .nounTab
        case .login: .nounName
        case .open, .toggle, .delete: .nounRow
        case .move: .nounMove
        case .back, .backDiscarding: .nounBackTarget
        case .page: .nounPage
        case .filter: .nounFilter
        case .sort: .nounSortKey
        case .title: .nounTitle
        case .done: .nounOnOff
        default: .nounArgument
        }
    }

    /// What the number counts, in "… count from 1".
    var numberNoun: Phrase {
        switch self {
        case .back, .backDiscarding: .countScreens
        case .page: .countPages
        default: .countRows
        }
    }

    /// The allowed words, for "is not one of …".
    var choices: String {
        switch self {
        case .tab: "tasks, agenda, account"
        case .filter: "all, open, done, waiting"
        case .sort: ListSort.words.joined(separator: ", ")
        case .done: "on, off"
        default: usage
        }
    }
}
