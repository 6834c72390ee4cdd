import NavStackCore
import NavStackIO
import NavStackSQLite

/// `navstack watch [URL]`: a screen, printed again each time what it shows changes.
public struct WatchCommand: Subcommand {
    /// How long the store is left between two looks at whether another process wrote it.
    static let lookEveryMilliseconds: Int32 = 200
    /// How often automatic sync runs for a profile with a server.
    static let syncEvery: Duration = .seconds(10)

    public static let spec = CommandSpec(
        name: "navstack watch",
        abstract: "Print the screen at URL (default: where the profile is), then again each time what it shows changes.",
        discussion: """
            Looks five times a second at whether another connection committed to the store \
            (SQLite's data_version: a look that finds nothing costs next to nothing), and then \
            reads the screen again: when what it prints changed (another navstack's command, \
            an import, a sync), it prints it again, in text after a line saying how many of \
            its tasks changed, in --format json as one object a change. A change to another \
            profile, another page or a field the screen does not show prints nothing. A task \
            deleted elsewhere shows the not-found screen, and the watch goes on. It never \
            writes to the store itself: where the profile is stays as it was, and drafts are \
            not touched; for a profile with a sync server, automatic sync runs every 10 s, as \
            any navstack command runs it, so changes from other devices show too \
            (NAVSTACK_SYNC=0 turns it off). It ends on Ctrl-C, SIGTERM or the end of its \
            input when that is a terminal or a pipe (Ctrl-D, a closed pipe; input from \
            /dev/null, as a background job's 'navstack watch … &', does not end it), with \
            status 0.
            """,
        options: StoreOptions.fileOptions + [
            .init("user", value: "name", help: "The profile (default: the signed-in one)."), App.formatOption,
            .init("width", value: "width", help: "Text width in columns (default: the terminal's, else 80)."),
            // No prompt to fit the window around.
            .init("page-size", value: "page-size", help: "Rows per list page (default: 20)."),
        ] + App.lookOptions,
        arguments: [
            .init(
                "url", optional: true, complete: .choices(App.linkCompletions),
                help: "The screen to watch: a navstack:// link or its path (default: where the profile is).")
        ])

    let storage: StoreOptions
    let user: String?
    let format: Interpreter.Format
    let width: Int?
    let pageSize: Int?
    let noColor: Bool
    let lang: Language?
    let link: DeepLink?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(fileOnly: parsed, command: "watch")
        user = parsed.value("user")
        format = try parsed.choice("format", as: Interpreter.Format.self) ?? .text
        width = try parsed.integer("width", in: TextRenderer.minimumWidth...1000)
        pageSize = try parsed.integer("page-size", in: 1...1000)
        noColor = parsed.flag("no-color")
        lang = try parsed.choice("lang", as: Language.self)
        if let text = parsed.arguments.first {
            do {
                link = try DeepLink(parsing: text)
            } catch {
                throw .invalidValue(option: "<url>", value: text.escapedForDisplay, problem: .badLink(error))
            }
        } else {
            link = nil
        }
    }

    public func run() throws {
        let streams = StandardStreams.shared
        let catalog = Catalog(lang ?? Language.from(environment: Terminal.localeEnvironment()))
        let user = try checkedUser(self.user, streams, command: "watch")
        let store = try storage.open(streams, catalog: catalog, creating: false)
        defer { store.close() }
        let phase: Phase
        do {
            phase = try store.loadPhase(user: try store.profile(named: user, existing: true))
        } catch {
            streams.write("navstack: watch: \(App.words(for: error, in: catalog).escapedForDisplay)\n", to: .error)
            throw ExitStatus.failure
        }
        var router = Router(
            store: store,
            configuration: .init(
                pageSize: pageSize ?? 20, storeDescription: store.path, version: App.version, catalog: catalog,
                savesNavigation: false, clock: store.clock),
            phase: phase)
        if let link {
            do {
                _ = try router.apply(.go(link))
            } catch {
                streams.write("navstack: watch: \(error.message(in: catalog))\n", to: .error)
                throw ExitStatus.failure
            }
        }
        let colors = !noColor && Terminal.allowsColor && Terminal.isTTY(1)
        var interpreter = Interpreter(
            router: router,
            options: .init(
                format: format, numberErrors: false, width: width ?? Terminal.size()?.columns ?? 80, style: colors ? .ansi : .plain))
        InputWait.catchStopSignals()
        // Automatic sync, as any navstack command runs it: other devices' changes come in.
        let autoSync = AutoSync(store: store, streams: streams, memory: false)
        let profile = interpreter.router.session?.user
        var syncedAt = ContinuousClock.now
        var staleness = Staleness(clock: store.clock) { try? store.dataVersion() }
        do {
            try interpreter.launch(to: streams)
        } catch {
            streams.write("navstack: watch: \(error.message(in: catalog))\n", to: .error)
            throw ExitStatus.failure
        }
        try flush(streams)
        // Each look asks whether the screen may be stale (``Staleness``); only then is it read.
        while InputWait.wait(milliseconds: Self.lookEveryMilliseconds) == .look {
            // A sync by this connection does not move data_version: it counts as a change.
            var pulled = false
            if let autoSync, ContinuousClock.now - syncedAt >= Self.syncEvery {
                pulled = autoSync.sync(profile, always: true)
                syncedAt = ContinuousClock.now
            }
            guard staleness.isStale(pulled: pulled) else { continue }
            if interpreter.refresh(to: streams) { try flush(streams) }
        }
        try flush(streams)
    }

    /// Writes what waits; a reader that went away ends the watch with status 1.
    private func flush(_ streams: StandardStreams) throws {
        do {
            try streams.flush()
        } catch {
            streams.writeLastWord(App.outputFailure(error))
            throw ExitStatus.failure
        }
    }
}
