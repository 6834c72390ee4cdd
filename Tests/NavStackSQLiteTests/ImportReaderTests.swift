import NavStackCore
import XCTest
@testable import NavStackSQLite

/// The import parser reads strict JSON through the one reader, and holds titles and
/// notes to what a command line may carry.
final class ImportReaderTests: XCTestCase {
    private func parse(_ text: String) throws -> [DraftFields] {
        try SQLiteStore.parseImport(Array(text.utf8)).map(\.fields)
    }

    private func error(_ bytes: [UInt8]) -> ImportError? {
        do {
            _ = try SQLiteStore.parseImport(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func error(_ text: String) -> ImportError? { error(Array(text.utf8)) }

    func testNumbersAreStrictEvenInIgnoredKeys() throws {
        for number in ["+e.", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "--1", "-", "0x10", "1.5.2", "1ee3", "Infinity", "NaN"] {
            let text = #"{"title":"a","x":"# + number + "}\n"
            XCTAssertNotNil(error(text), text)
            let array = #"[{"title":"a","x":["# + number + "]}]"
            XCTAssertNotNil(error(array), array)
        }
        XCTAssertEqual(error(#"{"title":"a","x":+e.}"#), .badRecord(index: 0, .notJSON(.unexpected("+", at: 17))))
        XCTAssertEqual(error(#"{"title":"a","x":01}"#), .badRecord(index: 0, .notJSON(.badNumber(at: 17))))
        for number in ["0", "-0", "12", "1.5", "-12.0E-2", "1e3", "1E+3", "0.25e-1"] {
            XCTAssertEqual(try parse(#"{"title":"a","x":["# + number + "]}").map(\.title), ["a"], number)
        }
    }

    func testInvalidUTF8AndLoneSurrogatesAreRefusedWithTheirOffset() {
        XCTAssertEqual(error(Array(#"{"title":"a"#.utf8) + [0xFF] + Array(#"b"}"#.utf8)),
                       .badRecord(index: 0, .notJSON(.invalidUTF8(at: 11))))
        // An overlong form, an encoded surrogate, a cut sequence, in an ignored key too.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            XCTAssertEqual(error(Array(#"[{"title":"a","x":""#.utf8) + bad + Array(#""}]"#.utf8)),
                           .badRecord(index: 0, .notJSON(.invalidUTF8(at: 19))), "\(bad)")
        }
        XCTAssertEqual(error(#"[{"title":"a\ud83d"}]"#), .badRecord(index: 0, .notJSON(.loneSurrogate(at: 12))))
        XCTAssertEqual(error(#"[{"title":"\ud83d\u0041"}]"#), .badRecord(index: 0, .notJSON(.loneSurrogate(at: 11))))
        XCTAssertEqual(error(#"{"title":"x","y":"\udc00"}"#), .badRecord(index: 0, .notJSON(.loneSurrogate(at: 18))))
        XCTAssertEqual(error(#"{"title":"x"}"# + "\n" + #"{"title":"x\udc00"}"#), .badRecord(index: 1, .notJSON(.loneSurrogate(at: 25))))
        XCTAssertEqual(error(#"{"title":"a\ud83d"}"#)?.description,
                       #"record 0: not JSON (a \u escape of half a surrogate pair at byte 11); nothing was imported"#)
        // A whole pair is one character.
        XCTAssertEqual(try? parse(#"[{"title":"\ud83d\ude00"}]"#).map(\.title), ["😀"])
    }

    func testALeadingByteOrderMarkIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        XCTAssertEqual(try SQLiteStore.parseImport(bom + Array(#"[{"title":"a"}]"#.utf8)).map(\.fields.title), ["a"])
        XCTAssertEqual(try SQLiteStore.parseImport(bom + Array("{\"title\":\"a\"}\n{\"title\":\"b\"}\n".utf8)).map(\.fields.title), ["a", "b"])
        XCTAssertNotNil(error(Array(#"[{"title":"a"}]"#.utf8) + bom), "only at the start")
    }

    func testAnEmptyInputIsAnError() {
        for text in ["", " \n\t\r\n", "\u{FEFF}"] {
            XCTAssertEqual(error(text), .empty(source: "the input"), text.debugDescription)
        }
        XCTAssertEqual(ImportError.empty(source: "tasks.json").description, "no tasks in tasks.json: it is empty")
        XCTAssertEqual(try parse("[]"), [], "an empty array says there are no tasks on purpose")
    }

    func testTitlesAndNotesCarryOnlyWhatACommandLineCould() {
        XCTAssertEqual(error(#"[{"title":"a\u001b[31mred"}]"#), .badRecord(index: 0, .controlCharacter(.title, "\u{1B}")))
        XCTAssertEqual(error(#"[{"title":"a\nb"}]"#), .badRecord(index: 0, .controlCharacter(.title, "\n")))
        XCTAssertEqual(error(#"[{"title":"ok"},{"title":"b","notes":"one\ntwo"}]"#), .badRecord(index: 1, .controlCharacter(.notes, "\n")))
        XCTAssertEqual(error(#"[{"title":"a\u202eb"}]"#), .badRecord(index: 0, .controlCharacter(.title, "\u{202E}")))
        XCTAssertEqual(error(#"[{"title":"a\u0085b"}]"#), .badRecord(index: 0, .controlCharacter(.title, "\u{85}")))
        XCTAssertEqual(error(#"[{"title":"a\u001b"}]"#)?.description,
                       #"record 0: the title contains the control character \u{1B}; nothing was imported"#)
        XCTAssertEqual(error(#"[{"title":""# + String(repeating: "x", count: 201) + #""}]"#),
                       .badRecord(index: 0, .tooLong(.title, count: 201, limit: 200)))
        XCTAssertEqual(error(#"[{"title":"t","notes":""# + String(repeating: "é", count: 2001) + #""}]"#),
                       .badRecord(index: 0, .tooLong(.notes, count: 2001, limit: 2000)))
        // 100 characters, but more bytes than a line holds after `title `.
        let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 30), count: 100)
        XCTAssertEqual(error(#"[{"title":""# + heavy + #""}]"#), .badRecord(index: 0, .tooManyBytes(.title, bytes: 6100, limit: 4090)))
        // A tab may be typed; it is kept inside a title and notes.
        XCTAssertEqual(try? parse(#"[{"title":"a\tb","notes":"c\td"}]"#), [DraftFields(title: "a\tb", notes: "c\td", done: false)])
    }

    func testDeepNestingIsRefusedNotFollowed() {
        let deep = #"{"title":"a","x":"# + String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000) + "}"
        XCTAssertEqual(error(deep), .badRecord(index: 0, .notJSON(.tooDeep(at: 17 + 511))))
        // The limit counts the array and the record around a value.
        let fits = #"[{"title":"a","x":"# + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}]"
        XCTAssertEqual(try? parse(fits).count, 1)
        let over = #"[{"title":"a","x":"# + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}]"
        XCTAssertEqual(error(over), .badRecord(index: 0, .notJSON(.tooDeep(at: 18 + 510))))
        XCTAssertEqual(error(over)?.description,
                       "record 0: not JSON (arrays and objects nested deeper than 512 at byte 528); nothing was imported")
    }

    func testTheStoresReaderAndTheImportReaderAgree() {
        // Documents in an ignored key of a record, and alone for the store's reader.
        let accepted = ["1", "-0", "[1,[2,{}]]", #"{"a":null}"#, #""\u00e9\ud83d\ude00""#, "true"]
        let refused = ["+e.", "01", "1.", #""\ud800""#, "[1,]", #"{"a"}"#, "tru", "\"\u{1}\""]
        for text in accepted {
            XCTAssertNotNil(JSONValue(parsing: text), text)
            XCTAssertNil(error(#"{"title":"t","x":"# + text + "}"), text)
        }
        for text in refused {
            XCTAssertNil(JSONValue(parsing: text), text)
            XCTAssertNotNil(error(#"{"title":"t","x":"# + text + "}"), text)
        }
        XCTAssertNil(JSONValue(parsing: #"{"x":+e.}"#))
    }

    func testAGivenUUIDIsKeptLowercasedAndMustBeOneAndUnique() throws {
        let uuid = "018CC251-F400-7000-B516-F52548DA1785"
        let records = try SQLiteStore.parseImport(Array(("{\"title\":\"a\",\"uuid\":\"\(uuid)\"}\n{\"title\":\"b\",\"uuid\":null}\n{\"title\":\"c\"}").utf8))
        XCTAssertEqual(records.map(\.uuid), [uuid.lowercased(), nil, nil])
        XCTAssertEqual(error(#"[{"title":"a","uuid":"not-a-uuid"}]"#), .badRecord(index: 0, .notAUUID))
        XCTAssertEqual(error(#"[{"title":"a","uuid":7}]"#), .badRecord(index: 0, .wrongType("uuid")))
        XCTAssertEqual(error("[{\"title\":\"a\",\"uuid\":\"\(uuid)\"},{\"title\":\"b\"},{\"title\":\"c\",\"uuid\":\"\(uuid.lowercased())\"}]"),
                       .badRecord(index: 2, .duplicateUUID(uuid.lowercased())))
        XCTAssertEqual(error(#"{"title":"a","\u0075uid":"x"}"#), .badRecord(index: 0, .notAUUID), "a key written with escapes is the same key")
    }
}
