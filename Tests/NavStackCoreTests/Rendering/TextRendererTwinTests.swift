import TestSeeds
import XCTest

@testable import NavStackCore

/// Each way the text renderer writes text from its bytes (printable ASCII that fits, as
/// nearly all text is) held equal to the plain way it lays out any text, over thousands of
/// drawn inputs at many widths: ASCII, accents and combining marks, wide characters and
/// emoji, controls, direction marks, long, blank, spaces at the edges or two together.
/// Each failure names its seed (``TestSeed``).
final class TextRendererTwinTests: XCTestCase {
    /// The seeds each test runs (``TestSeed``); the counts of inputs that took the fast
    /// path are asked of each.
    private static let seeds = TestSeed.seeds(1...3)
    private static let widths = [TextRenderer.minimumWidth, 21, 24, 30, 33, 40, 60, 80, 120, 200]
    private static let labelSets = [["Title", "Notes", "Done"], ["Título", "Notas", "Feita"], ["User", "Tasks"], ["Idioma", "Almacén"]]

    /// Calls `body` `count` times for each seed, with the seed's generator and its name.
    private func draw(_ count: Int = 3000, _ body: (inout SplitMix64, String) -> Void) {
        forEachSeed(Self.seeds) { seed in
            var generator = SplitMix64(state: seed)
            let name = TestSeed.named(seed)
            for _ in 0..<count { body(&generator, name) }
        }
    }

    private func taken(_ lines: inout Lines) -> String {
        String(decoding: lines.takeBytes(), as: UTF8.self)
    }

    /// Crumbs as a screen has them: the tab's, then titles and the last screen's name.
    private func crumbs(_ generator: inout SplitMix64) -> [String] {
        ["My Tasks"] + (0..<generator.int(in: 0...5)).map { _ in generator.oneIn(2) ? generator.plainText(words: 1...3) : generator.text() }
    }

    /// The title line: `Lines.addPlain` against the escaped title laid out.
    func testATitleWrittenAsItIsIsTheTitleLaidOut() {
        var fast = 0
        draw { generator, seed in
            let title = generator.text()
            let width = generator.pick(Self.widths)
            var written = Lines(width: width, style: .plain, rule: "")
            guard written.addPlain(title) else {
                XCTAssertEqual(written.takeBytes(), [], "\(seed): nothing written when not taken")
                return
            }
            fast += 1
            var laidOut = Lines(width: width, style: .plain, rule: "")
            laidOut.add(title.escapedForDisplay, .title)
            XCTAssertEqual(taken(&written), taken(&laidOut), "\(seed): \(title.debugDescription) at \(width)")
        }
        XCTAssertGreaterThan(fast, Self.seeds.count * 1000, "many titles are written as they are")
    }

    /// The place line: `Lines.addPlace` against `TextRenderer.placeLine`.
    func testAPlaceLineWrittenAsItIsIsThePlaceLineLaidOut() {
        var fast = 0
        draw { generator, seed in
            let crumbs = crumbs(&generator)
            let url =
                "navstack://tasks" + (0..<generator.int(in: 0...6)).map { _ in "/\(generator.int(in: 1...100_000))" }.joined()
                + generator.pick(["", "/edit", "?page=2", "/new"])
            let width = generator.pick(Self.widths)
            let renderer = TextRenderer(width: width)
            let room = width - url.utf8.count - 3
            var written = Lines(width: width, style: .plain, rule: "")
            guard room >= 8, written.addPlace(crumbs, url, room: room) else {
                XCTAssertEqual(written.takeBytes(), [], "\(seed): nothing written when not taken")
                return
            }
            fast += 1
            var laidOut = Lines(width: width, style: .plain, rule: "")
            renderer.placeLine(crumbs, url, room: room, into: &laidOut)
            XCTAssertEqual(taken(&written), taken(&laidOut), "\(seed): \(crumbs) · \(url) at \(width)")
        }
        XCTAssertGreaterThan(fast, Self.seeds.count * 300, "many place lines are written as they are")
    }

    /// The breadcrumb: crumbs of printable ASCII that fit, joined, against the crumbs laid
    /// out by characters.
    func testABreadcrumbJoinedAsItIsIsTheBreadcrumbLaidOut() {
        var fast = 0
        draw { generator, seed in
            let crumbs = crumbs(&generator)
            let room = generator.int(in: 0...140)
            if let plain = TextRenderer.plainWidth(of: crumbs), plain <= room { fast += 1 }
            XCTAssertEqual(
                TextRenderer.breadcrumb(crumbs, fitting: room), TextRenderer.laidOutBreadcrumb(crumbs, fitting: room),
                "\(seed): \(crumbs) in \(room)")
        }
        XCTAssertGreaterThan(fast, Self.seeds.count * 900, "many breadcrumbs are joined as they are")
    }

