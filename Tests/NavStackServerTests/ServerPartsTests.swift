@testable import NavStackServer
import XCTest

/// The command line and the database URL.
final class ServerPartsTests: XCTestCase {
    private func parse(_ words: String..., environment: [String: String] = [:]) throws(ServerOptions.UsageError) -> ServerOptions? {
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
            try parse("--listen=[::1]:9000", "--log-level", "debug", "user", "add", "ana",
                      environment: ["NAVSTACK_DATABASE": "postgres://u@h/db"]))
        XCTAssertEqual(other.command, .addUser(name: "ana"))
        XCTAssertEqual(other.host, "::1")
        XCTAssertEqual(other.port, 9000)
        XCTAssertEqual(other.logLevel, .debug)
        XCTAssertEqual(try ServerOptions.parse(["--database", "x", "--help"], environment: [:]), .help)
        XCTAssertEqual(try parse("--database", "postgres://u@h/db", "--tls-cert", "c", "--tls-key", "k")?.tls?.key, "k")
    }

    func testUsageErrors() {
        XCTAssertEqual(usage(), "no database: give --database URL or set NAVSTACK_DATABASE")
        XCTAssertEqual(usage("--database"), "--database needs a value")
        XCTAssertEqual(usage("--nope"), "unknown option '--nope'")
        XCTAssertEqual(usage("--database", "mysql://x"), "the database URL must look like postgres://USER@HOST:PORT/DATABASE")
        XCTAssertEqual(usage("--database", "postgres://u@h:99999/d"), "the database URL's port '99999' is not a number from 1 to 65535")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "--listen", "8080"), "--listen '8080' is not HOST:PORT with a port from 0 to 65535")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "--log-level", "loud"),
                       "--log-level 'loud' is not one of trace, debug, info, notice, warning, error, critical")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "user", "add"), "user add needs a NAME")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "user", "add", "a", "b"), "unexpected argument 'b'")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "serve"), "unknown command 'serve': the one command is user add NAME")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "user"), "unknown command 'user': the one command is user add NAME")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "user", "del", "x"),
                       "unknown command 'user del': the one command is user add NAME")
        XCTAssertEqual(usage("--database", "postgres://u@h/d", "--tls-cert", "c"), "--tls-cert and --tls-key go together")
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
    }

    func testBearerTokens() throws {
        let token = String(repeating: "0a", count: 32)
        XCTAssertEqual(try SyncRoutes.bearerToken("Bearer \(token)"), token)
        XCTAssertEqual(try SyncRoutes.bearerToken("bearer  \(token)"), token)
        XCTAssertThrowsError(try SyncRoutes.bearerToken("Bearer \(token.uppercased())"))
        XCTAssertThrowsError(try SyncRoutes.bearerToken("Basic \(token)"))
        XCTAssertThrowsError(try SyncRoutes.bearerToken("Bearer"))
        XCTAssertTrue(OperationLog.isWellFormed(token: OperationLog.newToken()))
        XCTAssertNotEqual(OperationLog.newToken(), OperationLog.newToken())
    }
}
