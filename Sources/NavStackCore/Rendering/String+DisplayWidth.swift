import NavStackBytes

extension Character {
    /// Columns the character takes in a terminal: 2 for East Asian wide characters
    /// and emoji, 0 for lone combining marks and zero-width characters, else 1.
    public var displayWidth: Int {
        let scalars = unicodeScalars
        let first = scalars.first!
        if first.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji
        {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return first.isEastAsianWide ? 2 : 1
    }
}

extension Unicode.Scalar {
    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth W and F).
    var isEastAsianWide: Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E,
            0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
            0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x1F300...0x1F64F,
            0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}

extension Unicode.Scalar {
    /// The columns of a scalar that never joins a grapheme with its neighbours' help
    /// (ASCII, Latin, general punctuation, box drawing); `nil` for the rest, whose width
    /// needs the whole character.
    @inline(__always)
    var simpleWidth: Int? {
        switch value {
        case 0x20..<0x7F, 0xA0..<0x300: 1
        case 0x00..<0x20, 0x7F..<0xA0: 0
        case 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2500...0x257F: 1
        default: nil
        }
    }
}

extension StringProtocol {
    /// Columns the text takes in a terminal.
    public var displayWidth: Int {
        let ascii = withContiguousUTF8IfAvailable(Self.asciiWidth) ?? Self.asciiWidth(utf8)
        return ascii ?? scalarWidth()
    }

    /// The columns of text all ASCII (a column a byte but for controls); `nil` when a
    /// byte is not ASCII.
    private static func asciiWidth(_ bytes: some Sequence<UInt8>) -> Int? {
        var width = 0
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            width += byte >= 0x20 && byte != 0x7F ? 1 : 0
        }
        return width
    }

    /// The width scalar by scalar, falling back to whole characters for the scalars
    /// that need them.
    private func scalarWidth() -> Int {
        var width = 0
        for scalar in unicodeScalars {
            guard let columns = scalar.simpleWidth else { return reduce(0) { $0 + $1.displayWidth } }
            width += columns
        }
        return width
    }

    /// The text cut to at most `width` columns, ending in `…` when cut; a character is
    /// never split.
    public func truncated(toWidth width: Int) -> String {
        // No character takes more columns than it has UTF-8 bytes.
        guard utf8.count > width, displayWidth > width else { return String(self) }
        guard width > 0 else { return "" }
        var out = ""
        var used = 0
        for character in self {
            let w = character.displayWidth
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// The text broken into lines of at most `width` columns, at spaces where it can,
    /// inside a word only when the word alone is too wide.
    public func wrapped(toWidth width: Int) -> [String] {
        let width = Swift.max(1, width)
        if isOneLine(fitting: width) { return [String(self)] }
        return wrappedByWords(toWidth: width)
    }

    /// ``wrapped(toWidth:)`` word by word, the plain way for any text. A line holds words
    /// once one is on it, even a word of no columns (a lone combining mark, a control,
    /// U+FEFF): the space after it is kept, as it is in a text that is its own line.
    func wrappedByWords(toWidth width: Int) -> [String] {
        let width = Swift.max(1, width)
        var lines: [String] = []
        var line = ""
        var used = 0
        // Whether the line holds a word yet (its columns may be none).
        var started = false
        for word in split(separator: " ", omittingEmptySubsequences: true) {
            let w = word.displayWidth
            if started && used + 1 + w <= width {
                line += " " + word
                used += 1 + w
                continue
            }
            if started {
                lines.append(line)
                line = ""
                used = 0
            }
            for character in word {
                let cw = character.displayWidth
                if used + cw > width, used > 0 {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                line.append(character)
                used += cw
            }
            started = true
        }
        if started || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Whether the text is its own one wrapped line in `width` columns: not empty, no
    /// space at either end nor two together (which wrapping would change), and no more
    /// bytes than columns (no character takes more columns than it has bytes).
    func isOneLine(fitting width: Int) -> Bool {
        guard utf8.count <= width else { return false }
        return withContiguousUTF8IfAvailable(\.isOneLine) ?? Self.isOneLine(utf8)
    }

    /// Whether the bytes are not empty and have no space at either end nor two together.
    private static func isOneLine(_ bytes: some Sequence<UInt8>) -> Bool {
        // One pass: a space before the first byte stands for the start, so that an empty
        // text, a space at the start, two together or one at the end all fail.
        var previous = UInt8(ascii: " ")
        for byte in bytes {
            if byte == 0x20 && previous == 0x20 { return false }
            previous = byte
        }
        return previous != 0x20
    }

    /// The text padded with spaces to `width` columns.
    func padded(toWidth width: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, width - displayWidth))
    }
}
