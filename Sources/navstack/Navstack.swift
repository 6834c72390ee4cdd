import NavStackApp
import NavStackBytes
import NavStackCore
import NavStackIO
import NavStackSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The navstack command: options, the store, the line reader, the loop.
@main
struct Navstack: Subcommand {
    static let version = App.version

    static let subcommands =
        [
            Import.entry, Export.entry, WatchCommand.entry, SyncCommand.entry, TestCommand.entry, CompletionCommand.entry,
            ManPageCommand.entry,
        ] + ShellCommand.entries

    static let spec = CommandSpec(
        name: "navstack",
        abstract: "A task app whose every screen lives on a NavigationStack-style path.",
        discussion: """
            Reads one command a line: from the terminal (with line editing, history and \
            Tab completion), from a pipe, or from -c options. Type 'help' on any screen \
            for its commands. Deep links: navstack://tasks[?filter=F&q=TEXT&page=N], \
            tasks/ID (or its chain, tasks/ID/ID…), tasks/ID/edit, tasks/new, tasks/ID/new, \
            agenda, agenda/YYYY-MM-DD, agenda[/YYYY-MM-DD]/ID…[/edit], account, \
            account/settings, account/about.

            Tasks and where you were are kept in one SQLite file: --store PATH, else \
            $NAVSTACK_STORE, else $XDG_DATA_HOME/navstack/navstack.sqlite \
            (~/.local/share/navstack/navstack.sqlite).

            The options --store, --memory and --sample (and a subcommand's --user) may \
            also come before a subcommand: navstack --store s.sqlite import tasks.json. \
            Shell completion: navstack completion bash|zsh|fish; the manual page: \
            navstack man-page.

            Exit status: 0 when every command succeeded, 1 when one failed, 64 on bad usage.
            """,
        options: StoreOptions.options + [App.formatOption] + [
            .init(
                "echo", help: "Print each input line, prefixed '> ', before its output (with --format json: as an {\"echo\": …} object)."),
            .init("bail", help: "Stop at the first command that fails."),
            .init(
                "open", value: "url", complete: .choices(App.linkCompletions),
                help: "Open a deep link at launch (after login when signed out)."
            ),
            .init("width", value: "width", help: "Text width in columns (default: the terminal's, else 80)."),
            .init("page-size", value: "page-size", help: "Rows per list page (default: fits the terminal, else 20)."),
            .init("", short: "c", value: "command", repeatable: true, help: "Run this command instead of reading stdin (repeatable)."),
        ] + App.lookOptions,
        subcommands: subcommands.map { ($0.name, $0.spec.abstract) })

    /// Parses the command line and runs what it names; returns the exit status.
    ///
    /// The process ends with `_exit`, after its output is written (and C's own buffers
    /// flushed): no library's clean-up at exit runs. A sync past its deadline leaves a
    /// thread at work in OpenSSL (reading 20,001 authorities, say), and OpenSSL's clean-up
    /// freed its tables under that thread, which crashed (SIGSEGV, 3 runs in 10); nothing
    /// of navstack's own waits for the clean-up (its stores commit as each step ends).
    static func main() {
        Files.keepFreedMemory()
        let streams = StandardStreams.shared
        let status = delivered(run(Array(CommandLine.arguments.dropFirst()), streams), streams)
        fflush(nil)
        _exit(status)
    }

    /// Writes what is still waiting before the process exits with `status`; when it
    /// cannot be written, says so on stderr and exits 1.
    static func delivered(_ status: Int32, _ streams: StandardStreams) -> Int32 {
        // A failed write was reported where it happened.
        if streams.failure != nil { return status == 0 ? 1 : status }
        do {
            try streams.flush()
            return status
        } catch {
            streams.writeLastWord(App.outputFailure(error))
            return status == 0 ? 1 : status
        }
    }

