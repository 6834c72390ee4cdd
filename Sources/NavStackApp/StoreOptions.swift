import NavStackCore
import NavStackIO
import NavStackSQLite
import NavStackTime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which store to open: in memory, `--store PATH`, `$NAVSTACK_STORE`, or the default
/// under `$XDG_DATA_HOME`.
public struct StoreOptions: Sendable {
    public static let options: [CommandSpec.Option] = [
        .init("memory", help: "Use a fresh in-memory store whose new profiles start with the sample tasks; no file is read or written."),
        .init(
            "store", value: "path", complete: .file,
            help: "The SQLite store to use (default: $NAVSTACK_STORE, else $XDG_DATA_HOME/navstack/navstack.sqlite)."),
        .init("sample", help: "Give new profiles the sample tasks."),
    ]

    /// The options of a command whose work must outlive it (`import`, `export`): an
    /// in-memory store would be thrown away, so `--memory` is refused.
    public static let fileOptions: [CommandSpec.Option] =
        [
            .init("memory", help: "Refused: an in-memory store would be thrown away when the command ends.")
        ] + options.dropFirst()

    public let memory: Bool
    public let store: String?
    public let sample: Bool

    /// `--memory` with `--store` is a usage error: the two name different stores.
    public init(_ parsed: ParsedArguments) throws(UsageError) {
        memory = parsed.flag("memory")
        store = parsed.value("store")
        sample = parsed.flag("sample")
        if memory, store != nil {
            throw .conflictingOptions(Self.options[0].synopsis, Self.options[1].synopsis)
        }
    }

    /// The options of `import` or `export`; `--memory` is a usage error.
    public init(fileOnly parsed: ParsedArguments, command: String) throws(UsageError) {
        try self.init(parsed)
        if memory {
            throw .memoryRefused(command: command)
        }
    }

    /// The store file, or `nil` for `--memory`.
    public func location() throws -> String? {
        if memory { return nil }
        if let store { return store }
        if let path = Terminal.environment("NAVSTACK_STORE") { return path }
        if let data = BaseDirectory.data.path(Terminal.environment) { return data + "/navstack/navstack.sqlite" }
        throw UsageError.noStoreLocation
    }

    /// Opens the store; on failure prints one line naming the file and exits 1. Files
    /// navstack creates are private to the user (mode 0600, folders 0700). A command
    /// that only reads passes `creating: false`: a missing store is then an error, and
    /// nothing is created.
    public func open(_ streams: StandardStreams, catalog: Catalog = .english, creating: Bool = true) throws -> SQLiteStore {
        let path = try location()
        let busyTimeout = try Self.busyTimeout()
        let clock = try Self.clock()
        umask(0o077)
        do {
            let store = try SQLiteStore(path: path, mode: creating ? .creating : .reading, busyTimeout: busyTimeout)
            store.catalog = catalog
            store.clock = clock
            return store
        } catch {
            streams.write("navstack: \(error.message(in: catalog))\n", to: .error)
            throw ExitStatus.failure
        }
    }

    /// "Now" and the local zone: `NAVSTACK_NOW` (an ISO 8601 instant) fixes now for the
    /// whole process, else the wall clock; `TZ` names the zone as the C library reads it
    /// (unset: the system's; what cannot be read: UTC).
    public static func clock() throws(UsageError) -> TaskClock {
        var fixedNow: Instant?
        if let text = Terminal.environment(Instant.fixedNowVariable) {
            guard let instant = Instant(iso8601: text) else {
                throw .invalidValue(option: Instant.fixedNowVariable, value: text, problem: .notAnInstant)
            }
            fixedNow = instant
        }
        let tz = getenv("TZ").map { String(cString: $0) }
        return TaskClock(zone: Zone.local(tz: tz), fixedNow: fixedNow)
    }

    /// The variable that sets how long a store another process holds is waited for.
    static let busyTimeoutVariable = "NAVSTACK_BUSY_TIMEOUT_MS"
    /// The waits it may set, in milliseconds: none, up to ten minutes.
    static let busyTimeoutRange = 0...600_000

    /// How long a store another process holds is waited for, in milliseconds:
    /// `$NAVSTACK_BUSY_TIMEOUT_MS`, else the store's 5 s. Not an option: a person never
    /// needs another wait, while a test that holds the lock on purpose needs a short one.
    static func busyTimeout() throws(UsageError) -> Int32 {
        guard let text = Terminal.environment(busyTimeoutVariable) else { return SQLiteStore.defaultBusyTimeout }
        guard text.allSatisfy(\.isASCII), let value = Int(text) else {
            throw .invalidValue(option: busyTimeoutVariable, value: text, problem: .notAWholeNumber)
        }
        guard busyTimeoutRange.contains(value) else {
            throw .invalidValue(option: busyTimeoutVariable, value: text, problem: .outOfRange(busyTimeoutRange))
        }
        return Int32(value)
    }
}
