import NavStackCore
import NavStackTime
import XCTest

/// The merge rules of `save`, field by field: every field, every combination of what the
/// draft (mine) and another writer (theirs) did with the base.
final class MergeTests: XCTestCase {
    /// The fields two values differ in are those whose values differ, in field order;
    /// text by canonical equivalence ("é" typed as "e" and U+0301 is no change).
    func testChangedFieldsAreTheFieldsWhoseValuesDiffer() {
        let base = DraftFields(title: "Caf\u{E9}", notes: "n", done: false)
        for title in ["Caf\u{E9}", "Cafe\u{301}", "Other"] {
            for notes in ["n", "", "m"] {
                for done in [false, true] {
                    let other = DraftFields(title: title, notes: notes, done: done)
                    XCTAssertEqual(other.changedFields(from: base), TaskField.allCases.filter { other[$0] != base[$0] })
                }
            }
        }
        XCTAssertEqual(DraftFields(title: "Other", notes: "m", done: true).changedFields(from: base), [.title, .notes, .done])
        XCTAssertEqual(DraftFields(title: "Cafe\u{301}", notes: "n").changedFields(from: base), [])
    }

    /// Two values of each field besides the base's.
    private static func values(_ field: TaskField) -> (base: FieldValue, x: FieldValue, y: FieldValue) {
        switch field {
        case .title: (.text("Base"), .text("Mine"), .text("Theirs"))
        case .notes: (.text(""), .text("mine notes"), .text("their notes"))
        case .done: (.flag(false), .flag(true), .flag(true))
        case .due, .scheduled, .wait, .until:
            (.instant(nil), .instant(Instant(secondsSinceEpoch: 1_764_547_200)), .instant(Instant(secondsSinceEpoch: 1_764_633_600)))
        case .priority: (.name(nil), .name("H"), .name("L"))
        case .project: (.name(nil), .name("home"), .name("work.q4"))
        case .recur: (.name(nil), .name("monthly"), .name("2w"))
        case .tags: (.words([]), .words(["home"]), .words(["errand", "home"]))
        case .depends: (.words([]), .words(["0c8e1b70-0000-4000-8000-000000000001"]), .words(["0c8e1b70-0000-4000-8000-000000000002"]))
        case .annotations:
            (
                .annotations([]), .annotations([Annotation(entry: Instant(secondsSinceEpoch: 1), text: "a")]),
                .annotations([Annotation(entry: Instant(secondsSinceEpoch: 2), text: "b")])
            )
        case .fields:
            (.custom([]), .custom([CustomField(name: "estimate", value: "3")]), .custom([CustomField(name: "estimate", value: "5")]))
        }
    }

    private static let base = DraftFields(title: "Base", notes: "", done: false)

    private func fields(_ field: TaskField, _ value: FieldValue) -> DraftFields {
        var fields = Self.base
        fields[field] = value
        return fields
    }

    func testEveryFieldEveryCombination() {
        for field in TaskField.allCases {
            let (base, x, y) = Self.values(field)
            // (mine, theirs, merged, changed, conflict)
            var cases: [(FieldValue, FieldValue, FieldValue, Bool, Bool)] = [
                (base, base, base, false, false),  // nobody changed it
                (base, x, x, false, false),  // only theirs: merged silently
                (x, base, x, true, false),  // only mine
                (x, x, x, true, false),  // both, to the same value
            ]
            // Both, to different values (a flag has only one value besides the base).
            if x != y { cases.append((x, y, x, true, true)) }
            for (mine, theirs, merged, changed, conflict) in cases {
                let merge = Merge(base: Self.base, mine: fields(field, mine), theirs: fields(field, theirs))
                let label = "\(field): mine \(mine), theirs \(theirs)"
                XCTAssertEqual(merge.merged, fields(field, merged), label)
                XCTAssertEqual(merge.changed, changed ? [field] : [], label)
                XCTAssertEqual(
                    merge.conflicts, conflict ? [FieldConflict(field: field, base: base, mine: mine, theirs: theirs)] : [], label)
                let keepingTheirs = Merge(base: Self.base, mine: fields(field, mine), theirs: fields(field, theirs), keepingMine: false)
                XCTAssertEqual(keepingTheirs.merged, fields(field, conflict ? theirs : merged), label)
            }
        }
    }

    func testFieldsMergeIndependently() {
        let mine = DraftFields(title: "Mine", notes: "", done: true)
        let theirs = DraftFields(title: "Theirs", notes: "their notes", done: true)
        let merge = Merge(base: Self.base, mine: mine, theirs: theirs)
        XCTAssertEqual(merge.merged, DraftFields(title: "Mine", notes: "their notes", done: true))
        XCTAssertEqual(merge.changed, [.title, .done])
        XCTAssertEqual(merge.conflicts.map(\.field), [.title])
    }

