import XCTest

@testable import NavStackHTTP

/// Which addresses a resolved `localhost` may be reached at over plain HTTP.
final class ResolverTests: XCTestCase {
    func testLoopbackAddresses() throws {
        for (text, loopback) in [
            ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true),
            ("128.0.0.1", false), ("10.0.0.1", false), ("0.0.0.0", false),
            ("::", false), ("::2", false), ("::ffff:127.0.0.1", false), ("fe80::1", false),
        ] {
            let addresses = try XCTUnwrap(Resolver.lookUp(text, port: 8080, numeric: true), text)
            XCTAssertEqual(addresses.count, 1, text)
            XCTAssertEqual(addresses.first?.isLoopback, loopback, text)
        }
    }
}
