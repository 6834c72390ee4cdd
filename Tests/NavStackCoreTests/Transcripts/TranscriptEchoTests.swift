import NavStackCore
import XCTest

final class TranscriptEchoTests: XCTestCase {
    func testJSONEchoObjectsReadAsCommandLines() {
        let output = """
            {"screen":"login"}
            {"echo":"login ana","line":1}
            {"screen":"list"}
            {"echo":"title a \\"b\\" \\u001b","line":2}
            {"error":{"message":"x","line":2}}

            """
        XCTAssertEqual(
            Transcript.lines(ofOutput: output),
            [
                #"{"screen":"login"}"#,
                "> login ana",
                #"{"screen":"list"}"#,
                #"> title a "b" \u{1B}"#,
                #"{"error":{"message":"x","line":2}}"#,
            ])
    }

    func testTextOutputIsSplitIntoItsLines() {
        XCTAssertEqual(Transcript.lines(ofOutput: "> where\nnavstack://tasks\n\n"), ["> where", "navstack://tasks", ""])
        XCTAssertEqual(Transcript.lines(ofOutput: "no break at the end"), ["no break at the end"])
    }
}