    func testTheirsRebasesTheDraftOnTheStoredTask() {
        var draft = Draft(editing: TaskItem(id: 1, uuid: "u", title: "Base"))
        draft.fields.title = "Mine"
        draft.fields.notes = "mine notes"
        let stored = TaskItem(id: 1, uuid: "u", title: "Theirs", notes: "", done: true)
        XCTAssertEqual(draft.merge(with: stored.fields).conflicts.map(\.field), [.title])
        let taken = draft.rebased(on: stored, keepingMine: false)
        XCTAssertEqual(taken.fields, DraftFields(title: "Theirs", notes: "mine notes", done: true))
        XCTAssertEqual(taken.original, stored.fields, "the new base is what is stored")
        XCTAssertEqual(taken.uuid, "u")
        XCTAssertTrue(taken.isDirty, "the notes only the draft changed are still to save")
        XCTAssertEqual(taken.merge(with: stored.fields).conflicts, [])
        let shown = draft.rebased(on: stored, keepingMine: true)
        XCTAssertEqual(shown.fields, DraftFields(title: "Mine", notes: "mine notes", done: true), "what save! writes")
        XCTAssertEqual(shown.original, stored.fields)
    }

    func testUUIDs() {
        var fixed = TaskUUIDSource.fixed
        var again = TaskUUIDSource.fixed
        var random = TaskUUIDSource(clock: { 1_800_000_000_000 })
        let made = (0..<1000).map { _ in fixed.make() }
        XCTAssertEqual(made, (0..<1000).map { _ in again.make() }, "a fixed source makes the same uuids every run")
        XCTAssertEqual(Set(made).count, 1000)
        XCTAssertEqual(made, made.sorted(), "time-ordered, also within one millisecond")
        for uuid in made + [random.make()] {
            XCTAssertTrue(uuid.isUUID, uuid)
            XCTAssertEqual(uuid, uuid.lowercased())
            let characters = Array(uuid)
            XCTAssertEqual(characters[14], "7", "version 7: \(uuid)")
            XCTAssertTrue("89ab".contains(characters[19]), "RFC 4122 variant: \(uuid)")
        }
        var other = TaskUUIDSource(clock: { 1_800_000_000_000 })
        XCTAssertNotEqual(random.make(), other.make(), "sources seeded by the system differ")
        for bad in [
            "", "0b1c2d3e4f504a618b728c9d0e1f2a3b", "0b1c2d3e-4f50-4a61-8b72-8c9d0e1f2a3", "0b1c2d3e-4f50-4a61-8b72-8c9d0e1f2a3g",
            "0b1c2d3e+4f50-4a61-8b72-8c9d0e1f2a3b",
        ] {
            XCTAssertFalse(bad.isUUID, bad)
        }
        XCTAssertTrue("0B1C2D3E-4F50-4A61-8B72-8C9D0E1F2A3B".isUUID)
    }

    /// A draft is its own rebase exactly when rebasing it gives back the same bytes.
    func testADraftIsItsOwnRebaseOnlyWhenTheRebaseGivesItsBytesBack() {
        let composed = DraftFields(title: "Caf\u{E9}", notes: "n\u{E9}e")
        let decomposed = DraftFields(title: "Cafe\u{301}", notes: "ne\u{301}e")
        var draft = Draft(editing: composed)
        let cases: [(DraftFields, DraftFields)] = [
            (composed, composed),  // nothing changed anywhere
            (DraftFields(title: "Tea", notes: composed.notes), composed),  // mine changed for real
            (DraftFields(title: decomposed.title, notes: composed.notes), composed),  // retyped, same text
            (composed, decomposed),  // stored in the other form
            (composed, DraftFields(title: "Other", notes: composed.notes)),  // changed elsewhere
            (composed, DraftFields(title: composed.title, notes: composed.notes, done: true)),
        ]
        for (mine, stored) in cases {
            draft.fields = mine
            let task = TaskItem(id: 1, uuid: "", title: stored.title, notes: stored.notes, done: stored.done)
            let rebased = draft.rebased(on: task, keepingMine: true)
            let bytesBack =
                rebased.fields.title.utf8.elementsEqual(mine.title.utf8) && rebased.fields.notes.utf8.elementsEqual(mine.notes.utf8)
                && rebased.fields.done == mine.done && rebased.original.title.utf8.elementsEqual(draft.original.title.utf8)
            XCTAssertEqual(draft.isItsOwnRebase(on: stored), bytesBack, "\(mine) on \(stored)")
        }
    }
}
