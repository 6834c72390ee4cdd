import NavStackHTTP
import XCTest

/// Where the system's certificate authorities are looked for, as Go's crypto/x509 looks on
/// Linux, and how SSL_CERT_FILE and SSL_CERT_DIR replace those places.
final class TLSTrustTests: XCTestCase {
    private func locations(_ trust: TLSTrust, environment: [String: String] = [:], existing: Set<String>)
        -> (files: [String], folders: [String])
    {
        trust.locations(environment: { environment[$0] }, exists: { existing.contains($0) })
    }

    func testDebiansBundleAndFolder() {
        let found = locations(.system, existing: ["/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs"])
        XCTAssertEqual(found.files, ["/etc/ssl/certs/ca-certificates.crt"])
        XCTAssertEqual(found.folders, ["/etc/ssl/certs"])
    }

    func testFedorasBundleAndFolder() {
        let found = locations(.system, existing: ["/etc/pki/tls/certs/ca-bundle.crt", "/etc/pki/tls/certs"])
        XCTAssertEqual(found.files, ["/etc/pki/tls/certs/ca-bundle.crt"])
        XCTAssertEqual(found.folders, ["/etc/pki/tls/certs"])
    }

    func testAlpinesBundle() {
        let found = locations(.system, existing: ["/etc/ssl/cert.pem"])
        XCTAssertEqual(found.files, ["/etc/ssl/cert.pem"])
        XCTAssertEqual(found.folders, [])
    }

    func testOnlyTheFirstBundleThatExistsIsRead() {
        let found = locations(.system, existing: ["/etc/ssl/cert.pem", "/etc/pki/tls/certs/ca-bundle.crt"])
        XCTAssertEqual(found.files, ["/etc/pki/tls/certs/ca-bundle.crt"])
    }

    func testNothingWhereNothingExists() {
        let found = locations(.system, existing: [])
        XCTAssertEqual(found.files, [])
        XCTAssertEqual(found.folders, [])
    }

    func testSSLCertFileAndDirReplaceTheSystemsPlaces() {
        let environment = ["SSL_CERT_FILE": "/opt/ca/bundle.pem", "SSL_CERT_DIR": "/opt/ca/a:/opt/ca/missing:/opt/ca/b"]
        let existing: Set = ["/opt/ca/bundle.pem", "/opt/ca/a", "/opt/ca/b", "/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs"]
        let found = locations(.system, environment: environment, existing: existing)
        XCTAssertEqual(found.files, ["/opt/ca/bundle.pem"])
        XCTAssertEqual(found.folders, ["/opt/ca/a", "/opt/ca/b"])
    }

    func testAnEmptySSLCertFileOrDirIsUnset() {
        let environment = ["SSL_CERT_FILE": "", "SSL_CERT_DIR": ""]
        let found = locations(.system, environment: environment, existing: ["/etc/ssl/cert.pem", "/etc/ssl/certs"])
        XCTAssertEqual(found.files, ["/etc/ssl/cert.pem"])
        XCTAssertEqual(found.folders, ["/etc/ssl/certs"])
    }

    func testAPrivateAuthorityReplacesTheSystems() {
        // Read even when it cannot be found, so that a wrong --ca is said, not passed over.
        let found = locations(
            .authority(file: "ca.pem"), environment: ["SSL_CERT_FILE": "/opt/ca/bundle.pem"],
            existing: ["/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs"])
        XCTAssertEqual(found.files, ["ca.pem"])
        XCTAssertEqual(found.folders, [])
    }
}
