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
        subcommands: UserCommand.Action.allCases.map { ("user \($0.rawValue)", userSpec($0).abstract) })

    /// `navstack-server user ACTION`: one account's tokens and log, or the list of them.
    public static func userSpec(_ action: UserCommand.Action) -> CommandSpec {
        let name = [CommandSpec.Argument("NAME", help: "The account: 1 to 100 characters without control characters.")]
        let abstract: String
        var discussion = ""
        switch action {
        case .add:
            abstract = "Create the account NAME and print its first token, alone, on standard output."
            discussion = """
                The database keeps only the token's SHA-256. An account that exists already is \
                refused: user token gives it another token.
                """
        case .token:
            abstract = "Give the account NAME another token (for another device) and print it, alone, on standard output."
            discussion = "The account's other tokens keep working; user revoke stops them all."
        case .revoke:
            abstract = "Stop every token of the account NAME at once, on every server that shares the database."
            discussion = """
                A request with one of them is answered 401 from then on. The account and its \
                log stay: user token gives it a new token.
                """
        case .remove:
            abstract = "Remove the account NAME with its tokens and its whole log of operations."
            discussion = "The devices keep their tasks; the server keeps nothing of the account."
        case .list:
            abstract = "List the accounts, one a line: the name, a tab, and how many tokens it has, sorted by name."
        case .dropReplica:
            abstract = "Remove the operations the replica REPLICA sent to the account NAME, and print how many."
            discussion = """
                For operations the account's devices set aside because its key does not open \
                them (navstack sync names the replica): sent with a token by someone without \
                the passphrase, or changed in the database. What the replica sends later is \
                kept as usual; user revoke stops its token.
                """
        }
        let refused =
            switch action {
            case .add: "the account exists already or "
            case .list: ""
            case .token, .revoke, .remove, .dropReplica: "there is no such account or "
            }
        let exitStatus = "Exit status: 0 when done, 1 when \(refused)the database cannot be used, 64 on bad usage."
        return CommandSpec(
            name: "navstack-server user \(action.rawValue)", abstract: abstract,
            discussion: discussion.isEmpty ? exitStatus : discussion + "\n\n" + exitStatus,
            options: databaseOptions,
            arguments: action == .list
                ? []
                : action == .dropReplica
                    ? name + [CommandSpec.Argument("REPLICA", help: "The replica: 32 lowercase hexadecimal digits.")] : name)
    }
}
