import NavStackBytes
import NavStackTime

/// Lines of a text screen, each cut to the width before it is emphasised, as UTF-8.
struct Lines: ~Copyable {
    let width: Int
    let style: TextStyle
    /// A rule across the width, made once.
    let ruleText: String
    private var output: GrowingBytes

    init(width: Int, style: TextStyle, rule: String) {
        self.width = width
        self.style = style
        ruleText = rule
        output = GrowingBytes(after: [], room: 1024)
    }

    /// The bytes written, taken: the lines are empty after.
    mutating func takeBytes() -> [UInt8] {
        output.take()
    }

    /// The bytes written, in the memory they were written in.
    consuming func finished() -> PrintedBytes {
        output.finished()
    }

    mutating func add(_ line: String, _ emphasis: TextStyle.Emphasis? = nil) {
        output.append(utf8: style.apply(emphasis, to: line.truncated(toWidth: width)))
        output.append(0x0A)
    }

    /// A line as it is, however long (a URL, to be copied whole).
    mutating func addWhole(_ line: String) {
        output.append(utf8: line)
        output.append(0x0A)
    }

    /// A list row, ` 1  [ ] Title · #42`, written byte by byte when its title is printable
    /// ASCII and the row fits the width (one column a byte, nothing to escape or cut);
    /// `false`, with nothing written, otherwise.
    mutating func addRow(number: Int, numberWidth: Int, done: Bool, title: String, id: Int) -> Bool {
        title.withUTF8Bytes { utf8 in
            let pad = max(0, numberWidth - Self.digits(number))
            // ` · #` (four columns) and the id's digits.
            let end = 4 + Self.digits(id)
            guard number >= 0, id >= 0, pad + Self.digits(number) + 6 + utf8.count + end <= width, utf8.isPrintableASCII
            else { return false }
            output.appendSpaces(pad)
            output.appendDecimal(number)
            output.append(contentsOf: done ? Self.doneBox : Self.openBox)
            output.append(utf8)
            output.append(" · #")
            output.appendDecimal(id)
            output.append(0x0A)
            return true
        }
    }

    /// How many decimal digits a number at least 0 has.
    private static func digits(_ number: Int) -> Int {
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }

    /// The breadcrumb and the URL, `My Tasks › Buy milk · navstack://tasks/1`, written
    /// byte by byte when every crumb is printable ASCII and the crumbs fit `room` (one
    /// column a byte, nothing to escape or cut); `false`, with nothing written, otherwise.
    mutating func addPlace(_ crumbs: [String], _ url: String, room: Int) -> Bool {
        url.withUTF8Bytes { addPlace(crumbs, $0, room: room) }
    }

    /// ``addPlace(_:_:room:)`` with the URL's bytes.
    mutating func addPlace(_ crumbs: [String], _ url: ByteView, room: Int) -> Bool {
        // In one pass: what was written is taken back when a crumb is not plain.
        let start = output.count
        var used = 0
        for (index, crumb) in crumbs.enumerated() {
            if index > 0 {
                output.append(" › ")
                used += TextRenderer.crumbSeparatorWidth
            }
            guard used <= room, appendPlain(crumb, limit: room - used) else {
                output.removeLast(output.count - start)
                return false
            }
            used += crumb.utf8.count
        }
        output.append(" · ")
        output.append(url)
        output.append(0x0A)
        return true
    }

    private static let doneBox = Array("  [x] ".utf8)
    private static let openBox = Array("  [ ] ".utf8)

    /// A line of printable ASCII that fits the width, written as it is; `false`, with
    /// nothing written, otherwise.
    mutating func addPlain(_ line: String) -> Bool {
        guard appendPlain(line, limit: width) else { return false }
        output.append(0x0A)
        return true
    }

    /// Appends the text when it is printable ASCII of at most `limit` bytes (a column a
    /// byte, nothing to escape or cut), looked at once; `false`, with nothing appended,
    /// otherwise.
    private mutating func appendPlain(_ text: String, limit: Int) -> Bool {
        text.withUTF8Bytes { utf8 in
            guard utf8.count <= limit, utf8.isPrintableASCII else { return false }
            output.append(utf8)
            return true
        }
    }

    /// Lines already laid out.
    mutating func append(_ laidOut: [UInt8]) {
        output.append(contentsOf: laidOut)
    }

    mutating func blank() {
        output.append(0x0A)
    }

    mutating func rule() {
        output.append(utf8: ruleText)
        output.append(0x0A)
    }

    /// Text wrapped to the width, each line indented.
    mutating func wrap(_ paragraph: String, indent: Int = 0, emphasis: TextStyle.Emphasis? = nil) {
        // One line that fits, as most paragraphs of a screen: written as it is.
        if indent == 0, emphasis == nil || style == .plain, paragraph.isOneLine(fitting: width) {
            output.append(utf8: paragraph)
            output.append(0x0A)
            return
        }
        wrapLaidOut(paragraph, indent: indent, emphasis: emphasis)
    }

    /// ``wrap(_:indent:emphasis:)`` laid out by characters, the plain way for any text.
    mutating func wrapLaidOut(_ paragraph: String, indent: Int = 0, emphasis: TextStyle.Emphasis? = nil) {
        let pad = String(repeating: " ", count: indent)
        for line in paragraph.wrapped(toWidth: width - indent) { add(pad + line, emphasis) }
    }

