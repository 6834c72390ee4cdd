import NavStackCore
import NavStackIO
import NavStackSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `navstack import`: adds tasks from a JSON array or JSON Lines, all or nothing.
public struct Import: Subcommand {
    public static let spec = CommandSpec(
        name: "navstack import",
        abstract: "Add tasks from a JSON array or JSON Lines file, after the profile's tasks.",
        discussion: """
            Each record is {"title": …, "notes"?: …, "done"?: …, "uuid"?: …, "parent"?: …, \
            "subtasks"?: […]}: parent is another record's number (from 0, nested ones counted \
            depth-first) or a task's uuid, and subtasks nests records, to 100 levels. Titles and notes are held \
            to what `title` and `notes` accept at the prompt. The input is strict JSON of at \
            most 256 MiB, arrays and objects nested at most 512 deep; a leading UTF-8 byte \
            order mark is skipped. The import is one transaction: a bad record fails it \
            whole, naming its index (from 0), and nothing is added. The profile is created \
            if missing; --user is held to the rules of `login NAME`.

            --from taskwarrior reads what `task export` prints (Taskwarrior 2.6 or 3: a JSON \
            array, or one object a line) and keeps every attribute: the ones navstack has a \
            field for in it, the rest (user-defined attributes, start, a recurring \
            instance's parent and imask) as custom fields with their text exactly. Pending \
            and waiting tasks are open, completed ones done; deleted tasks are counted, not \
            imported; a series' template is counted and kept whole in its open instance's \
            custom field template, for --to taskwarrior. navstack_notes and navstack_parent \
            (which export --to taskwarrior writes) are the notes and the task it is a subtask \
            of. A uuid another profile of the store holds fails the record. A task whose uuid the profile holds is \
            updated when the record was modified later, never duplicated: importing the \
            same file twice changes nothing the second time. --dry-run says what would be \
            added, updated and left, and writes nothing.

            --from todotxt reads todo.txt, one task a line: x and the completion date, (A) \
            to (Z) (A, B and C are priorities H, M and L; the others a custom field pri), \
            the creation date, +project and @context words (kept in the title, and each a \
            tag), due:, t: (wait) and rec: (the rule); every other key:value is a custom \
            field, except those export --to todotxt writes for navstack's own fields \
            (scheduled:, until:, project:, depends:, notes:, ann:, navstack_parent: and \
            uuid:), which are read back as them. Dates are \
            days in the local time zone, or a day and a time (2026-12-01T09:30). A line \
            without uuid: takes its uuid from its text as export --to todotxt would write \
            it: importing the same file twice changes nothing the second time, and a line \
            with uuid: replaces that task when they differ.
            """,
        options: StoreOptions.fileOptions + [
            .init("user", value: "name", help: "The profile (default: the signed-in one)."),
            .init(
                "from", value: "format", complete: .choices(ForeignFormat.choices),
                help: "The file's format: navstack (the default: navstack's own export), taskwarrior (task export) or todotxt."),
            .init("dry-run", help: "Say what the import would do, and write nothing (with --from taskwarrior or todotxt)."),
        ],
        arguments: [.init("file", complete: .file, help: "The file to read, or - for stdin.")])

