#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import NavStackSQLite

/// `navstack import`: adds tasks from a JSON array or JSON Lines, all or nothing.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add tasks from a JSON array or JSON Lines file, after the profile's tasks.",
        discussion: """
            Each record is {"title": …, "notes"?: …, "done"?: …}. The import is one \
            transaction: a bad record fails it whole, naming its index (from 0), and \
            nothing is added. The profile is created if missing.
            """)

    @OptionGroup var storage: StoreOptions

    @Option(help: ArgumentHelp("The profile (default: the signed-in one).", valueName: "name"))
    var user: String?

    @Argument(help: ArgumentHelp("The file to read, or - for stdin.", valueName: "file"))
    var file: String

    func run() throws {
        let streams = StandardStreams()
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                streams.write("navstack: import: cannot read \(file)\n", to: .error)
                throw ExitCode.failure
            }
            data = contents
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
            throw ExitCode.failure
        }
    }
}

/// `navstack export`: prints the profile's tasks as a JSON array, in list order.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the profile's tasks as a JSON array of id, title, notes, done, in list order.")

    @OptionGroup var storage: StoreOptions

    @Option(help: ArgumentHelp("The profile (default: the signed-in one).", valueName: "name"))
    var user: String?

    func run() throws {
        let streams = StandardStreams()
        let store = try storage.open(streams)
        defer { store.close() }
        do {
            try store.exportTasks(user: try store.profile(named: user)) { streams.write($0, to: .output) }
            streams.flush()
        } catch {
            streams.write("navstack: export: \(error)\n", to: .error)
            throw ExitCode.failure
        }
    }
}