    /// A list row: `Lines.addRow` against `TextRenderer.rowLine`, in plain text and, for
    /// rows not done (no emphasis), with ANSI styles.
    func testARowWrittenAsItIsIsTheRowLaidOut() {
        var fast = 0
        draw { generator, seed in
            let number = generator.int(in: 1...(generator.oneIn(4) ? 100_000 : 60))
            let numberWidth = max(2, String(number + generator.int(in: 0...2_000)).utf8.count)
            let task = TaskItem(
                id: generator.int(in: 1...(generator.oneIn(4) ? 10_000_000 : 60)), uuid: "u", title: generator.text(),
                done: generator.oneIn(3))
            let width = generator.pick(Self.widths)
            let style: TextStyle = task.done || generator.oneIn(2) ? .plain : .ansi
            var written = Lines(width: width, style: style, rule: "")
            guard written.addRow(number: number, numberWidth: numberWidth, done: task.done, title: task.title, id: task.id) else {
                XCTAssertEqual(written.takeBytes(), [], "\(seed): nothing written when not taken")
                return
            }
            fast += 1
            var line = ""
            TextRenderer(width: width, style: style).rowLine(ListRow(row: number, task: task), numberWidth: numberWidth, into: &line)
            var laidOut = Lines(width: width, style: style, rule: "")
            laidOut.add(line)
            XCTAssertEqual(taken(&written), taken(&laidOut), "\(seed): row \(number) \(task.title.debugDescription) at \(width)")
        }
        XCTAssertGreaterThan(fast, Self.seeds.count * 900, "many rows are written as they are")
    }

    /// A paragraph: one that is its own line written as it is, against it wrapped.
    func testAParagraphWrittenAsItIsIsTheParagraphWrapped() {
        var fast = 0
        draw { generator, seed in
            let paragraph = generator.text()
            let width = generator.pick(Self.widths)
            let style: TextStyle = generator.oneIn(2) ? .plain : .ansi
            let emphasis: TextStyle.Emphasis? = style == .plain && generator.oneIn(3) ? .error : nil
            if paragraph.isOneLine(fitting: width) { fast += 1 }
            var written = Lines(width: width, style: style, rule: "")
            written.wrap(paragraph, emphasis: emphasis)
            var laidOut = Lines(width: width, style: style, rule: "")
            laidOut.wrapLaidOut(paragraph, emphasis: emphasis)
            XCTAssertEqual(taken(&written), taken(&laidOut), "\(seed): \(paragraph.debugDescription) at \(width)")
        }
        XCTAssertGreaterThan(fast, Self.seeds.count * 900, "many paragraphs are their own line")
    }

    /// A task's field: its text written from its bytes (`Lines.textField`) against the text
    /// escaped and laid out.
    func testATaskFieldWrittenFromItsBytesIsTheEscapedFieldLaidOut() {
        var fast = 0
        draw { generator, seed in
            let heads = FieldHeads(generator.pick(Self.labelSets))
            let index = generator.int(in: 0...(heads.labels.count - 1))
            let text = generator.text()
            let width = generator.pick(Self.widths)
            if width - heads.labelWidth >= 8, text.isPrintableASCII, text.isOneLine(fitting: width - heads.labelWidth) { fast += 1 }
            var written = Lines(width: width, style: .plain, rule: "")
            written.textField(heads, index, text)
            var laidOut = Lines(width: width, style: .plain, rule: "")
            laidOut.fieldLaidOut(heads, index, text.escapedForDisplay)
            XCTAssertEqual(taken(&written), taken(&laidOut), "\(seed): \(heads.labels[index]) \(text.debugDescription) at \(width)")
        }
        XCTAssertGreaterThan(fast, Self.seeds.count * 500, "many fields are written as they are")
    }

    /// A field's value as it is (already escaped, or words of the catalogs): one that is
    /// its own line written as it is, against it wrapped under its label.
    func testAFieldWrittenAsItIsIsTheFieldLaidOut() {
        var fast = 0
        draw { generator, seed in
            let heads = FieldHeads(generator.pick(Self.labelSets))
            let index = generator.int(in: 0...(heads.labels.count - 1))
            let value = generator.oneIn(2) ? generator.text().escapedForDisplay : generator.text()
            let width = generator.pick(Self.widths)
            if width - heads.labelWidth >= 8, value.isOneLine(fitting: width - heads.labelWidth) { fast += 1 }
            var written = Lines(width: width, style: .plain, rule: "")
            written.field(heads, index, value)
            var laidOut = Lines(width: width, style: .plain, rule: "")
            laidOut.fieldLaidOut(heads, index, value)
            XCTAssertEqual(taken(&written), taken(&laidOut), "\(seed): \(heads.labels[index]) \(value.debugDescription) at \(width)")
        }
        XCTAssertGreaterThan(fast, Self.seeds.count * 750, "many values are their own line")
    }
}
