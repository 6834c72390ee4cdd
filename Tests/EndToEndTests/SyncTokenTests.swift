import Foundation
import XCTest

/// Where `navstack sync` takes its token from, and the token refused before a byte is sent
/// (Tests/Sync/client_checks.py syncs with each source against the real server).
final class SyncTokenTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A store with the profile `ana` signed in, and no sync server.
    private func store() throws -> String {
        let path = folder.appendingPathComponent("tasks.sqlite").path
        XCTAssertEqual(try NavstackProcess.run(["--store", path, "-c", "login ana"]).status, 0)
        return path
    }

    private func sync(_ store: String, _ arguments: String..., environment: [String: String] = [:]) throws
        -> NavstackProcess.Result
    {
        try NavstackProcess.run(
            ["--store", store, "sync", "--timeout", "2"] + arguments, environment: ["NAVSTACK_SYNC": "0"].merging(environment) { $1 })
    }

    func testTokenAndTokenFileTogetherAreBadUsage() throws {
        let result = try sync(try store(), "--token", "a", "--token-file", "b")
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("Error: '--token <token>' cannot be used with '--token-file <file>'"), result.stderr)
    }

    /// Whatever is wrong with the address given, it is bad usage: one line, exit 64,
    /// nothing kept.
    func testAServerAddressThatIsNotOneIsBadUsage() throws {
        let store = try store()
        for (address, words) in [
            ("ftp://example.org", "not ftp://"), ("not a url", "is not a server address"),
            ("https://", "is not a server address"), ("http://example.org", "in clear text"),
        ] {
            let result = try sync(store, "--server", address, "--token", "abc")
            XCTAssertEqual(result.status, 64, address)
            XCTAssertTrue(result.stderr.hasPrefix("navstack: sync: --server: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(words), result.stderr)
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
        }
        XCTAssertTrue(try sync(store).stderr.contains("has no sync server"))
    }

    func testATokenWithALineEndOrASpaceIsRefusedWithoutShowingIt() throws {
        let store = try store()
        let secret = "abcdef0123456789"
        let file = folder.appendingPathComponent("token").path
        try Data("\(secret) \(secret)\n".utf8).write(to: URL(fileURLWithPath: file))
        for (result, source) in [
            (
                try sync(store, "--server", "http://127.0.0.1:9", environment: ["NAVSTACK_TOKEN": "\(secret)\r\nX-Injected: 1"]),
                "NAVSTACK_TOKEN"
            ),
            (try sync(store, "--server", "http://127.0.0.1:9", "--token-file", file), "--token-file \(file)"),
            (try sync(store, "--server", "http://127.0.0.1:9", "--token", "\(secret)\t\(secret)"), "--token"),
        ] {
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertEqual(
                result.stderr,
                "navstack: sync: \(source): a token is 1 to 1024 printable characters without spaces (navstack-server user add prints one)\n"
            )
            XCTAssertFalse(result.stderr.contains(secret))
        }
        // Nothing was kept: the profile still has no server.
        XCTAssertTrue(try sync(store).stderr.contains("has no sync server"))
    }

    func testATokenFileThatCannotBeReadIsOneLine() throws {
        let missing = folder.appendingPathComponent("missing").path
        let result = try sync(try store(), "--server", "http://127.0.0.1:9", "--token-file", missing)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: sync: --token-file: cannot read \(missing): No such file or directory\n")
    }

    func testWithoutATokenAndNotAtATerminalSyncSaysHowToGiveOne() throws {
        let result = try sync(try store(), "--server", "http://127.0.0.1:9")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            "navstack: sync: profile 'ana' has no token: give it with NAVSTACK_TOKEN, --token-file FILE or --token, "
                + "or run navstack sync at a terminal to be asked\n")
    }

    func testAGivenTokenIsKeptSoTheNextSyncNeedsNone() throws {
        let store = try store()
        XCTAssertTrue(try sync(store, "--server", "http://127.0.0.1:9").stderr.contains("has no token"))
        let file = folder.appendingPathComponent("token").path
        try Data("  t0ken-from-a-file \n\n".utf8).write(to: URL(fileURLWithPath: file))
        // Nothing listens on port 9: the sync fails after the token was taken, and what was given is kept.
        let given = try sync(store, "--token-file", file)
        XCTAssertEqual(given.status, 1)
        XCTAssertTrue(given.stderr.contains("refused the connection"), given.stderr)
        let next = try sync(store)
        XCTAssertEqual(next.status, 1)
        XCTAssertTrue(next.stderr.contains("refused the connection"), "the kept token is used: \(next.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: store)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }
}
