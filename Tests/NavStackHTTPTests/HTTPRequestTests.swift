import XCTest

@testable import NavStackHTTP

/// A request is written as the same bytes every time: the client's headers, then the
/// caller's sorted by name.
final class HTTPRequestTests: XCTestCase {
    func testAPostWithABody() throws {
        let request = HTTPRequest(
            method: .post, url: try HTTPURL("http://sync.example.org:8080/base").appending("/v1/sync"),
            headers: ["Content-Type": "application/json", "Authorization": "Bearer abc"], body: Array("{}".utf8))
        XCTAssertEqual(
            String(decoding: try request.head(), as: UTF8.self),
            "POST /base/v1/sync HTTP/1.1\r\nHost: sync.example.org:8080\r\nConnection: close\r\nContent-Length: 2\r\n"
                + "Authorization: Bearer abc\r\nContent-Type: application/json\r\n\r\n")
    }

    func testAGetHasNoContentLengthAndPort80IsLeftOut() throws {
        let request = HTTPRequest(method: .get, url: try HTTPURL("http://[::1]").appending("health"))
        XCTAssertEqual(
            String(decoding: try request.head(), as: UTF8.self),
            "GET /health HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n")
    }

    func testAnEmptyPostSaysItsLengthIsZero() throws {
        let request = HTTPRequest(method: .post, url: try HTTPURL("http://h"))
        XCTAssertEqual(
            String(decoding: try request.head(), as: UTF8.self),
            "POST / HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    }

    func testHeadersThatCannotBeSentAreRefused() throws {
        let url = try HTTPURL("http://h")
        for (name, value) in [
            ("Authorization", "Bearer a\r\nX-Injected: 1"), ("X-A", "line\nbreak"), ("Bad Name", "v"), ("", "v"),
            ("Host", "other"), ("content-length", "5"), ("Connection", "keep-alive"), ("Transfer-Encoding", "chunked"),
        ] {
            XCTAssertThrowsError(try HTTPRequest(method: .get, url: url, headers: [name: value]).head()) { error in
                XCTAssertEqual(error as? HTTPError, .invalidHeader(name: name))
            }
        }
    }

    func testAnAppendedPathWithASpaceIsRefused() throws {
        let url = try HTTPURL("http://h").appending("/a b")
        XCTAssertThrowsError(try HTTPRequest(method: .get, url: url).head()) { error in
            XCTAssertEqual(error as? HTTPError, .invalidURL("http://h/a b", reason: "the path holds a space or a control character"))
        }
    }
}
