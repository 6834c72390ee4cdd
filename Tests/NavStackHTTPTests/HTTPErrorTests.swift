import NavStackHTTP
import XCTest

/// Every failure reads as one short line that names what it is about.
final class HTTPErrorTests: XCTestCase {
    func testDescriptions() {
        let cases: [(HTTPError, String)] = [
            (
                .invalidHeader(name: "X-A"),
                "the header \"X-A\" cannot be sent: its name or value is not valid, or the client sets it itself"
            ),
            (.cannotResolve(host: "sync.invalid"), "the host sync.invalid could not be found"),
            (.refused(host: "127.0.0.1", port: 9), "the server at 127.0.0.1:9 refused the connection"),
            (.refused(host: "::1", port: 9), "the server at [::1]:9 refused the connection"),
            (
                .unreachable(host: "10.1.2.3", port: 80, reason: "Network is unreachable"),
                "the server at 10.1.2.3:80 cannot be reached: Network is unreachable"
            ),
            (.timedOut(.seconds(2)), "the server did not answer within 2 s"),
            (.timedOut(.milliseconds(1500)), "the server did not answer within 1500 ms"),
            (.timedOut(.microseconds(200_001)), "the server did not answer within 201 ms"),
            (.connectionClosed, "the server closed the connection before it finished answering"),
            (.malformedResponse("a chunk does not end with CRLF"), "the server's answer is not valid HTTP: a chunk does not end with CRLF"),
            (.responseTooLarge(limit: 64 << 20), "the server's answer is larger than 64 MiB"),
            (.responseTooLarge(limit: 1536), "the server's answer is larger than 1536 bytes"),
            (.responseTooLarge(limit: 2048), "the server's answer is larger than 2 KiB"),
            (.system(call: "socket", code: 24), "socket failed: Too many open files"),
            (
                .plainTextRefused(host: "sync.example.org"),
                "http:// would send the token and tasks to sync.example.org in clear text; use https:// (http:// is only for localhost, 127.0.0.0/8 and ::1)"
            ),
            (
                .untrusted(host: "sync.example.org", port: 443, reason: .unknownAuthority),
                "the server at sync.example.org:443 is not trusted: its certificate is signed by an unknown authority"
            ),
            (
                .untrusted(host: "127.0.0.1", port: 8443, reason: .nameMismatch(names: "other.example, 10.0.0.1")),
                "the server at 127.0.0.1:8443 is not trusted: its certificate is for other.example, 10.0.0.1, not 127.0.0.1"
            ),
            (
                .untrusted(host: "::1", port: 8443, reason: .nameMismatch(names: "")),
                "the server at [::1]:8443 is not trusted: its certificate is not for ::1"
            ),
            (
                .untrusted(host: "h", port: 1, reason: .expired(since: "2021-01-01")),
                "the server at h:1 is not trusted: its certificate expired on 2021-01-01"
            ),
            (.untrusted(host: "h", port: 1, reason: .expired(since: nil)), "the server at h:1 is not trusted: its certificate has expired"),
            (
                .untrusted(host: "h", port: 1, reason: .notYetValid(until: "2030-01-01")),
                "the server at h:1 is not trusted: its certificate is not valid until 2030-01-01"
            ),
            (
                .untrusted(host: "h", port: 1, reason: .other("certificate revoked")),
                "the server at h:1 is not trusted: its certificate was refused: certificate revoked"
            ),
            (
                .tlsFailed(host: "h", port: 1, reason: "tlsv1 alert protocol version"),
                "the TLS handshake with the server at h:1 failed: tlsv1 alert protocol version"
            ),
            (.notTLS(host: "h", port: 1), "the server at h:1 answered in plain HTTP, not TLS"),
            (
                .noSystemAuthorities,
                "no certificate authorities were found on this machine: set SSL_CERT_FILE, or give the server's authority with --ca FILE"
            ),
            (
                .unreadableAuthorities(file: "ca.pem", reason: "No such file or directory"),
                "the certificate authorities in ca.pem cannot be read: No such file or directory"
            ),
            (.tlsUnavailable(reason: "malloc failure"), "TLS cannot be set up: malloc failure"),
        ]
        for (error, text) in cases {
            XCTAssertEqual(error.description, text)
        }
    }
}