    let storage: StoreOptions
    let user: String?
    let file: String
    /// Another program's format; `nil` for navstack's own.
    let from: ForeignFormat?
    let dryRun: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(fileOnly: parsed, command: "import")
        user = parsed.value("user")
        file = parsed.arguments[0]
        from = try ForeignFormat.parsed(parsed, option: "from")
        dryRun = parsed.flag("dry-run")
        if dryRun && from == nil { throw .conflictingOptions("--dry-run", "--from navstack") }
    }

    public func run() throws {
        let streams = StandardStreams.shared
        let user = try checkedUser(self.user, streams, command: "import")
        let source = file == "-" ? "standard input" : file
        let data: [UInt8]
        if file != "-" && Files.kind(of: file) == .folder {
            streams.write("navstack: import: \(App.messageCatalog(.importFileIsFolder, ("path", file)))\n", to: .error)
            throw ExitStatus.failure
        }
        if from == .taskwarrior { return try importTaskwarrior(source: source, user: user, streams) }
        let read: [UInt8]?
        do throws(FileError) {
            read = file == "-" ? try Files.readAll(0, limit: JSONReader.maximumBytes) : try Files.read(file, limit: JSONReader.maximumBytes)
        } catch {
            throw cannotRead(error, streams)
        }
        guard let read else { throw failure(ImportError.tooLarge(source: source), streams) }
        data = read
        if let from { return try importForeign(from, data, source: source, user: user, streams) }
        let records: ImportInput
        do {
            records = try SQLiteStore.parseImport(data, source: source)
        } catch {
            throw failure(error, streams)
        }
        let store = try storage.open(streams, catalog: App.messageCatalog)
        defer { store.close() }
        do {
            let count = try store.importTasks(records, user: try store.profile(named: user))
            let t = App.messageCatalog
            streams.write((count == 1 ? t(.ioImportedOne) : t(.ioImportedMany, ("count", count))) + "\n", to: .output)
        } catch {
            throw failure(error, streams)
        }
    }
}

extension Import {
    /// Says why the import failed, on stderr; the exit status to throw.
    private func failure(_ error: any Error, _ streams: StandardStreams) -> ExitStatus {
        // Each line of the words its own (an import names every bad record on a line).
        for line in App.words(for: error).split(separator: "\n", omittingEmptySubsequences: false) {
            streams.write("navstack: import: \(String(line).escapedForDisplay)\n", to: .error)
        }
        return .failure
    }

    /// `--from taskwarrior`: the file read a block at a time while its records are imported
    /// one at a time, so an export of any size is held neither whole nor as records. A bad
    /// record, or an input past the limit, rolls the import back, and a store the import
    /// made is removed.
    private func importTaskwarrior(source: String, user: String?, _ streams: StandardStreams) throws {
        let input: Files.BlockReader
        do {
            input = try Files.BlockReader(path: file == "-" ? nil : file, limit: JSONReader.maximumBytes)
        } catch {
            throw cannotRead(error, streams)
        }
        guard !input.passedLimit else { throw failure(ImportError.tooLarge(source: source), streams) }
        try importForeign(.taskwarrior, source: source, user: user, streams) { each in
            try TaskwarriorReader.read(
                source: source,
                more: {
                    guard let block = try input.next() else {
                        if input.passedLimit { throw ImportError.tooLarge(source: source) }
                        return nil
                    }
                    return block
                }, each: each)
        }
    }

    /// Says that the input could not be read, on stderr; the exit status to throw.
    private func cannotRead(_ error: FileError, _ streams: StandardStreams) -> ExitStatus {
        let what = App.words(for: error).escapedForDisplay
        streams.write("navstack: import: \(App.messageCatalog(.ioCannotRead, ("what", what)))\n", to: .error)
        return .failure
    }

    /// `--from todotxt`: reads every line, then imports the tasks in one transaction (or, with
    /// `--dry-run`, only counts what it would do).
    private func importForeign(_ format: ForeignFormat, _ data: [UInt8], source: String, user: String?, _ streams: StandardStreams)
        throws
    {
        let records: [TaskwarriorRecord]
        do {
            records = try TodoTxtReader.read(data, source: source, zone: StoreOptions.clock().zone)
        } catch {
            throw failure(error, streams)
        }
        try importForeign(format, source: source, user: user, streams) { each in
            for (index, record) in records.enumerated() { try each(record, index) }
            return []
        }
    }