    /// `Label:  value` lines, the labels padded alike and each value wrapped under
    /// itself.
    mutating func fields(_ pairs: [(label: String, value: String)], alike: [String] = []) {
        let heads = FieldHeads(pairs.map(\.label), alike: alike)
        for (index, (_, value)) in pairs.enumerated() { field(heads, index, value) }
    }

    /// The three fields of a task, with the heads laid out before: each value shown
    /// escaped (``String/escapedForDisplay``).
    mutating func fields(_ heads: FieldHeads, _ first: String, _ second: String, _ third: String) {
        textField(heads, 0, first)
        // One look at the bytes (a generic walk of the view cost a cycle of edit, title
        // and save 2% of its instructions).
        let lineBreak = second.withContiguousUTF8IfAvailable { $0.firstIndex(of: 0x0A, in: 0..<$0.count) != nil }
        if lineBreak ?? second.utf8.contains(0x0A) {
            // Notes of several lines: each under the first, wrapped there, a blank one kept.
            let lines = second.split(separator: "\n", omittingEmptySubsequences: false)
            textField(heads, 1, String(lines[0]))
            for line in lines.dropFirst() {
                if line.isEmpty { blank() } else { wrapLaidOut(String(line).escapedForDisplay, indent: heads.labelWidth) }
            }
        } else {
            textField(heads, 1, second)
        }
        textField(heads, 2, third)
    }

    /// A field whose value is text to escape: printable ASCII that is its own one line
    /// (most values) is written as it is from one look at its bytes, anything else
    /// escaped and laid out as ``field(_:_:_:)`` lays it out.
    mutating func textField(_ heads: FieldHeads, _ index: Int, _ text: String) {
        let room = width - heads.labelWidth
        if room >= 8, text.utf8.count <= room {
            // A string that does not lend its bytes (every native one does) is laid out below:
            // `withUTF8Bytes`, making it native, costs this hot path more than it saves.
            let written = text.withContiguousUTF8IfAvailable { bytes in
                guard bytes.isPlainOneLine else { return false }
                output.append(contentsOf: heads.heads[index])
                output.append(bytes)
                output.append(0x0A)
                return true
            }
            if written == true { return }
        }
        field(heads, index, text.escapedForDisplay)
    }

    /// The field `index` of `heads`, with its value.
    mutating func field(_ heads: FieldHeads, _ index: Int, _ value: String) {
        let room = width - heads.labelWidth
        // A value that is its own one line, as most are, is written as it is: nothing to
        // wrap, and the line fits the width.
        if room >= 8, value.isOneLine(fitting: room) {
            output.append(contentsOf: heads.heads[index])
            output.append(utf8: value)
            output.append(0x0A)
            return
        }
        fieldLaidOut(heads, index, value)
    }

    /// ``field(_:_:_:)`` laid out by characters, the plain way for any value.
    mutating func fieldLaidOut(_ heads: FieldHeads, _ index: Int, _ value: String) {
        let room = width - heads.labelWidth
        let label = heads.labels[index]
        guard room >= 8 else {
            add(label + ":")
            wrap(value, indent: 2)
            return
        }
        let head = (label + ":").padded(toWidth: heads.labelWidth)
        let pad = String(repeating: " ", count: heads.labelWidth)
        for (index, line) in value.wrapped(toWidth: room).enumerated() {
            add((index == 0 ? head : pad) + line)
        }
    }

    /// Items joined by " · ", flowing onto more lines under the first; each item keeps
    /// its emphasis.
    mutating func flow(_ items: [(String, TextStyle.Emphasis?)], prefix: String) {
        let separator = " · "
        let separatorWidth = 3
        let pad = String(repeating: " ", count: prefix.displayWidth)
        var plain = prefix
        var styled = prefix
        var empty = true
        for (item, emphasis) in items {
            let itemWidth = item.displayWidth
            if !empty, plain.displayWidth + separatorWidth + itemWidth > width {
                emit(plain, styled)
                plain = pad + item
                styled = pad + style.apply(emphasis, to: item)
            } else {
                plain += (empty ? "" : separator) + item
                styled += (empty ? "" : separator) + style.apply(emphasis, to: item)
            }
            empty = false
        }
        emit(plain, styled)
    }

    /// A line whose emphasised form is kept only when its plain form fits.
    private mutating func emit(_ plain: String, _ styled: String) {
        if plain.displayWidth > width {
            add(plain)
        } else {
            output.append(utf8: styled)
            output.append(0x0A)
        }
    }
}

/// The labels of fields shown together (`Title:  `, `Notes:  `), padded alike to the
/// widest and a colon and two spaces more, laid out as bytes.
struct FieldHeads {
    let labels: [String]
    /// The columns a label takes with its padding.
    let labelWidth: Int
    /// Each label with its colon and padding, as UTF-8.
    let heads: [[UInt8]]

    /// Heads for `labels`, padded at least as wide as the widest of `alike` (labels of
    /// the same block that may be absent, so the column stays where it is).
    init(_ labels: [String], alike: [String] = []) {
        self.labels = labels
        let labelWidth = ((labels + alike).map(\.displayWidth).max() ?? 0) + 3
        self.labelWidth = labelWidth
        heads = labels.map { label in
            var head: [UInt8] = []
            head.append(utf8: label)
            head.append(UInt8(ascii: ":"))
            head.appendSpaces(labelWidth - label.displayWidth - 1)
            return head
        }
    }
}
