import Logging
import XCTest

@testable import NavStackServer

/// ``ServerLogHandler`` writes the lines `StreamLogHandler` writes for the same logger.
final class ServerLogHandlerTests: XCTestCase {
    /// The lines written, without the timestamp each starts with.
    private final class Lines: TextOutputStream, @unchecked Sendable {
        var text = ""
        func write(_ string: String) { text += string }
        var withoutTimes: [String] {
            text.split(separator: "\n").map { line in String(line.drop { $0 != " " }) }
        }
    }

    private func log(into handler: some LogHandler) {
        var logger = Logger(label: "navstack-server") { _ in handler }
        logger.logLevel = .info
        logger[metadataKey: "b"] = "2"
        logger[metadataKey: "a"] = "1"
        logger.info("first")
        // What the database driver does at every statement.
        logger[metadataKey: "psql_connection_id"] = "7"
        logger.info("second", metadata: ["b": "explicit", "c": "3"])
        logger.debug("not written")
        var bare = Logger(label: "navstack-server") { _ in handler }
        bare.logLevel = .info
        bare.warning("bare")
        bare.info("explicit only", metadata: ["ms": "1.5"])
    }

    func testTheLinesAreStreamLogHandlersLines() {
        let expected = Lines()
        let got = Lines()
        log(into: StreamLogHandler(label: "navstack-server", stream: expected, metadataProvider: nil))
        log(into: ServerLogHandler(stream: StreamLogHandler(label: "navstack-server", stream: got, metadataProvider: nil)))
        XCTAssertEqual(expected.withoutTimes.count, 4)
        XCTAssertEqual(got.withoutTimes, expected.withoutTimes)
        XCTAssertEqual(
            got.withoutTimes[1], " info navstack-server: a=1 b=explicit c=3 psql_connection_id=7 [NavStackServerTests] second")
    }
}