    /// Imports the records `read` gives in one transaction (or, with `--dry-run`, only counts
    /// what it would do), and says what it did.
    private func importForeign(
        _ format: ForeignFormat, source: String, user: String?, _ streams: StandardStreams,
        reading read: (_ each: (TaskwarriorRecord, Int) throws -> Void) throws -> [(instance: String, template: String)]
    ) throws {
        let store = try storage.open(streams, catalog: App.messageCatalog)
        var imported = false
        // A dry run writes nothing: a store it had to make to read is removed again.
        defer { imported && !dryRun ? store.close() : store.closeRemovingIfUnused() }
        do {
            let done = try store.importTaskwarrior(user: try store.profile(named: user), dryRun: dryRun, reading: read)
            imported = true
            let t = App.messageCatalog
            // todo.txt has no deleted tasks nor templates.
            let line =
                format == .todotxt
                ? t(
                    dryRun ? .importDryRunLines : .importSummaryLines, ("added", done.added), ("updated", done.updated),
                    ("unchanged", done.unchanged))
                : t(
                    dryRun ? .importDryRun : .importSummary, ("added", done.added), ("updated", done.updated),
                    ("unchanged", done.unchanged), ("deleted", done.deleted), ("templates", done.templates))
            streams.write(line + "\n", to: .output)
        } catch let error as FileError {
            throw cannotRead(error, streams)
        } catch {
            throw failure(error, streams)
        }
    }
}

/// `navstack export`: prints the profile's tasks as a JSON array, in list order, or in
/// Taskwarrior's or todo.txt's format.
public struct Export: Subcommand {
    public static let spec = CommandSpec(
        name: "navstack export",
        abstract:
            "Print the profile's tasks as a JSON array of id, uuid, title, notes, done, parent, in list order, each task's subtasks nested under it.",
        discussion: """
            A profile that does not exist is an error, as is no --user when no one is signed in.

            --to taskwarrior prints what `task import` takes: a JSON array, one task a line, \
            with Taskwarrior's attributes and dates. Custom fields go back as the attributes \
            they came from; a series' template comes back as it was imported (one is made \
            for a series begun in navstack); notes and subtask links travel as navstack_notes \
            and navstack_parent, which --from taskwarrior reads back.

            --to todotxt prints todo.txt, a line a task: x and the dates, (A) to (C) for \
            priorities H, M and L, the title, +TAG for tags the title does not show, due:, \
            t: and rec:, then scheduled:, until:, project:, depends:, notes:, ann: and the \
            custom fields (spaces and line feeds as %20 and %0A), and uuid: when the line's \
            text alone would not give the task back. Dates are days in the local time zone, \
            with the time when it is not midnight.
            """,
        options: StoreOptions.fileOptions + [
            .init("user", value: "name", help: "The profile (default: the signed-in one)."),
            .init(
                "to", value: "format", complete: .choices(ForeignFormat.choices),
                help: "The format: navstack (the default), taskwarrior (what task import takes) or todotxt."),
        ])

    let storage: StoreOptions
    let user: String?
    /// Another program's format; `nil` for navstack's own.
    let format: ForeignFormat?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(fileOnly: parsed, command: "export")
        user = parsed.value("user")
        format = try ForeignFormat.parsed(parsed, option: "to")
    }

    public func run() throws {
        let streams = StandardStreams.shared
        let user = try checkedUser(self.user, streams, command: "export")
        let store = try storage.open(streams, catalog: App.messageCatalog, creating: false)
        defer { store.close() }
        do {
            let profile = try store.profile(named: user, existing: true)
            let write = { (text: String) throws in
                streams.write(text, to: .output)
                if streams.pendingBytes >= Delivery.batchBytes { try streams.flush() }
            }
            if let format {
                try store.exportTasks(to: format, user: profile, clock: store.clock, write: write)
            } else {
                try store.exportTasks(user: profile, write: write)
            }
            try streams.flush()
        } catch let failure as FileError {
            streams.writeLastWord(App.outputFailure(failure))
            throw ExitStatus.failure
        } catch {
            streams.write("navstack: export: \(App.words(for: error).escapedForDisplay)\n", to: .error)
            throw ExitStatus.failure
        }
    }
}

extension ForeignFormat {
    /// What `--from` and `--to` take: `navstack` (the default), then the others.
    static let choices = ["navstack"] + allCases.map(\.rawValue)

    /// The format `--OPTION` names; `nil` for navstack's own (or none given).
    static func parsed(_ parsed: ParsedArguments, option: String) throws(UsageError) -> ForeignFormat? {
        guard let name = parsed.value(option), name != "navstack" else { return nil }
        guard let format = ForeignFormat(rawValue: name) else {
            throw .invalidValue(option: "--" + option, value: name.escapedForDisplay, problem: .notOneOf(choices))
        }
        return format
    }
}
