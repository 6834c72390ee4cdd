import NavStackHTTP
import XCTest

/// A server address is read from `http://host[:port][/path]`, and anything else is refused
/// with a message that says what is wrong.
final class HTTPURLTests: XCTestCase {
    func testAddressesThatRead() throws {
        let cases: [(String, host: String, port: Int, path: String)] = [
            ("http://example.org", "example.org", 80, ""),
            ("http://example.org/", "example.org", 80, ""),
            ("HTTP://Sync.Example.ORG:8080/base/", "sync.example.org", 8080, "/base"),
            ("http://127.0.0.1:9/a/b", "127.0.0.1", 9, "/a/b"),
            ("http://[::1]:8080", "::1", 8080, ""),
            ("http://[2001:db8::7]/x", "2001:db8::7", 80, "/x"),
            ("http://localhost:65535/p%20q;v=1", "localhost", 65535, "/p%20q;v=1"),
        ]
        for (text, host, port, path) in cases {
            let url = try HTTPURL(text)
            XCTAssertEqual(url.host, host, text)
            XCTAssertEqual(url.port, port, text)
            XCTAssertEqual(url.path, path, text)
        }
    }

    func testDescriptionAndAuthorityLeaveOutPort80() throws {
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
    }

    func testOtherSchemesAreRefusedWithTheirName() {
        assertRefused("https://sync.example.org", .unsupportedScheme("https"))
        assertRefused("HTTPS://sync.example.org", .unsupportedScheme("https"))
        assertRefused("ftp://example.org/x", .unsupportedScheme("ftp"))
        XCTAssertEqual(
            HTTPError.unsupportedScheme("https").description,
            "only http:// addresses are supported, not https://: for TLS, put a TLS-terminating proxy in front and give its http:// address")
    }

    func testBadAddressesSayWhatIsWrong() {
        let start = "it must start with http://"
        let port = "the port must be a number from 1 to 65535"
        let cases: [(String, String)] = [
            ("", start),
            ("example.org", start),
            ("localhost:8080", start),
            ("://example.org", start),
            ("http:/example.org", start),
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
            "\"h:1\" is not a server address (http://host[:port][/path]): it must start with http://")
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
