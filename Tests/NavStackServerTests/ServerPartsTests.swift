import NavStackCore
import NavStackSync
import XCTest

@testable import NavStackServer

/// The command line and the database URL.
final class ServerPartsTests: XCTestCase {
    private func parse(_ words: String..., environment: [String: String] = [:]) throws(UsageError) -> ServerOptions? {
        guard case .run(let options) = try ServerOptions.parse(words, environment: environment) else { return nil }
        return options
    }

    private func usage(_ words: String..., environment: [String: String] = [:]) -> String? {
        do {
            _ = try ServerOptions.parse(words, environment: environment)
            return nil
        } catch {
            return error.message
        }
    }

    func testOptions() throws {
        let options = try XCTUnwrap(try parse("--database", "postgres://u@h/db"))
        XCTAssertEqual(options.command, .serve)
        XCTAssertEqual(options.host, "127.0.0.1")
        XCTAssertEqual(options.port, 8080)
        XCTAssertEqual(options.logLevel, .info)
        XCTAssertNil(options.tls)
        let other = try XCTUnwrap(
            try parse("--log-level", "debug", "user", "add", "ana", environment: ["NAVSTACK_DATABASE": "postgres://u@h/db"]))
        XCTAssertEqual(other.command, .user(.add("ana")))
        XCTAssertEqual(other.database, try DatabaseAddress(url: "postgres://u@h/db"))
        XCTAssertEqual(other.logLevel, .debug)
        XCTAssertEqual(try parse("user", "add", "--database=postgres://u@h/db", "--", "-ana")?.command, .user(.add("-ana")))
        for (action, command) in [("token", UserCommand.token("ana")), ("revoke", .revoke("ana")), ("remove", .remove("ana"))] {
            XCTAssertEqual(try parse("--database", "postgres://u@h/db", "user", action, "ana")?.command, .user(command))
        }
        XCTAssertEqual(try parse("user", "list", "--database", "postgres://u@h/db")?.command, .user(.list))
        let listening = try XCTUnwrap(try parse("--listen=[::1]:9000", "--database", "postgres://u@h/db"))
        XCTAssertEqual(listening.host, "::1")
        XCTAssertEqual(listening.port, 9000)
        XCTAssertEqual(try parse("--database", "postgres://u@h/db", "--listen", ":0")?.host, "127.0.0.1")
        XCTAssertEqual(
            try parse(
                "--database", "postgres://u@h/db", "--database", "postgres://u@h/other",
                environment: ["NAVSTACK_DATABASE": "postgres://u@h/third"])?.database.database,
            "other")
        XCTAssertEqual(try parse("--database", "postgres://u@h/db", "--tls-cert", "c", "--tls-key", "k")?.tls?.key, "k")
        XCTAssertEqual(
            options.limits,
            ConnectionLimits(
                headerTimeout: .seconds(10), bodyTimeout: .seconds(30), idleTimeout: .seconds(30), maximumConnections: 512))
        let limited = try XCTUnwrap(
            try parse(
                "--database", "postgres://u@h/db", "--header-timeout", "2", "--body-timeout=3", "--idle-timeout", "4",
                "--max-connections", "64"))
        XCTAssertEqual(
            limited.limits,
            ConnectionLimits(
                headerTimeout: .seconds(2), bodyTimeout: .seconds(3), idleTimeout: .seconds(4), maximumConnections: 64))
    }