    static func run(_ words: [String], _ streams: StandardStreams) -> Int32 {
        let catalog = App.usageCatalog(words)
        // Every door refuses text that is not UTF-8: an argument too, before it is read.
        if let index = ProcessArguments.firstNotUTF8() {
            streams.write("navstack: argument \(index): \(NavError.invalidUTF8.message(in: catalog))\n", to: .error)
            return 64
        }
        var words = words[...]
        var command = Navstack.entry
        if let first = words.first {
            if first == "help" {
                words.removeFirst()
                guard let name = words.first else { return show(spec.help(in: catalog), streams) }
                guard words.count == 1, let named = subcommands.first(where: { $0.name == name }) else {
                    let error = UsageError.noSuchHelpTopic(words.joined(separator: " "), topics: subcommands.map(\.name))
                    streams.write(spec.errorText(error, in: catalog), to: .error)
                    return 64
                }
                return show(named.spec.help(in: catalog), streams)
            }
            // Options that come before the subcommand are read as the subcommand's own.
            if let index = CommandSpec.subcommandIndex(in: Array(words), among: subcommands.map(\.spec), root: spec),
                let named = subcommands.first(where: { $0.name == words[words.startIndex + index] })
            {
                command = named
                words.remove(at: words.startIndex + index)
            }
        }
        let spec = command.spec
        let parsed: ParsedArguments
        do {
            switch try spec.parse(words) {
            case .help: return show(spec.help(in: catalog), streams)
            case .version: return show(version + "\n", streams)
            case .run(let arguments): parsed = arguments
            }
        } catch {
            return usageError(error, of: spec, catalog, streams)
        }
        do {
            try command.launch(parsed)
            return 0
        } catch let error as UsageError {
            return usageError(error, of: spec, catalog, streams)
        } catch let status as ExitStatus {
            return status.code
        } catch {
            streams.write("navstack: \(App.words(for: error, in: catalog))\n", to: .error)
            return 1
        }
    }

    private static func usageError(
        _ error: UsageError, of spec: CommandSpec, _ catalog: Catalog,
        _ streams: StandardStreams
    ) -> Int32 {
        streams.write(spec.errorText(error, in: catalog), to: .error)
        return 64
    }

    private static func show(_ text: String, _ streams: StandardStreams) -> Int32 {
        streams.write(text, to: .output)
        return 0
    }

