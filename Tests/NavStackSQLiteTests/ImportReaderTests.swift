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
            return error.single
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
        XCTAssertEqual(
            error(Array(#"{"title":"a"#.utf8) + [0xFF] + Array(#"b"}"#.utf8)),
            .badRecord(index: 0, .notJSON(.invalidUTF8(at: 11))))
        // An overlong form, an encoded surrogate, a cut sequence, in an ignored key too.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            XCTAssertEqual(
                error(Array(#"[{"title":"a","x":""#.utf8) + bad + Array(#""}]"#.utf8)),
                .badRecord(index: 0, .notJSON(.invalidUTF8(at: 19))), "\(bad)")
        }
        XCTAssertEqual(error(#"[{"title":"a\ud83d"}]"#), .badRecord(index: 0, .notJSON(.loneSurrogate(at: 12))))
        XCTAssertEqual(error(#"[{"title":"\ud83d\u0041"}]"#), .badRecord(index: 0, .notJSON(.loneSurrogate(at: 11))))
        XCTAssertEqual(error(#"{"title":"x","y":"\udc00"}"#), .badRecord(index: 0, .notJSON(.loneSurrogate(at: 18))))
        XCTAssertEqual(error(#"{"title":"x"}"# + "\n" + #"{"title":"x\udc00"}"#), .badRecord(index: 1, .notJSON(.loneSurrogate(at: 25))))
        XCTAssertEqual(
            error(#"{"title":"a\ud83d"}"#)?.description,
            #"record 0: not JSON (a \u escape of half a surrogate pair at byte 11); nothing was imported"#)
        // A whole pair is one character.
        XCTAssertEqual(try? parse(#"[{"title":"\ud83d\ude00"}]"#).map(\.title), ["😀"])
    }

    func testALeadingByteOrderMarkIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        XCTAssertEqual(try SQLiteStore.parseImport(bom + Array(#"[{"title":"a"}]"#.utf8)).map(\.fields.title), ["a"])
        XCTAssertEqual(
            try SQLiteStore.parseImport(bom + Array("{\"title\":\"a\"}\n{\"title\":\"b\"}\n".utf8)).map(\.fields.title), ["a", "b"])
        XCTAssertNotNil(error(Array(#"[{"title":"a"}]"#.utf8) + bom), "only at the start")
    }

    func testAnEmptyInputIsAnError() {
        for text in ["", " \n\t\r\n", "\u{FEFF}"] {
            XCTAssertEqual(error(text), .empty(source: "the input"), text.debugDescription)
        }
        XCTAssertEqual(ImportError.empty(source: "tasks.json").description, "no tasks in tasks.json: it is empty")
        XCTAssertEqual(try parse("[]"), [], "an empty array says there are no tasks on purpose")
    }

    func testTitlesAndNotesHoldWhatFieldRulesTake() {
        XCTAssertEqual(error(#"[{"title":"a\u001b[31mred"}]"#), .badRecord(index: 0, .value(.controlCharacter(.title, "\u{1B}"))))
        XCTAssertEqual(error(#"[{"title":"a\nb"}]"#), .badRecord(index: 0, .value(.controlCharacter(.title, "\n"))))
        XCTAssertEqual(
            error(#"[{"title":"ok"},{"title":"b","notes":"one\rtwo"}]"#), .badRecord(index: 1, .value(.controlCharacter(.notes, "\r"))))
        XCTAssertEqual(try parse(#"[{"title":"b","notes":"one\ntwo"}]"#).first?.notes, "one\ntwo", "notes may hold several lines")
        // Bidi controls and zero-width characters are kept, and shown escaped.
        XCTAssertEqual(try parse(#"[{"title":"a\u202eb\u200bc"}]"#).first?.title, "a\u{202E}b\u{200B}c")
        XCTAssertEqual(error(#"[{"title":"a\u0085b"}]"#), .badRecord(index: 0, .value(.controlCharacter(.title, "\u{85}"))))
        XCTAssertThrowsError(try SQLiteStore.parseImport(Array(#"[{"title":"a\u001b"}]"#.utf8))) {
            XCTAssertEqual(
                ($0 as? ImportError)?.description,
                #"record 0 ("a\u{1B}"): the title contains the control character \u{1B}; nothing was imported"#)
        }
        XCTAssertEqual(
            error(#"[{"title":""# + String(repeating: "x", count: 1001) + #""}]"#),
            .badRecord(index: 0, .value(.tooLong(.title, count: 1001, limit: 1000))))
        XCTAssertEqual(try parse(#"[{"title":""# + String(repeating: "x", count: 1000) + #""}]"#).first?.title.count, 1000)
        XCTAssertEqual(
            error(#"[{"title":"t","notes":""# + String(repeating: "é", count: 2001) + #""}]"#),
            .badRecord(index: 0, .value(.tooLong(.notes, count: 2001, limit: 2000))))
        // 100 characters, but more bytes than a line holds after `title `.
        let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 30), count: 100)
        XCTAssertEqual(
            error(#"[{"title":""# + heavy + #""}]"#), .badRecord(index: 0, .value(.tooManyBytes(.title, bytes: 6100, limit: 4090))))
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
        XCTAssertEqual(
            error(over)?.description,
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
        let records = try SQLiteStore.parseImport(
            Array(("{\"title\":\"a\",\"uuid\":\"\(uuid)\"}\n{\"title\":\"b\",\"uuid\":null}\n{\"title\":\"c\"}").utf8))
        XCTAssertEqual(records.map(\.uuid), [uuid.lowercased(), nil, nil])
        XCTAssertEqual(error(#"[{"title":"a","uuid":"not-a-uuid"}]"#), .badRecord(index: 0, .notAUUID))
        XCTAssertEqual(error(#"[{"title":"a","uuid":7}]"#), .badRecord(index: 0, .wrongType("uuid")))
        XCTAssertEqual(
            error("[{\"title\":\"a\",\"uuid\":\"\(uuid)\"},{\"title\":\"b\"},{\"title\":\"c\",\"uuid\":\"\(uuid.lowercased())\"}]"),
            .badRecord(index: 2, .duplicateUUID(uuid.lowercased())))
        XCTAssertEqual(
            error(#"{"title":"a","\u0075uid":"x"}"#), .badRecord(index: 0, .notAUUID), "a key written with escapes is the same key")
    }

    // MARK: - The tree

    private func input(_ text: String) throws -> ImportInput {
        try SQLiteStore.parseImport(Array(text.utf8))
    }

    func testAParentIsARecordsNumberOrAUUID() throws {
        let stored = "018CC251-F400-7000-B516-F52548DA1785"
        let given = "018cc251-f400-7000-b516-000000000007"
        let read = try input(
            """
            [{"title":"a","parent":null},{"title":"b","parent":0},{"title":"c","parent":"\(stored)"},
             {"title":"d","parent":"\(given)"},{"title":"e","uuid":"\(given.uppercased())","parent":0}]
            """)
        XCTAssertEqual(read.map(\.fields.title), ["a", "b", "c", "d", "e"])
        // A uuid a record gives names that record (the case of letters aside); the store
        // must have the others.
        XCTAssertEqual(read.parents, [nil, .record(0), .task(uuid: stored.lowercased()), .record(4), .record(0)])
        XCTAssertEqual((0..<5).map(read.parent(of:)), read.parents)
        // A record may name one after it; without any parent there are no parents at all.
        XCTAssertEqual(try input(#"{"title":"a","parent":1}\#n{"title":"b"}"#).parents, [.record(1), nil])
        XCTAssertEqual(try input(#"[{"title":"a"},{"title":"b","parent":null}]"#).parents, [])
        XCTAssertNil(try input(#"[{"title":"a"}]"#).parent(of: 0))
    }

    func testNestedRecordsAreNumberedDepthFirstAfterTheirParent() throws {
        // A nested record's parent is the record it is nested in: its own `parent` is
        // read (strictly) and ignored, as an export writes its parent's id there.
        let text = """
            [{"subtasks":[{"title":"a1","subtasks":[{"title":"a1x","parent":77,"done":true}]},{"title":"a2","parent":"x"}],"title":"a"},
             {"title":"b","subtasks":[]},
             {"title":"c","subtasks":null,"parent":0},
             {"title":"d","subtasks":[{"title":"d1"}],"id":9}]
            """
        let read = try input(text)
        XCTAssertEqual(read.map(\.fields.title), ["a", "a1", "a1x", "a2", "b", "c", "d", "d1"])
        XCTAssertEqual(read.parents, [nil, .record(0), .record(1), .record(0), nil, .record(0), nil, .record(6)])
        XCTAssertEqual(read[2].fields.done, true)
        // JSON Lines: one top-level record a line, each with its subtasks.
        let lines = try input(#"{"title":"a","subtasks":[{"title":"a1"}]}"# + "\n" + #"{"title":"b","subtasks":[{"title":"b1"}]}"#)
        XCTAssertEqual(lines.map(\.fields.title), ["a", "a1", "b", "b1"])
        XCTAssertEqual(lines.parents, [nil, .record(0), nil, .record(2)])
    }

    func testAnErrorNamesANestedRecordByItsNumber() {
        XCTAssertEqual(
            error(#"[{"title":"a","subtasks":[{"title":"a1"},{"notes":"no title"}]},{"title":"b"}]"#),
            .badRecord(index: 2, .noTitle))
        XCTAssertEqual(
            error(#"[{"title":"a"},{"title":"b","subtasks":[{"title":"b1","subtasks":[{"title":" "}]}]}]"#),
            .badRecord(index: 3, .value(.blank(.title))))
        XCTAssertEqual(error(#"[{"title":"a","subtasks":[{"title":"a1"}, 7]}]"#), .badRecord(index: 2, .notAnObject))
        // The record itself, once its subtasks are read: after them, and between them.
        XCTAssertEqual(error(#"[{"subtasks":[{"title":"a1"}],"done":"yes","title":"a"}]"#), .badRecord(index: 0, .wrongType("done")))
        XCTAssertEqual(error(#"[{"subtasks":[{"title":"a1"}]}]"#), .badRecord(index: 0, .noTitle))
        XCTAssertEqual(
            error(#"[{"title":"a","subtasks":[{"title":"a1"} {"title":"a2"}]}]"#),
            .badRecord(index: 0, .notJSON(.unexpected("{", at: 41))))
        XCTAssertEqual(
            error("{\"title\":\"a\",\"subtasks\":[{\"title\":\"a1\"}]}\n{\"title\":\"b\"} x\n"),
            .badRecord(index: 2, .notJSON(.unexpected("x", at: 56))), "the record on the line")
        XCTAssertEqual(
            error(#"[{"title":"a","subtasks":[{"title":"a1","uuid":"not one"}]}]"#)?.description,
            #"record 1: "uuid" is not a uuid (8-4-4-4-12 hexadecimal digits); nothing was imported"#)
    }

    func testEveryBadParentIsRefusedNamingTheRecord() {
        let cases: [(String, ImportError, String)] = [
            (
                #"[{"title":"a"},{"title":"b","parent":1}]"#, .badRecord(index: 1, .parentIsItself),
                #"record 1: "parent" names the record itself; nothing was imported"#
            ),
            (
                #"[{"title":"a","parent":2},{"title":"b"}]"#, .badRecord(index: 0, .parentOutOfRange(2, count: 2)),
                #"record 0: "parent" 2 names no record: the input has 2, numbered from 0; nothing was imported"#
            ),
            (
                #"[{"title":"a","parent":99999999999999999999999}]"#, .badRecord(index: 0, .parentOutOfRange(Int.max, count: 1)),
                #"record 0: "parent" 9223372036854775807 names no record: the input has 1, numbered from 0; nothing was imported"#
            ),
            (
                #"[{"title":"a"},{"title":"b","parent":3},{"title":"c","parent":1},{"title":"d","parent":2}]"#,
                .badRecord(index: 1, .parentCycle),
                "record 1: its parents go round in a circle: it would be under itself; nothing was imported"
            ),
            (
                #"[{"title":"a","parent":1},{"title":"b","parent":2},{"title":"c","parent":1}]"#, .badRecord(index: 0, .parentCycle),
                "record 0: its parents go round in a circle: it would be under itself; nothing was imported"
            ),
            (
                #"[{"title":"a","parent":-1}]"#, .badRecord(index: 0, .badParent),
                #"record 0: "parent" is neither the number of a record (a whole number from 0) nor a uuid; nothing was imported"#
            ),
            (#"[{"title":"a","parent":1.0},{"title":"b"}]"#, .badRecord(index: 0, .badParent), ""),
            (#"[{"title":"a","parent":1e0},{"title":"b"}]"#, .badRecord(index: 0, .badParent), ""),
            (#"[{"title":"a","parent":"b"}]"#, .badRecord(index: 0, .badParent), ""),
            (
                #"[{"title":"a","parent":true}]"#, .badRecord(index: 0, .wrongType("parent")),
                "record 0: parent has the wrong type; nothing was imported"
            ),
            (#"[{"title":"a","parent":[0]}]"#, .badRecord(index: 0, .wrongType("parent")), ""),
            (
                #"[{"title":"a","subtasks":{"title":"b"}}]"#, .badRecord(index: 0, .wrongType("subtasks")),
                "record 0: subtasks has the wrong type; nothing was imported"
            ),
            (#"[{"title":"a","subtasks":"b"}]"#, .badRecord(index: 0, .wrongType("subtasks")), ""),
            // A uuid a record of the input gives, naming the record itself.
            (
                #"[{"title":"a","uuid":"018cc251-f400-7000-b516-000000000007","parent":"018CC251-F400-7000-B516-000000000007"}]"#,
                .badRecord(index: 0, .parentIsItself), ""
            ),
        ]
        for (text, expected, message) in cases {
            XCTAssertEqual(error(text), expected, text)
            if !message.isEmpty { XCTAssertEqual(error(text)?.description, message, text) }
        }
        // Every language says it.
        let tooFar = ImportError.badRecord(index: 0, .parentOutOfRange(2, count: 2))
        XCTAssertEqual(
            tooFar.message(in: Catalog(.pt)),
            #"registro 0: "parent" 2 não indica nenhum registro: a entrada tem 2, numerados a partir de 0; nada foi importado"#)
        XCTAssertEqual(
            tooFar.message(in: Catalog(.es)),
            #"registro 0: "parent" 2 no indica ningún registro: la entrada tiene 2, numerados desde 0; no se importó nada"#)
    }

    /// Subtasks nested `levels` deep under one top-level record (levels 1 is the record alone).
    private func chain(_ levels: Int) -> String {
        String(repeating: #"{"title":"t","subtasks":["#, count: levels - 1) + #"{"title":"t"}"# + String(repeating: "]}", count: levels - 1)
    }

    func testATreeGoesAHundredLevelsDeepAndNoDeeper() throws {
        XCTAssertEqual(try input(chain(TreeLimits.depth)).count, 100)
        // Record 100 is the 101st level down: the first one too deep.
        XCTAssertEqual(error(chain(TreeLimits.depth + 1)), .badRecord(index: 100, .tooDeep(depth: 101)))
        XCTAssertEqual(
            error(chain(TreeLimits.depth + 1))?.description,
            "record 100: subtasks go 100 levels deep at most; this would make 101; nothing was imported")
        // The same with parents given by number, the deepest record first in the file.
        func numbered(_ levels: Int) -> String {
            (0..<levels).map { #"{"title":"t\#($0)""# + ($0 == levels - 1 ? "" : #","parent":\#($0 + 1)"#) + "}" }
                .joined(separator: "\n")
        }
        XCTAssertEqual(error(numbered(101)), .badRecord(index: 0, .tooDeep(depth: 101)))
        XCTAssertEqual(try input(numbered(100)).parents.first, .record(1))
        // JSON's own limit is further: in an array, 512 arrays and objects hold 256 levels.
        XCTAssertEqual(error("[" + chain(257) + "]"), .badRecord(index: 255, .notJSON(.tooDeep(at: 6400))), "the subtasks of the 256th")
    }
}
