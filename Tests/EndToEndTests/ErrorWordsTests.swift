import Foundation
import NavStackApp
import NavStackCore
import NavStackHTTP
import NavStackSync
import NavStackSyncClient
import XCTest

@testable import NavStackIO
@testable import NavStackSQLite
@testable import NavStackSeal
@testable import navstack

/// Every error the executable turns into text is worded by the catalogs, in the language
/// asked: never the name of a Swift type or case (`storeFailure("…")`).
final class ErrorWordsTests: XCTestCase {
    private let pt = Catalog(.pt)

    /// An identifier right before a parenthesis or a dot-case: how a type or case name looks.
    private func assertNoInternalName(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(text.range(of: #"[A-Za-z_][A-Za-z0-9_]*\("#, options: .regularExpression), text, file: file, line: line)
        for name in ["NavError", "StoreError", "SyncError", "HTTPError", "storeFailure", "ImportError"] {
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
            let words = App.words(for: error, in: pt)
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
        let words = App.words(for: Unforeseen(), in: .english)
        XCTAssertEqual(words, Catalog.english(.ioUnexpected))
        assertNoInternalName(words)
        XCTAssertFalse(words.contains("Unforeseen"))
    }

    /// One or more values of each error type a user may read, each case that words
    /// differently where it can be made here.
    private static let representatives: [any Error] = [
        NavError.blankTitle, NavError.storeFailure("the disk is full"), NavError.noSuchRow(9, rows: 3),
        UsageError.noStoreLocation, UsageError.unknownOption("--x", suggestion: "--y"),
        UsageError.invalidValue(option: "--jobs", value: "0", problem: .outOfRange(1...4)),
        JSONError.unexpectedEnd, JSONError.tooDeep(at: 3), JSONError.unexpected("x", at: 0),
        TranscriptError.notUTF8, TranscriptError.badHeader("#! navstack --nope"), TranscriptError.tooLarge(bytes: 1 << 30),
        FileError(step: .file("/x"), reason: "No such file or directory"),
        FileError(step: .temporaryFolder(in: "/tmp"), reason: "Permission denied"),
        FileError(step: .running("/bin/navstack"), reason: "Permission denied"),
        FileError(step: .output(fd: 1), reason: "Broken pipe"),
        StoreError.locked(path: "/s"), StoreError.newerSchema(path: "/s", version: 9),
        StoreError.sqlite(path: "/s", cause: SQLiteError(code: 1, message: "boom", sql: "SELECT")),
        StoreError.session(.full(path: "/s"), language: .pt),
        ImportError.noProfile, ImportError.empty(source: "in.json"), ImportError.notJSON(.unexpectedEnd),
        ImportError.badRecord(index: 2, .noTitle), ImportError.badRecord(index: 0, .value(.blank(.title))),
        ImportError.badRecord(index: 1, .value(.tooLong(.title, count: 1001, limit: 1000))),
        ImportError.badRecords(
            [
                BadRecord(
                    .record(1), uuid: "7e160343-d492-49b6-8ab5-ec32f89ee792", title: "a b",
                    .value(.tooManyItems(.annotations, count: 201, limit: 200))),
                BadRecord(.line(4), title: "x", .value(.blank(.customName))),
            ], more: 3),
        ImportError.badRecord(index: 2, .value(.badWord(.tags, "a b"))), FieldProblem.blank(.customName),
        FieldProblem.tooManyItems(.fields, count: 201, limit: 200),
        ImportError.badRecord(index: 2, .value(.controlCharacter(.customValue, "\u{7}"))),
        ImportError.badRecord(index: 3, .parentOutOfRange(7, count: 3)),
        SyncError.refusedToken, SyncError.outOfTime, SyncError.malformedAnswer(.badKey),
        SyncError.server(status: 500, message: ""), SyncError.keyTaken(record: "{}"),
        SyncWireError.missing(path: "ops[0].seq"), SyncWireError.notJSON(.unexpectedEnd), SyncWireError.tooManyOperations,
        SyncSecretError.malformed(.token, source: "--token"),
        SyncSecretError.unreadable(.passphrase, file: "/p", reason: "Permission denied"),
        SyncError.unopenable(replica: "r1", seq: 3), SyncError.clearNeedsMigrate, SyncError.keyMissing,
        HTTPError.connectionClosed, HTTPError.refused(host: "::1", port: 80), HTTPError.timedOut(.seconds(2)),
        HTTPError.untrusted(host: "h", port: 443, reason: .unknownAuthority),
    ]

    /// Public error types a user never reads, each with why: the words of another type
    /// carry them, or their program speaks only English.
    private static let notWorded: Set<String> = [
        // NavStackSQLite: SQLite's facts, kept in a StoreError's `cause`, never shown.
        "SQLiteError",
        // NavStackSync and NavStackServer: refusals the server answers with a status and
        // English words, and the server's own failures (accounts, database address,
        // listening), in English.
        "SyncLogError", "ServerError",
        // NavStackTime: not read by users yet (no screen shows a date so far); the dates'
        // words come from the catalogs once they are (issue "What people track").
        "ZoneError", "DateError",
        // NavStackApp: a status to exit with, its words already printed.
        "ExitStatus",
    ]

    /// Every error type a user may read gives its words from the catalogs, in each language:
    /// the executable words any error through ``CatalogError``, never by a list of types.
    func testEveryErrorIsACatalogErrorWordedInEachLanguage() {
        for error in Self.representatives {
            XCTAssertTrue(error is any CatalogError, "\(type(of: error)) is not a CatalogError")
            for language in Language.allCases {
                let t = Catalog(language)
                let words = App.words(for: error, in: t)
                XCTAssertFalse(words.isEmpty, "\(error) in \(language)")
                XCTAssertNotEqual(words, t(.ioUnexpected), "\(error) in \(language)")
                XCTAssertEqual(words, (error as? any CatalogError)?.message(in: t))
                assertNoInternalName(words)
            }
        }
    }

    /// Each public error type declared in Sources is among the representatives, or is one a
    /// user never reads (``notWorded``): a new type must say how it is worded.
    func testEveryPublicErrorTypeIsRepresented() throws {
        let sources = NavstackProcess.packageRoot.appendingPathComponent("Sources")
        let declaration = try NSRegularExpression(
            pattern: #"public (?:final )?(?:enum|struct|class|actor) (\w+)\s*:[^{]*\b(?:Error|CatalogError)\b"#)
        var declared: Set<String> = []
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path))
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                declared.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        let represented = Set(Self.representatives.map { String(describing: type(of: $0)) })
        XCTAssertEqual(declared.subtracting(Self.notWorded), represented)
        XCTAssertTrue(Self.notWorded.isSubset(of: declared), "\(Self.notWorded.subtracting(declared)) no longer declared")
    }
}