    let storage: StoreOptions
    let format: Interpreter.Format
    let echo: Bool
    let bail: Bool
    /// `--open`, parsed.
    let link: DeepLink?
    let width: Int?
    let pageSize: Int?
    let commands: [String]
    let noColor: Bool
    let lang: Language?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(parsed)
        format = try parsed.choice("format", as: Interpreter.Format.self) ?? .text
        echo = parsed.flag("echo")
        bail = parsed.flag("bail")
        width = try parsed.integer("width", in: TextRenderer.minimumWidth...1000)
        pageSize = try parsed.integer("page-size", in: 1...1000)
        commands = parsed.values["c"] ?? []
        noColor = parsed.flag("no-color")
        lang = try parsed.choice("lang", as: Language.self)
        if let text = parsed.value("open") {
            do {
                link = try DeepLink(parsing: text)
            } catch {
                throw .invalidValue(option: "--open", value: text, problem: .badLink(error))
            }
        } else {
            link = nil
        }
    }

    /// The language: `--lang`, else the locale's.
    var catalog: Catalog {
        Catalog(lang ?? Language.from(environment: Terminal.localeEnvironment()))
    }

    func run() throws {
        let streams = StandardStreams.shared
        let catalog = catalog
        let store = try storage.open(streams, catalog: catalog)
        defer { store.close() }
        // A burst of commands is committed together, before any of their answers is printed.
        store.defersCommits = true
        let delivery = Delivery(store: store, streams: streams)
        let interactive = commands.isEmpty && Terminal.isTTY(0) && Terminal.isTTY(1)
        let window = Terminal.isTTY(1) ? Terminal.size() : nil
        var launchFailed = false
        var phase: Phase
        do {
            phase = try store.loadPhase()
        } catch {
            streams.write("navstack: \(App.words(for: error, in: catalog))\n", to: .error)
            throw ExitStatus.failure
        }
        let colors = !noColor && Terminal.allowsColor
        if let link, case .signedOut = phase {
            phase = .signedOut(pending: link)
        }
        var router = Router(
            store: store,
            configuration: .init(
                pageSize: pageSize ?? 20,
                sampleForNewProfiles: storage.memory || storage.sample,
                storeDescription: storage.memory ? nil : store.path,
                version: Self.version,
                catalog: catalog,
                savesNavigation: !storage.memory, clock: store.clock),
            phase: phase)
        // A profile with a sync server catches up before its first screen.
        let autoSync = AutoSync(store: store, streams: streams, memory: storage.memory)
        autoSync?.sync(router.session?.user, always: true)
        if let link, router.session != nil {
            do {
                _ = try router.apply(.go(link))
            } catch {
                streams.write("navstack: --open: \(error.message(in: catalog))\n", to: .error)
                launchFailed = true
            }
        }
        let shell = Shell(
            Interpreter(
                router: router,
                options: .init(
                    format: format, echo: echo, numberErrors: !interactive, width: width ?? window?.columns ?? 80,
                    style: colors && Terminal.isTTY(1) ? .ansi : .plain, colorErrors: colors && Terminal.isTTY(2))))
        fitToWindow(shell, window)

        do {
            try shell.interpreter.launch(to: streams)
        } catch {
            streams.write("navstack: \(error.message(in: catalog))\n", to: .error)
            throw ExitStatus.failure
        }
        var reader: any LineReader =
            commands.isEmpty
            ? PipedLineReader(willWait: delivery.deliver) : ArgumentLineReader(commands)
        // A store in memory reads and writes no file, history included.
        let historyPath = interactive && !storage.memory ? EditLineReader.defaultHistoryPath() : nil
        if let historyPath, !EditLineReader.isPlainFile(historyPath) {
            streams.write("navstack: \(catalog(.ioHistoryNotKept, ("path", historyPath.escapedForDisplay)))\n", to: .error)
        }
        if interactive,
            let editor = EditLineReader(
                historyPath: historyPath, complete: { text in shell.interpreter.router.completions(for: text) },
                idle: storage.memory ? nil : screenKeptTrue(shell, store, streams))
        {
            reader = editor
        }
        // The loop: read a line, apply it, and deliver the answers (commit, then print)
        // before waiting for more, when enough waits, and at the end.
        while !delivery.failed {
            if interactive {
                guard delivery.deliver() else { break }
                // What a sync brought that the screen shows is printed before the prompt
                // (this process's own writes do not move the store's data_version).
                if autoSync?.sync(shell.interpreter.router.session?.user, always: false) == true,
                    shell.interpreter.refresh(to: streams)
                {
                    guard delivery.deliver() else { break }
                }
            }
            guard let line = reader.next(prompt: { (shell.interpreter.router.session?.link.path ?? "login") + "> " })
            else { break }
            if interactive { fitToWindow(shell, Terminal.size()) }  // the window may have been resized while typing
            let outcome = shell.interpreter.handle(line.bytes, length: line.length, to: streams)
            if outcome == .quit || (outcome == .failed && bail) { break }
            if streams.pendingBytes >= Delivery.batchBytes { _ = delivery.deliver() }
        }
        if !delivery.failed, let failure = reader.failure {
            streams.write("navstack: \(catalog(.ioCannotReadInput, ("reason", failure)))\n", to: .error)
            launchFailed = true
        }
        if delivery.failed || !delivery.deliver() { throw ExitStatus.failure }
        if !interactive { autoSync?.sync(shell.interpreter.router.session?.user, always: false) }
        if shell.interpreter.failures > 0 || launchFailed { throw ExitStatus.failure }
    }
}

extension Navstack {
    /// While the prompt waits: when the screen may be stale (``Staleness``: another
    /// process committed to the store, or the day changed) and what it shows changed, the
    /// screen is printed again above the prompt (from the start of its line, which is
    /// cleared) after a line saying what changed. The line being typed is drawn again
    /// under it by libedit; a draft is never changed.
    func screenKeptTrue(_ shell: Shell, _ store: SQLiteStore, _ streams: StandardStreams) -> () -> Bool {
        var staleness = Staleness(clock: store.clock) { try? store.dataVersion() }
        return {
            guard staleness.isStale() else { return false }
            guard shell.interpreter.refresh(before: "\r\u{1B}[J", to: streams) else { return false }
            do {
                try streams.flush()
            } catch {
                return false
            }
            return true
        }
    }

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