    func testHelpAndVersion() throws {
        XCTAssertEqual(try ServerOptions.parse(["--database", "x", "--help"], environment: [:]), .help(ServerOptions.spec.help))
        XCTAssertEqual(try ServerOptions.parse(["-h"], environment: [:]), .help(ServerOptions.spec.help))
        XCTAssertEqual(try ServerOptions.parse(["help"], environment: [:]), .help(ServerOptions.spec.help))
        for action in UserCommand.Action.allCases {
            let help = ServerOptions.userSpec(action).help
            XCTAssertEqual(try ServerOptions.parse(["user", action.rawValue, "--help"], environment: [:]), .help(help))
            XCTAssertEqual(try ServerOptions.parse(["help", "user", action.rawValue], environment: [:]), .help(help))
            XCTAssertTrue(ServerOptions.spec.help.contains("user \(action.rawValue)"), action.rawValue)
            XCTAssertTrue(help.contains("Exit status: 0"), action.rawValue)
        }
        XCTAssertEqual(try ServerOptions.parse(["--version"], environment: [:]), .version)
        let help = ServerOptions.spec.help
        for option in [
            "--database <URL>", "--listen <HOST:PORT>", "--log-level <LEVEL>", "--tls-cert <FILE>", "--tls-key <FILE>",
            "--header-timeout <SECONDS>", "--body-timeout <SECONDS>", "--idle-timeout <SECONDS>",
            "--max-connections <N>", "NAVSTACK_DATABASE", "user add", "POST /v1/sync", "GET  /health",
            "Bearer TOKEN", "409", "server_millis",
        ] {
            XCTAssertTrue(help.contains(option), option)
        }
        XCTAssertTrue(
            ServerOptions.userSpec(.add).help.contains("USAGE: navstack-server user add [--database <URL>] [--log-level <LEVEL>] <NAME>"))
        XCTAssertTrue(
            ServerOptions.userSpec(.list).help.contains("USAGE: navstack-server user list [--database <URL>] [--log-level <LEVEL>]\n"))
    }

    func testUsageErrors() {
        let database = "postgres://u@h/d"
        XCTAssertEqual(usage(), "missing expected argument '--database <URL>'")
        XCTAssertEqual(usage(environment: ["NAVSTACK_DATABASE": ""]), "missing expected argument '--database <URL>'")
        XCTAssertEqual(usage("--database"), "missing value for '--database <URL>'")
        XCTAssertEqual(usage("--nope"), "unknown option '--nope'")
        XCTAssertEqual(usage("--listn", ":1"), "unknown option '--listn'; did you mean '--listen'?")
        XCTAssertEqual(
            usage("--database", "mysql://ana:secret@x/d"),
            "the value 'mysql://ana:***@x/d' is invalid for '--database': use postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        XCTAssertEqual(
            usage(environment: ["NAVSTACK_DATABASE": "postgres://u@h:99999/d"]),
            "the value '99999' is invalid for 'NAVSTACK_DATABASE': use 1 to 65535")
        XCTAssertEqual(
            usage("--database", "postgres://u@h/d?sslmode=verify-full"),
            "the value 'verify-full' is invalid for '--database': use disable, prefer or require")
        XCTAssertEqual(
            usage("--database", "postgres://u:p%zz@h/d"),
            "the value 'postgres://u:***@h/d' is invalid for '--database': use %XX escapes of two hexadecimal digits")
        XCTAssertEqual(
            usage("--database", database, "--listen", "8080"),
            "the value '8080' is invalid for '--listen': use HOST:PORT, [IPv6]:PORT or :PORT")
        XCTAssertEqual(
            usage("--database", database, "--listen", "h:http"), "the value 'http' is invalid for '--listen': not a whole number")
        XCTAssertEqual(usage("--database", database, "--listen", "h:65536"), "the value '65536' is invalid for '--listen': use 0 to 65535")
        XCTAssertEqual(
            usage("--database", database, "--log-level", "loud"),
            "the value 'loud' is invalid for '--log-level': use trace, debug, info, notice, warning, error or critical")
        XCTAssertEqual(usage("--database", database, "user", "add"), "missing expected argument '<NAME>'")
        XCTAssertEqual(usage("--database", database, "user", "add", "a", "b"), "unexpected argument 'b'")
        XCTAssertEqual(
            usage("--database", database, "user", "add", String(repeating: "n", count: 101)),
            "the value '\(String(repeating: "n", count: 101))' is invalid for '<NAME>': use 1 to 100 characters without control characters")
        XCTAssertEqual(usage("--database", database, "user", "add", "--listen", ":1", "ana"), "unknown option '--listen'")
        XCTAssertEqual(usage("--database", database, "serve"), "unexpected argument 'serve'")
        XCTAssertEqual(usage("--database", database, "user"), "missing expected argument 'add|token|revoke|remove|list|drop-replica'")
        XCTAssertEqual(usage("--database", database, "user", "del", "x"), "unexpected argument 'del'")
        XCTAssertEqual(usage("--database", database, "user", "revoke"), "missing expected argument '<NAME>'")
        XCTAssertEqual(usage("--database", database, "user", "list", "ana"), "unexpected argument 'ana'")
        XCTAssertEqual(usage("--database", database, "user", "drop-replica", "ana"), "missing expected argument '<REPLICA>'")
        XCTAssertEqual(
            usage("--database", database, "user", "drop-replica", "ana", "ABC"),
            "the value 'ABC' is invalid for '<REPLICA>': use 32 lowercase hexadecimal digits")
        XCTAssertEqual(
            usage("help", "me"),
            "help takes one of: user add, user token, user revoke, user remove, user list, user drop-replica (got 'me')")
        XCTAssertEqual(
            usage("help", "user", "drop"),
            "help takes one of: user add, user token, user revoke, user remove, user list, user drop-replica (got 'user drop')")
        XCTAssertEqual(usage("--database", database, "--tls-cert", "c"), "missing expected argument '--tls-key <FILE>'")
        XCTAssertEqual(usage("--database", database, "--tls-key", "k"), "missing expected argument '--tls-cert <FILE>'")
        XCTAssertEqual(
            usage("--database", database, "--header-timeout", "0"),
            "the value '0' is invalid for '--header-timeout': use 1 to 86400")
        XCTAssertEqual(
            usage("--database", database, "--idle-timeout", "1.5"),
            "the value '1.5' is invalid for '--idle-timeout': not a whole number")
        XCTAssertEqual(
            usage("--database", database, "--max-connections", "0"),
            "the value '0' is invalid for '--max-connections': use 1 to 1000000")
    }

