import Logging
import NavStackCore

extension ServerOptions {
    /// The version `--version` prints: the package's, as `navstack --version` prints it.
    public static let version = "0.2.0"

    /// The options both commands read.
    static let databaseOptions: [CommandSpec.Option] = [
        .init(
            "database", value: "URL",
            help: "The PostgreSQL database, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (default: "
                + "$NAVSTACK_DATABASE); ?sslmode=require for TLS to it; a HOST written %2Fvar%2Frun%2Fpostgresql "
                + "is the folder of a Unix socket."),
        .init(
            "log-level", value: "LEVEL",
            help: "trace, debug, info, notice, warning, error or critical (default: info); logs go to standard error."),
    ]

    /// `navstack-server`: serves requests until SIGTERM or SIGINT.
    public static let spec = CommandSpec(
        name: "navstack-server",
        abstract: "The sync server of navstack. It keeps each account's operations in PostgreSQL and hands them "
            + "to the account's other replicas.",
        discussion: """
            The database's tables are created and migrated at start-up. Any number of servers \
            can share one database.

            Endpoints:
              POST /v1/sync   push operations and pull the others'
                              (Authorization: Bearer TOKEN)
              GET  /health    200 when the database answers, 503 when it does not

            A token is checked before a byte of a request's body is read. A request is \
            refused with 409 when it reuses a (replica, seq) the account holds with other \
            content, and with 400 when an operation is stamped more than 60 s ahead of the \
            server's clock (the answer gives that clock as server_millis).

            Exit status: 0 when the server stops on SIGTERM or SIGINT, 1 when it cannot start \
            or run, 64 on bad usage.
            """,
        options: databaseOptions + [
            .init("listen", value: "HOST:PORT", help: "Where to accept connections (default: 127.0.0.1:8080)."),
            .init("tls-cert", value: "FILE", help: "Serve HTTPS with this PEM certificate chain (with --tls-key)."),
            .init("tls-key", value: "FILE", help: "The PEM private key of --tls-cert."),
            .init(
                "header-timeout", value: "SECONDS",
                help: "Close a new connection that has not sent a whole request head within this time "
                    + "(default: \(ConnectionLimits.defaultHeaderSeconds))."),
            .init(
                "body-timeout", value: "SECONDS",
                help: "Close a connection whose request body has not all arrived within this time of its head "
                    + "(default: \(ConnectionLimits.defaultBodySeconds))."),
            .init(
                "idle-timeout", value: "SECONDS",
                help: "Close a connection that has not sent the whole head of its next request within this time of "
                    + "an answer (default: \(ConnectionLimits.defaultIdleSeconds))."),
            .init(
                "max-connections", value: "N",
                help: "Serve at most N connections at once; past them a new connection is answered 503 and closed "
                    + "(default: \(ConnectionLimits.defaultMaximumConnections), fewer when the limit on open files "
                    + "is lower: it is raised towards its hard limit, and 64 files are kept for the rest)."),
        ],
        subcommands: [("user add", userAddSpec.abstract)])

    /// `navstack-server user add NAME`.
    public static let userAddSpec = CommandSpec(
        name: "navstack-server user add",
        abstract: "Create the account NAME (or give an existing one another token) and print its new token, alone, "
            + "on standard output; the database keeps only the token's SHA-256.",
        options: databaseOptions,
        arguments: [.init("NAME", help: "The account: 1 to 100 characters without control characters.")])
}
