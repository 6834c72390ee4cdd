import Logging

/// What one run of `navstack-server` was asked to do, read from its arguments.
public struct ServerOptions: Equatable, Sendable {
    /// A run: the help, or a command on a database.
    public enum Invocation: Equatable, Sendable {
        case help
        case run(ServerOptions)
    }

    public enum Command: Equatable, Sendable {
        case serve
        /// `user add NAME`: a new account, or a new token for an existing one.
        case addUser(name: String)
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

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080

    /// Why the arguments do not make a run; exit status 64 (EX_USAGE) with this line.
    public enum UsageError: Error, Equatable, Sendable {
        case unknownOption(String)
        case missingValue(option: String)
        case unexpectedArgument(String)
        case unknownCommand(String)
        case missingDatabase
        case badDatabase(DatabaseAddress.Failure)
        case badListen(String)
        case badLogLevel(String)
        case missingUserName
        case badUserName
        case tlsNeedsBoth

        public var message: String {
            switch self {
            case .unknownOption(let option): "unknown option '\(option)'"
            case .missingValue(let option): "\(option) needs a value"
            case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
            case .unknownCommand(let command): "unknown command '\(command)': the one command is user add NAME"
            case .missingDatabase: "no database: give --database URL or set NAVSTACK_DATABASE"
            case .badDatabase(let failure): failure.message
            case .badListen(let text): "--listen '\(text)' is not HOST:PORT with a port from 0 to 65535"
            case .badLogLevel(let text):
                "--log-level '\(text)' is not one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            case .missingUserName: "user add needs a NAME"
            case .badUserName: "a user NAME is 1 to 100 characters without control characters"
            case .tlsNeedsBoth: "--tls-cert and --tls-key go together"
            }
        }
    }

    public static let help = """
        navstack-server: the sync server of navstack. It keeps each account's operations in
        PostgreSQL and hands them to the account's other replicas.

        Usage:
          navstack-server --database URL [--listen HOST:PORT] [--log-level LEVEL]
                          [--tls-cert FILE --tls-key FILE]
          navstack-server --database URL user add NAME
          navstack-server --help

        Options:
          --database URL     postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=require]
                             (default: the environment variable NAVSTACK_DATABASE)
          --listen HOST:PORT where to accept connections (default: 127.0.0.1:8080)
          --log-level LEVEL  trace, debug, info, notice, warning, error or critical
                             (default: info); logs go to standard error
          --tls-cert FILE    serve HTTPS with this PEM certificate chain
          --tls-key FILE     and this PEM private key
          --help             show this text

        Commands:
          user add NAME      create the account NAME (or give an existing one another token)
                             and print its new token, alone, on standard output; the
                             database keeps only the token's SHA-256

        Endpoints:
          POST /v1/sync      push operations and pull the others' (Authorization: Bearer TOKEN)
          GET  /health       200 when the database answers, 503 when it does not

        The database's tables are created and migrated at start-up. Any number of servers
        can share one database.
        """

    /// Reads the arguments (without the program's name). `environment` supplies
    /// NAVSTACK_DATABASE when `--database` is not given.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
        var databaseURL: String?
        var listen: String?
        var logLevel: String?
        var certificate: String?
        var key: String?
        var words: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument != "--" else {
                if argument == "--" {
                    words.append(contentsOf: arguments[index...])
                    break
                }
                words.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "--help" {
                guard inlineValue == nil else { throw .unexpectedArgument(argument) }
                return .help
            }
            guard ["--database", "--listen", "--log-level", "--tls-cert", "--tls-key"].contains(name) else {
                throw .unknownOption(name)
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw .missingValue(option: name) }
                value = arguments[index]
                index += 1
            }
            switch name {
            case "--database": databaseURL = value
            case "--listen": listen = value
            case "--log-level": logLevel = value
            case "--tls-cert": certificate = value
            default: key = value
            }
        }

        let command: Command
        switch words.first {
        case nil:
            command = .serve
        case "user":
            guard words.count >= 2, words[1] == "add" else { throw .unknownCommand(words.prefix(2).joined(separator: " ")) }
            guard words.count >= 3 else { throw .missingUserName }
            guard words.count == 3 else { throw .unexpectedArgument(words[3]) }
            let name = words[2]
            guard (1...100).contains(name.count), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else { throw .badUserName }
            command = .addUser(name: name)
        default:
            throw .unknownCommand(words[0])
        }

        guard let url = databaseURL ?? environment["NAVSTACK_DATABASE"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw .missingDatabase
        }
        let database: DatabaseAddress
        do throws(DatabaseAddress.Failure) {
            database = try DatabaseAddress(url: url)
        } catch {
            throw .badDatabase(error)
        }
        var options = ServerOptions(
            command: command, database: database, host: defaultHost, port: defaultPort, logLevel: .info)
        if let listen {
            guard let (host, port) = parseListen(listen) else { throw .badListen(listen) }
            options.host = host
            options.port = port
        }
        if let logLevel {
            guard let level = Logger.Level(rawValue: logLevel) else { throw .badLogLevel(logLevel) }
            options.logLevel = level
        }
        guard (certificate == nil) == (key == nil) else { throw .tlsNeedsBoth }
        options.tlsCertificate = certificate
        options.tlsKey = key
        return .run(options)
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (the default host).
    static func parseListen(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2 {
            host = String(host.dropFirst().dropLast())
        }
        if host.isEmpty { host = defaultHost }
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        return (host, port)
    }
}
