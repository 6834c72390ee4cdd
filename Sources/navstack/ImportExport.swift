import NavStackCore
import NavStackIO
import NavStackSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `navstack import`: adds tasks from a JSON array or JSON Lines, all or nothing.
struct Import: Subcommand {
    static let spec = CommandSpec(
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
            """,
        options: StoreOptions.fileOptions + [.init("user", value: "name", help: "The profile (default: the signed-in one).")],
        arguments: [.init("file", complete: .file, help: "The file to read, or - for stdin.")])

    let storage: StoreOptions
    let user: String?
    let file: String

    init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(fileOnly: parsed, command: "import")
        user = parsed.value("user")
        file = parsed.arguments[0]
    }

    func run() throws {
        let streams = StandardStreams.shared
        let user = try checkedUser(self.user, streams, command: "import")
        let source = file == "-" ? "standard input" : file
        let data: [UInt8]
        if file != "-" && Files.kind(of: file) == .folder {
            streams.write("navstack: import: \(Navstack.messageCatalog(.importFileIsFolder, ("path", file)))\n", to: .error)
            throw ExitStatus.failure
        }
        do {
            guard
                let read = file == "-"
                    ? try Files.readAll(0, limit: JSONReader.maximumBytes)
                    : try Files.read(file, limit: JSONReader.maximumBytes)
            else {
                streams.write("navstack: import: \(Navstack.words(for: ImportError.tooLarge(source: source)))\n", to: .error)
                throw ExitStatus.failure
            }
            data = read
        } catch let failure as FileError {
            let what = Navstack.words(for: failure).escapedForDisplay
            streams.write("navstack: import: \(Navstack.messageCatalog(.ioCannotRead, ("what", what)))\n", to: .error)
            throw ExitStatus.failure
        }
        let records: ImportInput
        do {
            records = try SQLiteStore.parseImport(data, source: source)
        } catch {
            streams.write("navstack: import: \(Navstack.words(for: error).escapedForDisplay)\n", to: .error)
            throw ExitStatus.failure
        }
        let store = try storage.open(streams, catalog: Navstack.messageCatalog)
        defer { store.close() }
        do {
            let count = try store.importTasks(records, user: try store.profile(named: user))
            let t = Navstack.messageCatalog
            streams.write((count == 1 ? t(.ioImportedOne) : t(.ioImportedMany, ("count", count))) + "\n", to: .output)
        } catch {
            streams.write("navstack: import: \(Navstack.words(for: error).escapedForDisplay)\n", to: .error)
            throw ExitStatus.failure
        }
    }
}

/// `navstack export`: prints the profile's tasks as a JSON array, in list order.
struct Export: Subcommand {
    static let spec = CommandSpec(
        name: "navstack export",
        abstract:
            "Print the profile's tasks as a JSON array of id, uuid, title, notes, done, parent, in list order, each task's subtasks nested under it.",
        discussion: "A profile that does not exist is an error, as is no --user when no one is signed in.",
        options: StoreOptions.fileOptions + [.init("user", value: "name", help: "The profile (default: the signed-in one).")])

    let storage: StoreOptions
    let user: String?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(fileOnly: parsed, command: "export")
        user = parsed.value("user")
    }

    func run() throws {
        let streams = StandardStreams.shared
        let user = try checkedUser(self.user, streams, command: "export")
        let store = try storage.open(streams, catalog: Navstack.messageCatalog, creating: false)
        defer { store.close() }
        do {
            try store.exportTasks(user: try store.profile(named: user, existing: true)) { text in
                streams.write(text, to: .output)
                if streams.pendingBytes >= Delivery.batchBytes { try streams.flush() }
            }
            try streams.flush()
        } catch let failure as FileError {
            streams.writeLastWord(Navstack.outputFailure(failure))
            throw ExitStatus.failure
        } catch {
            streams.write("navstack: export: \(Navstack.words(for: error).escapedForDisplay)\n", to: .error)
            throw ExitStatus.failure
        }
    }
}

/// `--user NAME` held to the rules of `login NAME`, with the same messages.
func checkedUser(_ user: String?, _ streams: StandardStreams, command: String) throws -> String? {
    guard let user else { return nil }
    do {
        return try Command.loginName(user)
    } catch {
        streams.write("navstack: \(command): --user: \(error.message(in: Navstack.messageCatalog))\n", to: .error)
        throw ExitStatus.failure
    }
}
