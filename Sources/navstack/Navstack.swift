import ArgumentParser
import NavStackCore

extension Interpreter.Format: ExpressibleByArgument {}

/// The navstack command: options, the store, the line reader, the loop.
@main
struct Navstack: ParsableCommand {
    static let version = "0.2.0"

    static let configuration = CommandConfiguration(
        commandName: "navstack",
        abstract: "A task app whose every screen lives on a NavigationStack-style path.",
        discussion: """
            Reads one command a line: from the terminal (with line editing, history and \
            Tab completion), from a pipe, or from -c options. Type 'help' on any screen \
            for its commands. Deep links: navstack://tasks, tasks/ID, tasks/ID/edit, \
            tasks/new, account, account/settings, account/about.

            Tasks and where you were are kept in one SQLite file: --store PATH, else \
            $NAVSTACK_STORE, else $XDG_DATA_HOME/navstack/navstack.sqlite \
            (~/.local/share/navstack/navstack.sqlite).

            Exit status: 0 when every command succeeded, 1 when one failed, 64 on bad usage.
            """,
        version: version,
        subcommands: [Import.self, Export.self, TestCommand.self]
    )

    @OptionGroup var storage: StoreOptions

    @Option(help: "Output format: text or json (one JSON object a line).")
    var format: Interpreter.Format = .text

    @Flag(help: "Print each input line, prefixed '> ', before its output.")
    var echo = false

    @Flag(help: "Stop at the first command that fails.")
    var bail = false

    @Option(name: .customLong("open"), help: ArgumentHelp("Open a deep link at launch (after login when signed out).", valueName: "url"))
    var link: String?

    @Option(help: "Text width in columns (default: the terminal's, else 80).")
    var width: Int?

    @Option(help: "Rows per list page (default: fits the terminal, else 20).")
    var pageSize: Int?

    @Option(name: .customShort("c"), help: ArgumentHelp("Run this command instead of reading stdin (repeatable).", valueName: "command"))
    var commands: [String] = []

    @Flag(help: "Never use colour.")
    var noColor = false

    @Option(help: "Language of screens and messages: en, pt or es.")
    var lang: String?

    func validate() throws {
        if let width, !(TextRenderer.minimumWidth...1000).contains(width) {
            throw ValidationError("--width must be between \(TextRenderer.minimumWidth) and 1000 (got \(width))")
        }
        if let pageSize, !(1...1000).contains(pageSize) {
            throw ValidationError("--page-size must be between 1 and 1000 (got \(pageSize))")
        }
        if let link {
            do { _ = try DeepLink(parsing: link) } catch { throw ValidationError("--open: \(error.message)") }
        }
        if let lang, Language(rawValue: lang) == nil {
            throw ValidationError("--lang must be en, pt or es (got '\(lang)')")
        }
    }

    /// The language: `--lang`, else the locale's.
    var catalog: Catalog {
        Catalog(lang.flatMap(Language.init(rawValue:)) ?? Language.from(environment: Terminal.localeEnvironment()))
    }

    func run() throws {
        let streams = StandardStreams()
        let catalog = catalog
        let store = try storage.open(streams, catalog: catalog)
        defer { store.close() }
        let interactive = commands.isEmpty && Terminal.isTTY(0) && Terminal.isTTY(1)
        let window = Terminal.isTTY(1) ? Terminal.size() : nil
        var launchFailed = false
        var phase: Phase
        do {
            phase = try store.loadPhase()
        } catch {
            streams.write("navstack: \(error)\n", to: .error)
            throw ExitCode.failure
        }
        let colors = !noColor && Terminal.allowsColor
        let openLink = link.flatMap { try? DeepLink(parsing: $0) }  // checked by validate()
        if let openLink, case .signedOut = phase {
            phase = .signedOut(pending: openLink)
        }
        var router = Router(
            store: store,
            configuration: .init(
                pageSize: pageSize ?? 20,
                sampleForNewProfiles: storage.memory || storage.sample,
                storeDescription: storage.memory ? nil : store.path,
                version: Self.version,
                catalog: catalog),
            phase: phase)
        if let openLink, router.session != nil {
            do {
                _ = try router.apply(.go(openLink))
            } catch {
                streams.write("navstack: --open: \(error.message(in: catalog))\n", to: .error)
                launchFailed = true
            }
        }
        let shell = Shell(Interpreter(router: router, options: .init(
            format: format, echo: echo, numberErrors: !interactive, width: width ?? window?.columns ?? 80,
            style: colors && Terminal.isTTY(1) ? .ansi : .plain, colorErrors: colors && Terminal.isTTY(2))))
        fitToWindow(shell, window)

        do {
            try shell.interpreter.launch(to: streams)
        } catch {
            streams.write("navstack: \(error.message(in: catalog))\n", to: .error)
            throw ExitCode.failure
        }
        var reader: any LineReader = commands.isEmpty ? PipedLineReader(willWait: streams.flush) : ArgumentLineReader(commands)
        if interactive, let editor = EditLineReader(
            historyPath: EditLineReader.defaultHistoryPath(),
            complete: { text in shell.interpreter.router.completions(for: text) }) {
            reader = editor
        }
        while true {
            if interactive { streams.flush() }
            let prompt = (shell.interpreter.router.session?.link.path ?? "login") + "> "
            guard let line = reader.next(prompt: prompt) else { break }
            if interactive { fitToWindow(shell, Terminal.size()) }  // the window may have been resized while typing
            let outcome = shell.interpreter.handle(line.bytes, length: line.length, to: streams)
            if outcome == .quit || (outcome == .failed && bail) { break }
        }
        streams.flush()
        if shell.interpreter.failures > 0 || launchFailed { throw ExitCode.failure }
    }
}

extension Navstack {
    /// On a terminal, screens take its width and the list as many rows as leave the
    /// whole screen and the prompt visible, unless --width or --page-size say otherwise.
    func fitToWindow(_ shell: Shell, _ window: (columns: Int, rows: Int)?) {
        guard let window else { return }
        if width == nil { shell.interpreter.options.width = window.columns }
        if pageSize == nil {
            let chrome = shell.interpreter.renderer.listChromeLines(actions: Router.listActions)
            shell.interpreter.router.setPageSize(max(1, window.rows - chrome - 1))
        }
    }
}

/// The interpreter, shared with the completion callback so Tab sees the current screen.
final class Shell {
    var interpreter: Interpreter

    init(_ interpreter: Interpreter) {
        self.interpreter = interpreter
    }
}
