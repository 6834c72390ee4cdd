import NavStackHTTP
import XCTest

/// A server address is read from `https://host[:port][/path]` (or `http://` for this
/// machine), and anything else is refused with a message that says what is wrong.
final class HTTPURLTests: XCTestCase {
    func testAddressesThatRead() throws {
        let cases: [(String, scheme: HTTPURL.Scheme, host: String, port: Int, path: String)] = [
            ("https://example.org", .https, "example.org", 443, ""),
            ("HTTPS://Sync.Example.ORG:8443/base/", .https, "sync.example.org", 8443, "/base"),
            ("https://[2001:db8::7]/x", .https, "2001:db8::7", 443, "/x"),
            ("http://example.org", .http, "example.org", 80, ""),
            ("http://example.org/", .http, "example.org", 80, ""),
            ("HTTP://Sync.Example.ORG:8080/base/", .http, "sync.example.org", 8080, "/base"),
            ("http://127.0.0.1:9/a/b", .http, "127.0.0.1", 9, "/a/b"),
            ("http://[::1]:8080", .http, "::1", 8080, ""),
            ("http://[2001:db8::7]/x", .http, "2001:db8::7", 80, "/x"),
            ("http://localhost:65535/p%20q;v=1", .http, "localhost", 65535, "/p%20q;v=1"),
        ]
        for (text, scheme, host, port, path) in cases {
            let url = try HTTPURL(text)
            XCTAssertEqual(url.scheme, scheme, text)
            XCTAssertEqual(url.host, host, text)
            XCTAssertEqual(url.port, port, text)
            XCTAssertEqual(url.path, path, text)
        }
    }

    func testDescriptionAndAuthorityLeaveOutTheSchemesOwnPort() throws {
        XCTAssertEqual(try HTTPURL("HTTPS://Example.org:443/a/").description, "https://example.org/a")
        XCTAssertEqual(try HTTPURL("https://example.org:80").description, "https://example.org:80")
        XCTAssertEqual(try HTTPURL("https://[2001:db8::7]:8443").authority, "[2001:db8::7]:8443")
        XCTAssertEqual(try HTTPURL("http://localhost:443").authority, "localhost:443")
        XCTAssertEqual(try HTTPURL("http://Example.org:80/a/").description, "http://example.org/a")
        XCTAssertEqual(try HTTPURL("http://[::1]:8080/a").description, "http://[::1]:8080/a")
        XCTAssertEqual(try HTTPURL("http://[::1]").authority, "[::1]")
        XCTAssertEqual(try HTTPURL("http://h:81").authority, "h:81")
        XCTAssertEqual(try HTTPURL("http://h").target, "/")
    }

    func testAppendingPutsOneSlashBetween() throws {
        let root = try HTTPURL("http://h:1")
        let base = try HTTPURL("http://h:1/base/")
        XCTAssertEqual(root.appending("/v1/sync").target, "/v1/sync")
        XCTAssertEqual(root.appending("v1/sync").target, "/v1/sync")
        XCTAssertEqual(base.appending("/v1/sync").target, "/base/v1/sync")
        XCTAssertEqual(base.appending("v1/sync").description, "http://h:1/base/v1/sync")
        XCTAssertEqual(base.appending("").target, "/base")
        XCTAssertEqual(base.appending("/v1/sync").host, "h")
        XCTAssertEqual(base.appending("/v1/sync").port, 1)
        XCTAssertEqual(try HTTPURL("https://h/base").appending("v1/sync").description, "https://h/base/v1/sync")
    }

    // MARK: Plain HTTP only to this machine

    func testLoopbackHosts() throws {
        for text in [
            "http://localhost", "http://LOCALHOST:8080", "http://127.0.0.1:8080", "http://127.255.255.254",
            "http://[::1]:8080", "http://[0:0:0:0:0:0:0:1]", "https://127.0.0.1",
        ] {
            let url = try HTTPURL(text)
            XCTAssertTrue(url.isLoopback, text)
            XCTAssertNoThrow(try url.checkPlainText(), text)
        }
    }

