import NavStackCore
import NavStackHTTP
import NavStackSQLite
import NavStackSync
import NavStackSyncClient
import XCTest

@testable import navstack

/// Every error the executable turns into text is worded by the catalogs, in the language
/// asked: never the name of a Swift type or case (`storeFailure("…")`).
final class ErrorWordsTests: XCTestCase {
    private let pt = Catalog(.pt)

    /// An identifier right before a parenthesis or a dot-case: how a type or case name looks.
    private func assertNoInternalName(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(text.range(of: #"[A-Za-z_][A-Za-z0-9_]*\("#, options: .regularExpression), text, file: file, line: line)
        for name in ["NavError", "StoreError", "StoreSessionError", "SyncError", "HTTPError", "storeFailure", "ImportError"] {
            XCTAssertFalse(text.contains(name), text, file: file, line: line)
        }
    }

    func testAStoreFailureDuringASyncIsItsSentence() {
        let locked = StoreError.locked(path: "/tmp/s.sqlite").message(in: pt)
        // What a sync step of the store throws when another process holds the lock.
        let words = Syncer.describe(NavError.storeFailure(locked), in: .english)
        XCTAssertEqual(words, locked)
        assertNoInternalName(words)
        XCTAssertEqual(Syncer.failure(NavError.storeFailure(locked), in: .english), .store(locked))
    }

    /// The notices of values another device replaced are worded by the catalogs too.
    func testSyncNoticesAreInTheLanguageAsked() {
        let notices = [
            SyncNotice(title: "Buy fruit", fields: ["title", "parent"]), SyncNotice(title: "Old", fields: ["task"]),
            SyncNotice(title: "Run", fields: ["done"]),
        ]
        XCTAssertEqual(
            Syncer.lines(notices, in: .english),
            [
                "navstack: 'Buy fruit': title and place changed on another device; undo restores yours",
                "navstack: 'Old': deleted on another device; undo restores yours",
                "navstack: 'Run': done changed on another device; undo restores yours",
            ])
        XCTAssertEqual(
            Syncer.lines(notices, in: pt),
            [
                "navstack: 'Buy fruit': título e lugar alterado em outro dispositivo; undo restaura o seu",
                "navstack: 'Old': apagada em outro dispositivo; undo restaura a sua",
                "navstack: 'Run': feita alterado em outro dispositivo; undo restaura o seu",
            ])
    }

    func testEachErrorIsWordedByItsCatalog() {
        let cases: [(any Error, String)] = [
            (NavError.storeFailure("the store is gone"), "the store is gone"),
            (StoreError.locked(path: "/s"), pt(.storeLocked, ("path", "/s"))),
            (SyncError.refusedToken, pt(.syncRefusedToken)),
            (SyncError.keyTaken(record: "{}"), "o servidor respondeu 409: as operações da conta estão seladas com outra chave"),
            (HTTPError.refused(host: "127.0.0.1", port: 9), "o servidor em 127.0.0.1:9 recusou a conexão"),
            (HTTPError.timedOut(.milliseconds(1500)), "o servidor não respondeu em 1500 ms"),
            (
                HTTPError.unreachable(host: "::1", port: 80, reason: "No route to host"),
                "o servidor em [::1]:80 não pode ser alcançado: No route to host"
            ),
            (ImportError.noProfile, pt(.importNoProfile)),
            (UsageError.noStoreLocation, UsageError.noStoreLocation.message(in: pt)),
        ]
        for (error, expected) in cases {
            let words = Navstack.words(for: error, in: pt)
            XCTAssertEqual(words, expected)
            assertNoInternalName(words)
        }
    }

    /// The English of the HTTP client's errors is the client's own description.
    func testHTTPErrorsSayInEnglishWhatTheClientSays() {
        let errors: [HTTPError] = [
            .invalidURL("ftp:x", reason: "it must start with http://"), .unsupportedScheme("https"),
            .invalidHeader(name: "Host"), .cannotResolve(host: "nowhere.invalid"), .refused(host: "::1", port: 8080),
            .unreachable(host: "10.0.0.1", port: 80, reason: "No route to host"), .timedOut(.seconds(2)),
            .timedOut(.microseconds(200_001)), .connectionClosed, .malformedResponse("no status line"),
            .responseTooLarge(limit: 64 << 20), .responseTooLarge(limit: 1000), .system(call: "poll", code: 4),
            .plainTextRefused(host: "sync.example.org"), .untrusted(host: "h", port: 443, reason: .unknownAuthority),
            .untrusted(host: "h", port: 443, reason: .nameMismatch(names: "")),
            .untrusted(host: "h", port: 443, reason: .nameMismatch(names: "other.example")),
            .untrusted(host: "::1", port: 443, reason: .expired(since: "2021-01-02")),
            .untrusted(host: "h", port: 1, reason: .expired(since: nil)),
            .untrusted(host: "h", port: 1, reason: .notYetValid(until: "2031-01-01")),
            .untrusted(host: "h", port: 1, reason: .notYetValid(until: nil)),
            .untrusted(host: "h", port: 1, reason: .other("certificate revoked")), .tlsFailed(host: "h", port: 1, reason: "wrong version"),
            .notTLS(host: "h", port: 1), .noSystemAuthorities, .unreadableAuthorities(file: "/ca.pem", reason: "no such file"),
            .tlsUnavailable(reason: "no memory"),
        ]
        for error in errors {
            XCTAssertEqual(error.message(in: .english), error.description)
        }
    }

    /// An error no catalog knows is still a sentence, not its type's name.
    func testAnUnknownErrorIsASentence() {
        struct Unforeseen: Error {}
        let words = Navstack.words(for: Unforeseen(), in: .english)
        XCTAssertEqual(words, Catalog.english(.ioUnexpected))
        assertNoInternalName(words)
        XCTAssertFalse(words.contains("Unforeseen"))
    }
}
