import NavStackCore
import NavStackIO
import NavStackSQLite

/// The shell's one-shot commands: `navstack add WORDS…`, `done ID…`, `modify ID WORDS…`,
/// `annotate ID TEXT`, `delete ID…`, `undo`, `redo`, `list [TERM…]`, `show ID`,
/// `agenda [DATE]`. Each acts on one profile (`--user`, else the signed-in one) and
/// neither reads nor moves the place its sessions keep: a fresh router, which saves no
/// navigation, shows the screens; the changes go to the store alone.
public struct ShellCommand: Sendable {
    /// What a one-shot command is.
    public enum Verb: String, CaseIterable, Sendable {
        case add, done, modify, annotate, delete, undo, redo, list, show, agenda

        /// The change it makes, for those that make one.
        var change: OneShot.Verb? { OneShot.Verb(rawValue: rawValue) }

        var abstract: String {
            switch self {
            case .add: "Add a task: its title, with Taskwarrior's attributes among the words (due:fri +bills)."
            case .done: "Mark tasks done, by ID."
            case .modify: "Change a task in one step with add's words (ATTR: clears, -TAG removes a tag)."
            case .annotate: "Add a dated note to a task."
            case .delete: "Delete tasks (with their subtasks), by ID."
            case .undo: "Undo the newest change to your tasks, and say what it was."
            case .redo: "Redo what undo undid, and say what it was."
            case .list: "Print the task list, filtered by the terms given."
            case .show: "Print a task's detail screen."
            case .agenda: "Print the agenda, or one day of it."
            }
        }

        var arguments: [CommandSpec.Argument] {
            switch self {
            case .add: [.init("word", repeating: true, help: "The title's words and attributes.")]
            case .done, .delete: [.init("id", repeating: true, help: Self.idHelp)]
            case .modify:
                [.init("id", help: Self.idHelp), .init("word", repeating: true, help: "What to change, in add's words.")]
            case .annotate: [.init("id", help: Self.idHelp), .init("text", repeating: true, help: "The note.")]
            case .undo, .redo: []
            case .list: [.init("term", repeating: true, optional: true, help: "Filter terms, as the prompt's filter takes them.")]
            case .show: [.init("id", help: Self.idHelp)]
            case .agenda: [.init("date", repeating: true, optional: true, help: "A DATE: that day's screen.")]
            }
        }

        static let idHelp = "A task's id (the number in its URL), its uuid, or its uuid's first 8 or more hexadecimal digits."
    }

    public static let options: [CommandSpec.Option] =
        StoreOptions.options + [
            .init("user", value: "name", help: "The profile (default: the signed-in one)."),
            App.formatOption,
            .init("width", value: "width", help: "Text width in columns (default: the terminal's, else 80)."),
            .init("page-size", value: "page-size", help: "Rows per list page (default: 20)."),
        ] + App.lookOptions

    /// The entries of every one-shot command.
    public static let entries: [CommandEntry] = Verb.allCases.map { verb in
        var spec = CommandSpec(
            name: "navstack \(verb.rawValue)", abstract: verb.abstract,
            discussion: """
                Acts on the profile --user names, else the signed-in one, and leaves where \
                its sessions are (paths, filters, pages, drafts) as it was. Prints one line \
                saying what it did, or the screen; with --format json, the tasks as JSON \
                objects (one a line), or the screen's JSON. Exit status: 0 when it \
                succeeded, 1 when it failed (nothing is changed), 64 on bad usage.
                """,
            options: options, arguments: verb.arguments)
        spec.takesDashWords = true
        return CommandEntry(name: verb.rawValue, spec: spec, launch: { try ShellCommand(verb, $0).run() })
    }

    let verb: Verb
    let storage: StoreOptions
    let user: String?
    let format: Interpreter.Format
    let width: Int?
    let pageSize: Int?
    let lang: Language?
    let words: [String]

    init(_ verb: Verb, _ parsed: ParsedArguments) throws(UsageError) {
        self.verb = verb
        storage = try StoreOptions(parsed)
        user = parsed.value("user")
        format = try parsed.choice("format", as: Interpreter.Format.self) ?? .text
        width = try parsed.integer("width", in: TextRenderer.minimumWidth...1000)
        pageSize = try parsed.integer("page-size", in: 1...1000)
        lang = try parsed.choice("lang", as: Language.self)
        words = parsed.arguments
    }

    func run() throws {
        let streams = StandardStreams.shared
        let catalog = Catalog(lang ?? Language.from(environment: Terminal.localeEnvironment()))
        let named = try checkedUser(user, streams, command: verb.rawValue)
        let store = try storage.open(streams, catalog: catalog)
        defer { store.close() }
        do {
            let user = try named ?? signedIn(store)
            let autoSync = AutoSync(store: store, streams: streams, memory: storage.memory)
            autoSync?.sync(user, always: true)
            if let change = verb.change {
                let report = try OneShot(change, words).run(user: user, store: store, clock: store.clock, catalog: catalog)
                for line in format == .json ? report.objects : report.lines { streams.write(line + "\n", to: .output) }
            } else {
                try show(user, store, streams, catalog)
            }
            autoSync?.sync(user, always: false)
        } catch let error as NavError {
            streams.write("navstack: \(verb.rawValue): \(error.message(in: catalog))\n", to: .error)
            throw ExitStatus.failure
        }
    }

    /// The profile the last session signed in to.
    private func signedIn(_ store: SQLiteStore) throws -> String {
        guard case .signedIn(let session) = try store.loadPhase() else { throw NavError.noProfileSignedIn }
        return session.user
    }

    /// `list`, `show` and `agenda`: the screen a fresh session of the profile shows there.
    private func show(_ user: String, _ store: SQLiteStore, _ streams: StandardStreams, _ catalog: Catalog) throws {
        try store.openProfile(user, sample: storage.memory || storage.sample)
        var router = Router(
            store: store,
            configuration: .init(
                pageSize: pageSize ?? 20, sampleForNewProfiles: storage.memory || storage.sample,
                storeDescription: storage.memory ? nil : store.path, version: App.version, catalog: catalog,
                savesNavigation: false, clock: store.clock),
            phase: .signedIn(Session(user: user)))
        let text = words.joined(separator: " ")
        switch verb {
        case .list where !words.isEmpty:
            _ = try router.apply(try Command(word: .filter, argument: text))
        case .show:
            let task = try TaskReference.task(text, of: user, in: store)
            _ = try router.apply(.go(try DeepLink(parsing: "tasks/\(task.id)")))
        case .agenda:
            _ = try router.apply(.tab(.agenda))
            if !words.isEmpty { _ = try router.apply(try Command(word: .day, argument: text)) }
        default:
            break
        }
        let window = Terminal.isTTY(1) ? Terminal.size() : nil
        var interpreter = Interpreter(
            router: router, options: .init(format: format, echo: false, numberErrors: false, width: width ?? window?.columns ?? 80))
        try interpreter.launch(to: streams)
    }
}
