import Logging
import NavStackCore

/// What one run of `navstack-server` was asked to do, read from its arguments by the
/// core's ``CommandSpec`` (``spec`` and ``userSpec(_:)``).
public struct ServerOptions: Equatable, Sendable {
    /// A run: a help text, the version, or a command on a database.
    public enum Invocation: Equatable, Sendable {
        case help(String)
        case version
        case run(ServerOptions)
    }

    public enum Command: Equatable, Sendable {
        case serve
        case user(UserCommand)
    }

    public var command: Command
    /// The database, from `--database` or else `NAVSTACK_DATABASE`.
    public var database: DatabaseAddress
    public var host: String
    public var port: Int
    public var logLevel: Logger.Level
    /// The certificate chain and the private key (PEM files) when the server speaks TLS.
    public var tls: (certificate: String, key: String)? {
        guard let tlsCertificate, let tlsKey else { return nil }
        return (tlsCertificate, tlsKey)
    }
    var tlsCertificate: String?
    var tlsKey: String?
    /// How slow a client may be and how many may be connected.
    public var limits = ConnectionLimits()

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080

    /// Reads the arguments (without the program's name): `help [user ACTION]`, then the
    /// options with `user ACTION [NAME]` anywhere among them. `environment` supplies
    /// NAVSTACK_DATABASE when `--database` is not given.
    public static func parse(_ words: [String], environment: [String: String]) throws(UsageError) -> Invocation {
        var words = words
        let actions = UserCommand.Action.allCases.map(\.rawValue)
        if words.first == "help" {
            let topic = words.dropFirst()
            if topic.isEmpty { return .help(spec.help) }
            guard topic.count == 2, topic.first == "user", let action = UserCommand.Action(rawValue: topic.last ?? "") else {
                throw .noSuchHelpTopic(topic.joined(separator: " "), topics: actions.map { "user \($0)" })
            }
            return .help(userSpec(action).help)
        }
        // `user` is the first word that is neither an option nor an option's value; its
        // action is the word after it.
        let userCommand = CommandSpec(name: "user", abstract: "", options: databaseOptions)
        var action: UserCommand.Action?
        if let user = CommandSpec.subcommandIndex(in: words, among: [userCommand], root: spec) {
            guard user + 1 < words.count else { throw .missingArgument(actions.joined(separator: "|")) }
            action = UserCommand.Action(rawValue: words[user + 1])
            guard action != nil else { throw .unexpectedArgument(words[user + 1]) }
            words.removeSubrange(user...(user + 1))
        }
        let commandSpec = action.map(userSpec) ?? spec
        let parsed: ParsedArguments
        switch try commandSpec.parse(words) {
        case .help: return .help(commandSpec.help)
        case .version: return .version
        case .run(let arguments): parsed = arguments
        }
        var options = ServerOptions(
            command: .serve, database: try database(parsed, environment: environment), host: defaultHost,
            port: defaultPort, logLevel: try parsed.choice("log-level", as: Logger.Level.self) ?? .info)
        if let action {
            let replica = try parsed.arguments.dropFirst().first.map(replicaID)
            options.command = .user(UserCommand(action, name: try parsed.arguments.first.map(userName), replica: replica))
            return .run(options)
        }
        if let listen = parsed.value("listen") {
            (options.host, options.port) = try parseListen(listen)
        }
        options.tlsCertificate = parsed.value("tls-cert")
        options.tlsKey = parsed.value("tls-key")
        if options.tlsCertificate != nil, options.tlsKey == nil { throw .missingArgument("--tls-key <FILE>") }
        if options.tlsKey != nil, options.tlsCertificate == nil { throw .missingArgument("--tls-cert <FILE>") }
        let seconds = 1...86_400
        if let header = try parsed.integer("header-timeout", in: seconds) { options.limits.headerTimeout = .seconds(header) }
        if let body = try parsed.integer("body-timeout", in: seconds) { options.limits.bodyTimeout = .seconds(body) }
        if let idle = try parsed.integer("idle-timeout", in: seconds) { options.limits.idleTimeout = .seconds(idle) }
        if let maximum = try parsed.integer("max-connections", in: 1...1_000_000) { options.limits.maximumConnections = maximum }
        return .run(options)
    }

    /// The line a usage error prints after `navstack-server: `, what the user typed shown
    /// escaped.
    public static func usageLine(_ error: UsageError) -> String {
        "\(error.message.escapedForDisplay) (see navstack-server --help)"
    }

    /// `--database`, else NAVSTACK_DATABASE when it is not empty. The URL is never
    /// repeated in an error with its password.
    static func database(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) -> DatabaseAddress {
        let given =
            parsed.value("database").map { (option: "--database", url: $0) }
            ?? environment["NAVSTACK_DATABASE"].flatMap { $0.isEmpty ? nil : (option: "NAVSTACK_DATABASE", url: $0) }
        guard let given else { throw .missingArgument("--database <URL>") }
        do throws(ServerError) {
            return try DatabaseAddress(url: given.url)
        } catch {
            let shown = DatabaseAddress.withoutPassword(given.url)
            // DatabaseAddress(url:) throws only why the URL names no database.
            guard case .address(let failure) = error else { preconditionFailure("\(error)") }
            switch failure {
            case .notPostgresURL:
                throw .invalidValue(
                    option: given.option, value: shown,
                    problem: .notOneOf(["postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"]))
            case .badPort(let port):
                throw .invalidValue(option: given.option, value: port, problem: .outOfRange(1...65535))
            case .badSSLMode(let mode):
                throw .invalidValue(
                    option: given.option, value: mode,
                    problem: .notOneOf(DatabaseAddress.TLSMode.allCases.map(\.rawValue)))
            case .badEscape:
                throw .invalidValue(
                    option: given.option, value: shown, problem: .notOneOf(["%XX escapes of two hexadecimal digits"]))
            }
        }
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (the default host).
    static func parseListen(_ text: String) throws(UsageError) -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":") else {
            throw .invalidValue(option: "--listen", value: text, problem: .notOneOf(["HOST:PORT", "[IPv6]:PORT", ":PORT"]))
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2 {
            host = String(host.dropFirst().dropLast())
        }
        if host.isEmpty { host = defaultHost }
        let portText = String(text[text.index(after: colon)...])
        guard let port = Int(portText) else {
            throw .invalidValue(option: "--listen", value: portText, problem: .notAWholeNumber)
        }
        guard (0...65535).contains(port) else {
            throw .invalidValue(option: "--listen", value: portText, problem: .outOfRange(0...65535))
        }
        return (host, port)
    }

    /// A user's name: 1 to 100 characters, none of them a control character.
    /// A replica id as answers name it: 32 lowercase hexadecimal digits.
    static func replicaID(_ replica: String) throws(UsageError) -> String {
        guard replica.utf8.count == 32, replica.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else {
            throw .invalidValue(option: "<REPLICA>", value: replica, problem: .notOneOf(["32 lowercase hexadecimal digits"]))
        }
        return replica
    }

    static func userName(_ name: String) throws(UsageError) -> String {
        guard (1...100).contains(name.count), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw .invalidValue(
                option: "<NAME>", value: name, problem: .notOneOf(["1 to 100 characters without control characters"]))
        }
        return name
    }
}
