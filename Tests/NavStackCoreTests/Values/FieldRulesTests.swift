import NavStackTime
import XCTest

@testable import NavStackCore

final class FieldRulesTests: XCTestCase {
    func testTheCharacterRuleRefusesControlCharactersOnly() {
        for scalar: Unicode.Scalar in ["\u{0}", "\u{7}", "\u{1B}", "\r", "\u{7F}", "\u{85}", "\u{9F}"] {
            XCTAssertTrue(FieldRules.refuses(scalar, lines: true), String(scalar.value, radix: 16))
        }
        // Kept, and shown escaped: bidi controls, zero-width characters, separators.
        for scalar: Unicode.Scalar in ["\u{200B}", "\u{202E}", "\u{2066}", "\u{200E}", "\u{FEFF}", "\u{2028}", "\u{A0}", "é"] {
            XCTAssertFalse(FieldRules.refuses(scalar, lines: false), String(scalar.value, radix: 16))
        }
        XCTAssertFalse(FieldRules.refuses("\t", lines: false), "a tab anywhere")
        XCTAssertTrue(FieldRules.refuses("\n", lines: false))
        XCTAssertFalse(FieldRules.refuses("\n", lines: true), "a line break where a value holds lines")
    }

    func testTextsAreHeldToOneSetOfLimits() {
        XCTAssertNil(FieldRules.problem(String(repeating: "a", count: 1000), as: .title))
        XCTAssertNil(FieldRules.problem(String(repeating: "é", count: 1000), as: .title))
        XCTAssertEqual(
            FieldRules.problem(String(repeating: "a", count: 1001), as: .title), .tooLong(.title, count: 1001, limit: 1000))
        XCTAssertEqual(FieldRules.problem(" \t", as: .title), .blank(.title))
        XCTAssertNil(FieldRules.problem("", as: .notes))
        XCTAssertEqual(FieldRules.problem("", as: .customName), .blank(.customName))
        XCTAssertNil(FieldRules.problem("", as: .customValue))
        for field in [TextField.notes, .annotation, .customValue] {
            XCTAssertNil(FieldRules.problem(String(repeating: "n", count: 2000), as: field))
            XCTAssertEqual(FieldRules.problem(String(repeating: "n", count: 2001), as: field), .tooLong(field, count: 2001, limit: 2000))
            XCTAssertNil(FieldRules.problem("one\ntwo\tthree", as: field))
            XCTAssertEqual(FieldRules.problem("a\rb", as: field), .controlCharacter(field, "\r"))
        }
        XCTAssertEqual(FieldRules.problem("a\nb", as: .title), .controlCharacter(.title, "\n"))
        XCTAssertEqual(FieldRules.problem("a\u{85}b", as: .title), .controlCharacter(.title, "\u{85}"))
        XCTAssertNil(FieldRules.problem("Pay\u{200B}rent \u{202E}x", as: .title))
        XCTAssertEqual(FieldRules.problem(String(repeating: "x", count: 65), as: .customName), .tooLong(.customName, count: 65, limit: 64))
        // Few characters, many bytes: held to what a line carries.
        let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 30), count: 100)
        XCTAssertEqual(FieldRules.problem(heavy, as: .title), .tooManyBytes(.title, bytes: 6100, limit: 4090))
    }

    func testListsHoldAtMostTheItemsATaskHolds() {
        let entry = Instant(secondsSinceEpoch: 0)
        let most = (0..<200).map { Annotation(entry: entry, text: "a\($0)") }
        XCTAssertNil(FieldRules.problem(.annotations(most), as: .annotations))
        XCTAssertEqual(
            FieldRules.problem(.annotations(most + [Annotation(entry: entry, text: "one more")]), as: .annotations),
            .tooManyItems(.annotations, count: 201, limit: 200))
        let fields = (0..<201).map { CustomField(name: "f\($0)", value: "") }
        XCTAssertEqual(FieldRules.problem(.custom(fields), as: .fields), .tooManyItems(.fields, count: 201, limit: 200))
        XCTAssertEqual(FieldRules.problem(.words((0..<201).map { "t\($0)" }), as: .tags), .tooManyItems(.tags, count: 201, limit: 200))
        XCTAssertEqual(FieldRules.problem(.words(["ok", "not ok"]), as: .tags), .badWord(.tags, "not ok"))
        XCTAssertEqual(
            FieldRules.problem(.words(["7E160343-D492-49B6-8AB5-EC32F89EE792"]), as: .depends),
            .badWord(.depends, "7E160343-D492-49B6-8AB5-EC32F89EE792"))
        XCTAssertEqual(FieldRules.problem(.name("a..b"), as: .project), .badWord(.project, "a..b"))
        XCTAssertEqual(FieldRules.problem(.name("X"), as: .priority), .badWord(.priority, "X"))
        XCTAssertNil(FieldRules.problem(.name("H"), as: .priority))
        XCTAssertEqual(
            FieldRules.problem(.custom([CustomField(name: "uda", value: "a\u{1B}b")]), as: .fields),
            .controlCharacter(.customValue, "\u{1B}"))
        XCTAssertEqual(
            FieldRules.problem(in: DraftFields(title: "ok", annotations: [Annotation(entry: entry, text: "a\u{7}")])),
            .controlCharacter(.annotation, "\u{7}"))
        XCTAssertNil(
            FieldRules.problem(
                in: DraftFields(title: "ok\u{200B}", notes: "n", tags: ["a"], custom: [CustomField(name: "u", value: "\u{202E}")])))
    }

    func testTheWordsSayTheFieldAndTheLimit() {
        let t = Catalog.english
        XCTAssertEqual(
            FieldProblem.tooLong(.title, count: 1001, limit: 1000).message(in: t), "title too long (1001 characters; the limit is 1000)")
        XCTAssertEqual(
            FieldProblem.tooManyItems(.annotations, count: 201, limit: 200).message(in: t),
            "annotations: 201 items; a task holds at most 200")
        XCTAssertEqual(
            FieldProblem.controlCharacter(.customValue, "\u{1B}").message(in: t),
            "the custom field value contains the control character \\u{1B}")
        XCTAssertEqual(FieldProblem.badWord(.tags, "a b").message(in: t), "tags cannot be 'a b'")
    }
}
