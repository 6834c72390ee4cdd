import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs what ``ServerOptions`` asks for: the server, or a `user` command.
public enum SyncServer {
    /// Migrates the database, then serves requests until SIGTERM or SIGINT, the pool of
    /// database connections running beside the HTTP server in one service group.
    public static func serve(_ options: ServerOptions, logger: Logger) async throws {
        let database = options.database
        logger.info(
            "starting",
            metadata: ["listen": "\(options.host):\(options.port)", "database": "\(database.description)"])
        let epoch = try await migrate(database, logger: logger)
        let client = PostgresClient(configuration: try database.clientConfiguration(), backgroundLogger: logger)
        // Tokens are held once the server listens for tokens that go.
        let tokens = TokenCache(trusted: false)
        let connections = OpenConnections(maximum: options.limits.connectionsWithinOpenFiles())
        let routes = SyncRoutes(log: OperationLog(client: client, epoch: epoch), tokens: tokens, connections: connections)
        if connections.maximum < options.limits.maximumConnections {
            logger.notice(
                "fewer connections than asked, for the limit on open files",
                metadata: ["connections": "\(connections.maximum)"])
        }
        let app = Application(
            router: routes.router(),
            server: try httpServer(options, connections: connections, logger: logger),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            services: [client, TokenWatch(client: client, tokens: tokens, logger: logger)],
            logger: logger)
        do {
            try await app.runService()
        } catch let error as IOError {
            throw ServerError.run(.cannotListen(host: options.host, port: options.port, reason: String(cString: strerror(error.errnoCode))))
        } catch let error as SocketAddressError {
            throw ServerError.run(.cannotListen(host: options.host, port: options.port, reason: "\(error)"))
        }
    }

    /// Migrates the database and runs `command` on its accounts; returns what it prints.
    public static func user(_ command: UserCommand, database: DatabaseAddress, logger: Logger) async throws -> String {
        try await withConnection(to: database, logger: logger) { connection in
            try await Migrations.apply(on: connection, logger: logger)
            do {
                let output = try await Accounts.run(command, on: connection, logger: logger)
                logger.info("user command done", metadata: ["command": "\(command)"])
                return output
            } catch let error as PostgresTransactionError {
                if let failure = error.closureError as? ServerError { throw failure }
                throw error
            }
        }
    }

    /// Applies the migrations through a connection of its own: at start-up a wrong
    /// address or password fails at once, with the database's reason.
    /// Migrates the database; returns the log's restore epoch (``Migrations/epoch(on:logger:)``).
    @discardableResult
    static func migrate(_ database: DatabaseAddress, logger: Logger) async throws -> String {
        try await withConnection(to: database, logger: logger) { connection in
            try await Migrations.apply(on: connection, logger: logger)
            return try await Migrations.epoch(on: connection, logger: logger)
        }
    }

    private static func withConnection<Result: Sendable>(
        to database: DatabaseAddress, logger: Logger, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try database.connectionConfiguration(), id: 0, logger: logger)
        } catch {
            throw ServerError.run(.databaseUnreachable(database, reason: reason(error)))
        }
        do {
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch let failure as ServerError {
            try? await connection.close()
            throw failure
        } catch {
            try? await connection.close()
            throw ServerError.run(.databaseUnreachable(database, reason: reason(error)))
        }
    }

    /// Why the database could not be used, in words: PostgreSQL's own message when it gave
    /// one, else the system's reason a connection failed, else what PostgresNIO's code says.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as PostgresTransactionError:
            guard let cause = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError else {
                return "the transaction failed"
            }
            return reason(cause)
        case let error as PSQLError:
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return reason(underlying) }
            switch error.code {
            case .authMechanismRequiresPassword: return "the database asks for a password the URL does not give"
            case .unsupportedAuthMechanism: return "the database asks for a kind of password this server cannot give"
            case .sslUnsupported: return "the database does not speak TLS (sslmode=require)"
            case .serverClosedConnection, .uncleanShutdown: return "the database closed the connection"
            default: return "the connection to it failed"
            }
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first { return reason(failure.error) }
            if let lookup = error.dnsAError ?? error.dnsAAAAError { return reason(lookup) }
            return "cannot connect to \(error.host):\(error.port)"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode))
        case let error as SocketAddressError.UnknownHost:
            return "cannot find the host \(error.host): \(error.errorDescription)"
        default:
            return "\(error)"
        }
    }

    /// HTTP/1.1, over TLS when the options name a certificate and a key, with the
    /// options' timeouts on every connection and `connections` as their cap.
    static func httpServer(_ options: ServerOptions, connections: OpenConnections, logger: Logger) throws
        -> HTTPServerBuilder
    {
        let limits = options.limits
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestDeadlines(limits: limits, logger: logger)])
        guard let (certificatePath, keyPath) = options.tls else {
            return HTTPServerBuilder { responder in
                LimitedChannel(base: HTTP1Channel(responder: responder, configuration: http), connections: connections)
            }
        }
        let configuration: TLSConfiguration
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
            configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        } catch {
            throw ServerError.run(.badTLSFiles(reason: "\(error)"))
        }
        return HTTPServerBuilder { responder in
            LimitedChannel(
                base: try TLSChannel(HTTP1Channel(responder: responder, configuration: http), tlsConfiguration: configuration),
                connections: connections)
        }
    }
}