    func testAUsageLineShowsWhatWasTypedEscaped() {
        XCTAssertEqual(
            ServerOptions.usageLine(.unexpectedArgument("a\u{1B}[2Jb")),
            "unexpected argument 'a\\u{1B}[2Jb' (see navstack-server --help)")
    }

    func testDatabaseURLs() throws {
        let plain = try DatabaseAddress(url: "postgres://postgres@127.0.0.1:5433/navstack")
        XCTAssertEqual(plain.endpoint, .tcp(host: "127.0.0.1", port: 5433))
        XCTAssertEqual(plain.username, "postgres")
        XCTAssertNil(plain.password)
        XCTAssertEqual(plain.database, "navstack")
        XCTAssertEqual(plain.tls, .disable)
        let full = try DatabaseAddress(url: "postgresql://ana:p%40ss%3Aw@[::1]/db?sslmode=require&application_name=x")
        XCTAssertEqual(full.endpoint, .tcp(host: "::1", port: 5432))
        XCTAssertEqual(full.password, "p@ss:w")
        XCTAssertEqual(full.tls, .require)
        XCTAssertEqual(full.description, "postgres://ana@[::1]:5432/db")
        let socket = try DatabaseAddress(url: "postgres://postgres@%2Ftmp%2Fpg:6000/navstack")
        XCTAssertEqual(socket.endpoint, .socket(path: "/tmp/pg/.s.PGSQL.6000"))
        XCTAssertEqual(try DatabaseAddress(url: "postgres:///x?host=/run/pg").endpoint, .socket(path: "/run/pg/.s.PGSQL.5432"))
        XCTAssertThrowsError(try DatabaseAddress(url: "postgres://u@h/d?sslmode=verify-full"))
        XCTAssertEqual(DatabaseAddress.withoutPassword("postgres://ana:p@ss@h:1/d?x=y:z"), "postgres://ana:***@h:1/d?x=y:z")
        XCTAssertEqual(DatabaseAddress.withoutPassword("postgres://ana@h/d"), "postgres://ana@h/d")
        XCTAssertEqual(DatabaseAddress.withoutPassword("postgres://h/d?user=a:b@c"), "postgres://h/d?user=a:b@c")
    }

    func testBearerTokens() throws {
        let token = String(repeating: "0a", count: 32)
        XCTAssertEqual(try BearerToken.parse(authorization: "Bearer \(token)"), token)
        XCTAssertEqual(try BearerToken.parse(authorization: "bearer  \(token)"), token)
        XCTAssertThrowsError(try BearerToken.parse(authorization: "Bearer \(token.uppercased())"))
        XCTAssertThrowsError(try BearerToken.parse(authorization: "Basic \(token)"))
        XCTAssertThrowsError(try BearerToken.parse(authorization: "Bearer"))
        XCTAssertTrue(BearerToken.isWellFormed(BearerToken.random()))
        XCTAssertNotEqual(BearerToken.random(), BearerToken.random())
    }
}
