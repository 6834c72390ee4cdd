#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavStackCore
import NavStackSQLite

/// `navstack import`: adds tasks from a JSON array or JSON Lines, all or nothing.
struct Import: Subcommand {
    static let spec = CommandSpec(
        name: "navstack import",
        abstract: "Add tasks from a JSON array or JSON Lines file, after the profile's tasks.",
        discussion: """
            Each record is {"title": …, "notes"?: …, "done"?: …}. The import is one \
            transaction: a bad record fails it whole, naming its index (from 0), and \
            nothing is added. The profile is created if missing.
            """,
        options: StoreOptions.options + [.init("user", value: "name", help: "The profile (default: the signed-in one).")],
        arguments: [.init("file", complete: .file, help: "The file to read, or - for stdin.")])

    let storage: StoreOptions
    let user: String?
    let file: String

    init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(parsed)
        user = parsed.value("user")
        file = parsed.arguments[0]
    }

    func run() throws {
        let streams = StandardStreams()
        let data: [UInt8]
        do {
            data = file == "-" ? try Files.readAll(0) : try Files.read(file)
        } catch {
            streams.write("navstack: import: cannot read \(error)\n", to: .error)
            throw ExitStatus.failure
        }
        let store = try storage.open(streams)
        defer { store.close() }
        do {
            let records = try SQLiteStore.parseImport(data)
            let count = try store.importTasks(records, user: try store.profile(named: user))
            streams.write("imported \(count) task\(count == 1 ? "" : "s")\n", to: .output)
            streams.flush()
        } catch {
            streams.write("navstack: import: \(error)\n", to: .error)
            throw ExitStatus.failure
        }
    }
}

/// `navstack export`: prints the profile's tasks as a JSON array, in list order.
struct Export: Subcommand {
    static let spec = CommandSpec(
        name: "navstack export",
        abstract: "Print the profile's tasks as a JSON array of id, title, notes, done, in list order.",
        options: StoreOptions.options + [.init("user", value: "name", help: "The profile (default: the signed-in one).")])

    let storage: StoreOptions
    let user: String?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(parsed)
        user = parsed.value("user")
    }

    func run() throws {
        let streams = StandardStreams()
        let store = try storage.open(streams)
        defer { store.close() }
        do {
            try store.exportTasks(user: try store.profile(named: user)) { streams.write($0, to: .output) }
            streams.flush()
        } catch {
            streams.write("navstack: export: \(error)\n", to: .error)
            throw ExitStatus.failure
        }
    }
}
