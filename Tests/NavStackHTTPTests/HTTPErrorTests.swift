import NavStackHTTP
import XCTest

/// Every failure reads as one short line that names what it is about.
final class HTTPErrorTests: XCTestCase {
    func testDescriptions() {
        let cases: [(HTTPError, String)] = [
            (.invalidHeader(name: "X-A"), "the header \"X-A\" cannot be sent: its name or value is not valid, or the client sets it itself"),
            (.cannotResolve(host: "sync.invalid"), "the host sync.invalid could not be found"),
            (.refused(host: "127.0.0.1", port: 9), "the server at 127.0.0.1:9 refused the connection"),
            (.refused(host: "::1", port: 9), "the server at [::1]:9 refused the connection"),
            (.unreachable(host: "10.1.2.3", port: 80, reason: "Network is unreachable"),
             "the server at 10.1.2.3:80 cannot be reached: Network is unreachable"),
            (.timedOut(.seconds(2)), "the server did not answer within 2 s"),
            (.timedOut(.milliseconds(1500)), "the server did not answer within 1500 ms"),
            (.timedOut(.microseconds(200_001)), "the server did not answer within 201 ms"),
            (.connectionClosed, "the server closed the connection before it finished answering"),
            (.malformedResponse("a chunk does not end with CRLF"), "the server's answer is not valid HTTP: a chunk does not end with CRLF"),
            (.responseTooLarge(limit: 64 << 20), "the server's answer is larger than 64 MiB"),
            (.responseTooLarge(limit: 1536), "the server's answer is larger than 1536 bytes"),
            (.responseTooLarge(limit: 2048), "the server's answer is larger than 2 KiB"),
            (.system(call: "socket", code: 24), "socket failed: Too many open files"),
        ]
        for (error, text) in cases {
            XCTAssertEqual(error.description, text)
        }
    }
}
