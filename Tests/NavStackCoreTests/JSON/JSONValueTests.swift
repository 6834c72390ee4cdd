import NavStackCore
import TestSeeds
import XCTest

final class JSONValueTests: XCTestCase {
    func testItReadsWhatJSONHolds() {
        let value = JSONValue(parsing: #" {"a": [1, -20, true, false, null], "b": {"c": "d"}, "e": []} "#)
        XCTAssertEqual(
            value,
            .object([
                ("a", .array([.number(1), .number(-20), .bool(true), .bool(false), .null])),
                ("b", .object([("c", .string("d"))])),
                ("e", .array([])),
            ]))
        XCTAssertEqual(value?["b"]?["c"]?.string, "d")
        XCTAssertEqual(value?["a"]?.array?.first?.number, 1)
        XCTAssertNil(value?["missing"])
        XCTAssertNil(value?["a"]?.string)
    }

    /// The elements of a top array one at a time, as `parse(foreign:)` reads the whole:
    /// the same values, and the same failures at the same places.
    func testAnArrayIsReadOneElementAtATime() throws {
        func elements(_ text: String) throws -> [JSONValue]? {
            try text.withUTF8Bytes { bytes -> [JSONValue]? in
                guard var reader = try JSONArrayReader(foreign: bytes) else { return nil }
                var values: [JSONValue] = []
                while let value = try reader.next() { values.append(value) }
                XCTAssertNil(try reader.next(), "nothing after the end")
                return values
            }
        }
        for text in [" [ ] ", "[1]", "[{\"a\": [1, 2.5]}, \"x\", null, true]\n", "[[[]]]"] {
            XCTAssertEqual(try elements(text), try JSONValue.parse(foreign: text).array, text)
        }
        XCTAssertNil(try elements(" {\"a\": 1}"), "no array at the top")
        for text in ["[1,]", "[1 2]", "[1] x", "[", "[{\"a\": }]", "[\"\u{7}\"]", "[1], [2]"] {
            var whole: JSONError?
            do { _ = try JSONValue.parse(foreign: text) } catch { whole = error }
            var one: (any Error)?
            do { _ = try elements(text) } catch { one = error }
            XCTAssertNotNil(whole, text)
            XCTAssertEqual(one as? JSONError, whole, text)
        }
    }

    /// An array read a block at a time gives what the whole input gives, element by element
    /// and failure by failure (at the same offsets), wherever the blocks are cut: inside a
    /// number, a string, a character of several bytes, an escape or the blanks.
    func testAnArrayReadInBlocksIsTheArrayReadWhole() throws {
        func whole(_ bytes: [UInt8]) -> Result<[JSONValue], JSONError> {
            bytes.withByteView { view in
                Result { () throws(JSONError) -> [JSONValue] in
                    guard var reader = try JSONArrayReader(foreign: view) else { throw .unexpectedEnd }
                    var values: [JSONValue] = []
                    while let value = try reader.next() { values.append(value) }
                    return values
                }
            }
        }
        func blocks(_ bytes: [UInt8], size: Int) -> Result<[JSONValue], JSONError> {
            let start = bytes.firstIndex(of: UInt8(ascii: "["))!
            var offset = min(bytes.count, start + 1 + size)
            var stream = JSONArrayStream(after: Array(bytes[..<offset]), position: start + 1, base: 0)
            var values: [JSONValue] = []
            do {
                while let value = try stream.next(more: {
                    guard offset < bytes.count else { return nil }
                    let end = min(bytes.count, offset + size)
                    defer { offset = end }
                    return Array(bytes[offset..<end])
                }) {
                    values.append(value)
                }
                return .success(values)
            } catch {
                return .failure(error as! JSONError)
            }
        }
        // A fixed seed: every run checks the same 400 inputs.
        var rng = SplitMix64(state: 46)
        let pieces = [
            #"{"a": 12345, "b": "ação 😀", "c": [1, 2.5e3, -0.25]}"#, #"{"e": "a\"b\u00e9\ud83d\ude00"}"#, "  7 ",
            #""x""#, "null", "true", #"{"deep": [[[[]]]]}"#, "{}", "[]", "123456789012",
        ]
        let bad = [
            #"{"a": }"#, "1 2", "\"\u{7}\"", #""\ud83d""#, "01", "[1,]", "\"\u{FF}\"", "tru", #"{"a" 1}"#, "1.",
        ]
        var checked = 0
        for round in 0..<400 {
            var elements = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
            if round % 3 == 0 { elements.insert(bad.randomElement(using: &rng)!, at: Int.random(in: 0...elements.count, using: &rng)) }
            var text = " [" + elements.joined(separator: Bool.random(using: &rng) ? "," : " ,\n ") + "]"
            if round % 7 == 0 { text += ["  ", " x", "\n]", ""].randomElement(using: &rng)! }
            var bytes = Array(text.utf8)
            if round % 11 == 0, !bytes.isEmpty { bytes.removeLast(Int.random(in: 1...min(3, bytes.count - 2), using: &rng)) }
            if round % 13 == 0 { bytes.insert(0xFF, at: Int.random(in: 2...bytes.count, using: &rng)) }
            let expected = whole(bytes)
            for size in [1, 2, 3, 5, 8, 13, 64, 5000] {
                XCTAssertEqual(blocks(bytes, size: size), expected, "\(String(decoding: bytes, as: UTF8.self)) in blocks of \(size)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 3200)
    }

    func testEscapes() {
        XCTAssertEqual(JSONValue(parsing: #""a\"b\\c\/d\n\t\r\b\f\u00e9\ud83d\ude00""#)?.string, "a\"b\\c/d\n\t\r\u{8}\u{C}é😀")
        XCTAssertNil(JSONValue(parsing: #""\ud83d""#), "a lone high surrogate")
        XCTAssertNil(JSONValue(parsing: #""\ud83d\u0041\ude00""#), "halves apart")
        XCTAssertNil(JSONValue(parsing: #""\udc00""#), "a lone low surrogate")
        XCTAssertNil(JSONValue(parsing: #""\u12g4""#))
        XCTAssertNil(JSONValue(parsing: #""\x""#))
        XCTAssertNil(JSONValue(parsing: "\"a\u{1}b\""), "a raw control character")
    }

    func testItNestsAsDeepAsTheImportReader() {
        XCTAssertNotNil(JSONValue(parsing: String(repeating: "[", count: 512) + String(repeating: "]", count: 512)))
    }

    func testWhatItRefuses() {
        for text in [
            "", "{", "[1,]", "{\"a\"}", "{\"a\":1,}", "1.5", "1e3", "-", "tru", "nul", "[1] 2", "\"open",
            "99999999999999999999", "01", "+1", "1.", "-",
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        ] {
            XCTAssertNil(JSONValue(parsing: text), text)
        }
    }

    func testWhatTheWriterWritesReadsBack() {
        let titles = [
            "plain", "\"\u{301} a quote with a mark", "a\r\nb", "quote \" and \\ slash /", "line\nbreak\ttab", "\u{1}\u{1B}[31m",
            "Café ☕ 日本 👩‍👩‍👧", "\u{2028}",
        ]
        var writer = JSONWriter()
        writer.object { json in
            json.key("titles"); json.strings(titles)
            json.key("count"); json.number(-3)
            json.key("done"); json.bool(true)
            json.key("none"); json.string(nil)
        }
        let value = JSONValue(parsing: writer.text)
        XCTAssertEqual(value?["titles"]?.array?.compactMap(\.string), titles)
        XCTAssertEqual(value?["count"]?.number, -3)
        XCTAssertEqual(value?["done"]?.bool, true)
        XCTAssertEqual(value?["none"], .null)
    }

    /// A quoted string is the writer's, whether it takes the plain path (printable ASCII
    /// but quotes and backslashes) or not.
    func testAQuotedStringIsTheWritersString() {
        let texts = [
            "", "plain", "Title 42", "~ tilde and space ", "quote \" in", "back \\ slash", "tab\there", "\u{7F}",
            "Café", "\u{2028}", "\u{1}", String(repeating: "long ", count: 40),
        ]
        for text in texts {
            var writer = JSONWriter()
            writer.string(text)
            XCTAssertEqual(text.jsonQuoted, writer.text, text)
            XCTAssertEqual(JSONValue(parsing: text.jsonQuoted)?.string, text, text)
        }
    }
}
