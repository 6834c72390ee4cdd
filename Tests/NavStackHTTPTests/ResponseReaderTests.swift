import NavStackBytes
import XCTest

@testable import NavStackHTTP

/// An answer reads the same whether its bytes arrive at once or one at a time, framed by
/// Content-Length, by chunks or by the end of the connection.
final class ResponseReaderTests: XCTestCase {
    func testContentLength() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nX-Two: a\r\nx-two: b\r\n\r\n{\"ok\":true}"
        try assertReads(
            text,
            HTTPResponse(
                status: 200, headers: ["content-type": "application/json", "content-length": "11", "x-two": "a, b"],
                body: Array("{\"ok\":true}".utf8)))
    }

    func testChunkedWithExtensionsAndTrailers() throws {
        let text =
            "HTTP/1.1 201 Created\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n5\r\nhello\r\n7;name=value\r\n, world\r\nA \r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n"
        try assertReads(
            text,
            HTTPResponse(
                status: 201, headers: ["transfer-encoding": "gzip, Chunked"], body: Array("hello, world0123456789".utf8)))
    }

    /// A connection carries another request only after an HTTP/1.1 answer framed by its
    /// length or chunks, without `Connection: close`, with nothing after it.
    func testWhenTheConnectionMayBeKept() throws {
        func mayBeKept(_ text: String, ended: Bool = false) throws -> Bool {
            var reader = ResponseReader(limit: 1 << 20)
            try Array(text.utf8).withBytes { try reader.feed($0) }
            if ended { _ = try reader.finish() }
            XCTAssertNotNil(reader.response, text)
            return reader.connectionMayBeKept
        }
        XCTAssertTrue(try mayBeKept("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        XCTAssertTrue(try mayBeKept("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"))
        XCTAssertTrue(try mayBeKept("HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n"))
        XCTAssertFalse(try mayBeKept("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: Close\r\n\r\nok"))
        XCTAssertFalse(try mayBeKept("HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n"))
        XCTAssertFalse(try mayBeKept("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        XCTAssertFalse(try mayBeKept("HTTP/1.1 200 OK\r\n\r\nuntil the end", ended: true))
        XCTAssertFalse(try mayBeKept("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n"), "bytes after the answer")
        var unfinished = ResponseReader(limit: 1 << 20)
        try Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok".utf8).withBytes { try unfinished.feed($0) }
        XCTAssertFalse(unfinished.connectionMayBeKept, "an answer not read whole")
    }

    func testUntilCloseIsCompleteOnlyAtTheEnd() throws {
        let text = "HTTP/1.0 200 OK\r\nServer: old\r\n\r\nall of it"
        try assertReads(text, HTTPResponse(status: 200, headers: ["server": "old"], body: Array("all of it".utf8)), needsEnd: true)
    }

    func testNoBodyFor204AndAnInterimAnswerIsReadPast() throws {
        try assertReads("HTTP/1.1 204 No Content\r\nX: y\r\n\r\n", HTTPResponse(status: 204, headers: ["x": "y"]))
        try assertReads(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n\r\n",
            HTTPResponse(status: 413, headers: ["content-length": "0"]))
    }

    func testAStatusLineWithoutAReason() throws {
        try assertReads(
            "HTTP/1.1 503\r\ncontent-length:2\r\n\r\nno",
            HTTPResponse(status: 503, headers: ["content-length": "2"], body: Array("no".utf8)))
    }

    func testAnAnswerCutShortIsConnectionClosed() throws {
        for text in [
            "", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n12345",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n",
        ] {
            var reader = ResponseReader(limit: 100)
            try feed(text, to: &reader, oneByteAtATime: false)
            XCTAssertNil(reader.response, text)
            XCTAssertThrowsError(try reader.finish(), text) { XCTAssertEqual($0 as? HTTPError, .connectionClosed, text) }
        }
    }

    func testMalformedAnswers() {
        let cases: [(String, String)] = [
            ("SSH-2.0-OpenSSH\r\n\r\n", "the status line is \"SSH-2.0-OpenSSH\""),
            ("HTTP/2 200\r\n\r\n", "the status line is \"HTTP/2 200\""),
            ("HTTP/1.1 20 OK\r\n\r\n", "the status line is \"HTTP/1.1 20 OK\""),
            ("HTTP/1.1 2000\r\n\r\n", "the status line is \"HTTP/1.1 2000\""),
            ("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "a header line is not \"name: value\""),
            ("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n", "a header line is not \"name: value\""),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n", "the Content-Length \"1, 2\" is not one number"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the Content-Length \"-1\" is not one number"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a chunk size is \"zz\""),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "a chunk does not end with CRLF"),
            ("HTTP/1.1 101 Switching Protocols\r\n\r\n", "the server switched protocols"),
            ("HTTP/1.1 200 OK\r\n" + String(repeating: "X-Long: 0123456789\r\n", count: 4000), "the headers are longer than 64 KiB"),
        ]
        for (text, what) in cases {
            var reader = ResponseReader(limit: 100)
            XCTAssertThrowsError(try feed(text, to: &reader, oneByteAtATime: false), text) { error in
                XCTAssertEqual(error as? HTTPError, .malformedResponse(what), text)
            }
        }
    }

    func testAnIdenticalRepeatedContentLengthIsOne() throws {
        try assertReads(
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab",
            HTTPResponse(status: 200, headers: ["content-length": "2, 2"], body: Array("ab".utf8)))
    }

    func testABodyOverTheLimitIsRefusedHoweverItIsFramed() {
        for text in [
            "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "HTTP/1.1 200 OK\r\n\r\n0123456789a",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n5\r\n",
        ] {
            var reader = ResponseReader(limit: 10)
            XCTAssertThrowsError(try feed(text, to: &reader, oneByteAtATime: false), text) { error in
                XCTAssertEqual(error as? HTTPError, .responseTooLarge(limit: 10), text)
            }
        }
    }

    func testABodyOfExactlyTheLimitIsRead() throws {
        var reader = ResponseReader(limit: 10)
        try feed("HTTP/1.1 200 OK\r\n\r\n0123456789", to: &reader, oneByteAtATime: false)
        XCTAssertEqual(try reader.finish().body, Array("0123456789".utf8))
    }

    /// Feeds `text` whole and then one byte at a time, checking both read as `expected`.
    private func assertReads(
        _ text: String, _ expected: HTTPResponse, needsEnd: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for oneByteAtATime in [false, true] {
            var reader = ResponseReader(limit: 1 << 20)
            try feed(text, to: &reader, oneByteAtATime: oneByteAtATime)
            if needsEnd {
                XCTAssertNil(reader.response, file: file, line: line)
                XCTAssertEqual(try reader.finish(), expected, file: file, line: line)
            } else {
                XCTAssertEqual(reader.response, expected, file: file, line: line)
            }
        }
    }

    private func feed(_ text: String, to reader: inout ResponseReader, oneByteAtATime: Bool) throws {
        let bytes = Array(text.utf8)
        try bytes.withBytes { all in
            if oneByteAtATime {
                for index in all.indices { try reader.feed(all.view(index..<index + 1)) }
            } else {
                try reader.feed(all)
            }
        }
    }
}