    func testPlainHTTPToAnotherHostIsRefusedWithAWordForHTTPS() throws {
        // Names that merely look local, addresses next to loopback, and loopback written
        // in forms inet_pton does not read are all other hosts.
        for (text, host) in [
            ("http://sync.example.org:8080", "sync.example.org"), ("http://10.0.0.5", "10.0.0.5"),
            ("http://128.0.0.1", "128.0.0.1"), ("http://126.255.255.255", "126.255.255.255"),
            ("http://0.0.0.0:8080", "0.0.0.0"), ("http://localhost.example.org", "localhost.example.org"),
            ("http://mylocalhost", "mylocalhost"), ("http://localhost6", "localhost6"), ("http://127.1", "127.1"),
            ("http://[::]", "::"), ("http://[::2]", "::2"), ("http://[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
            ("http://[fe80::1]", "fe80::1"), ("http://127.0.0.1.", "127.0.0.1."),
        ] {
            let url = try HTTPURL(text)
            XCTAssertFalse(url.isLoopback, text)
            XCTAssertThrowsError(try url.checkPlainText(), text) {
                XCTAssertEqual($0 as? HTTPError, .plainTextRefused(host: host), text)
            }
        }
        XCTAssertEqual(
            HTTPError.plainTextRefused(host: "10.0.0.5").description,
            "http:// would send the token and tasks to 10.0.0.5 in clear text; use https:// (http:// is only for localhost, 127.0.0.0/8 and ::1)"
        )
    }

    func testHTTPSIsAcceptedForAnyHost() throws {
        for text in ["https://sync.example.org", "https://10.0.0.5:8443", "https://[2001:db8::7]", "https://localhost"] {
            XCTAssertNoThrow(try HTTPURL(text).checkPlainText(), text)
        }
    }

    func testOtherSchemesAreRefusedWithTheirName() {
        assertRefused("ftp://example.org/x", .unsupportedScheme("ftp"))
        assertRefused("HTTPX://example.org", .unsupportedScheme("httpx"))
        assertRefused("wss://example.org", .unsupportedScheme("wss"))
        XCTAssertEqual(
            HTTPError.unsupportedScheme("ftp").description,
            "only https:// (and http:// on this machine) addresses are supported, not ftp://")
    }

    func testBadAddressesSayWhatIsWrong() {
        let start = "it must start with https://"
        let port = "the port must be a number from 1 to 65535"
        let cases: [(String, String)] = [
            ("", start),
            ("example.org", start),
            ("localhost:8080", start),
            ("://example.org", start),
            ("http:/example.org", start),
            ("https//example.org", start),
            ("https://", "the host is missing"),
            ("https://h:0", port),
            ("http://", "the host is missing"),
            ("http://:80/x", "the host is missing"),
            ("http:///v1", "the host is missing"),
            ("http://exa mple.org", "the host may hold only letters, digits, '-' and '.'"),
            ("http://-h", "the host may hold only letters, digits, '-' and '.'"),
            ("http://h_1", "the host may hold only letters, digits, '-' and '.'"),
            ("http://h:", port),
            ("http://h:0", port),
            ("http://h:65536", port),
            ("http://h:+80", port),
            ("http://h:8o", port),
            ("http://h:99999999999999999999999", port),
            ("http://[::1", "the IPv6 address has no closing bracket"),
            ("http://[::1]x", "only a port can follow the IPv6 address"),
            ("http://[::1]:", port),
            ("http://[::g]", "::g is not an IPv6 address"),
            ("http://[127.0.0.1]", "127.0.0.1 is not an IPv6 address"),
            ("http://user:secret@h", "a user name or password cannot be part of the address"),
            ("http://h/x?y=1", "a query or fragment cannot be part of the address"),
            ("http://h?y=1", "a query or fragment cannot be part of the address"),
            ("http://h/x#top", "a query or fragment cannot be part of the address"),
            ("http://h/a b", "the path holds a character that must be percent-encoded"),
            ("http://h/é", "the path holds a character that must be percent-encoded"),
        ]
        for (text, reason) in cases {
            assertRefused(text, .invalidURL(text, reason: reason))
        }
        XCTAssertEqual(
            HTTPError.invalidURL("h:1", reason: start).description,
            "\"h:1\" is not a server address (https://host[:port][/path]): it must start with https://")
    }

    private func assertRefused(_ text: String, _ expected: HTTPError, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let url = try HTTPURL(text)
            XCTFail("\(text) read as \(url)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, text, file: file, line: line)
        }
    }
}
