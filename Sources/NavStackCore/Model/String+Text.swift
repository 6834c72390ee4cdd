import NavStackBytes

extension StringProtocol {
    /// Whether the text is one or more ASCII digits and nothing else (`42`, not `+4` or `٤`).
    var isASCIIDigits: Bool {
        !isEmpty && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The text without leading and trailing whitespace. (Inlinable: specialised where it
    /// is used, as the store trims every imported title.)
    @inlinable
    public var trimmed: String {
        // When the text starts and ends (past ASCII whitespace) with ASCII, the bytes
        // tell where; other ends need characters.
        let bytes = utf8
        var head: String.Index?
        var tail = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if !bytes[index].isASCIIWhitespace {
                if head == nil { head = index }
                tail = index
            }
            index = bytes.index(after: index)
        }
        guard let head else { return "" }
        if bytes[head] < 0x80, bytes[tail] < 0x80 {
            return String(self[head..<bytes.index(after: tail)])
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }

    /// Whether the text is empty or only whitespace. A byte of ASCII that is not
    /// whitespace answers at once, as it does for nearly every title.
    public var isBlank: Bool {
        for byte in utf8 where byte < 0x80 && !byte.isASCIIWhitespace { return false }
        return allSatisfy(\.isWhitespace)
    }
}

extension String {
    /// ``StringProtocol/isBlank`` from the bytes alone when they are ASCII, as nearly all
    /// are: a byte that is not whitespace answers at once.
    public var isBlank: Bool {
        let answer = withContiguousUTF8IfAvailable { bytes -> Bool? in
            var other = false
            for byte in bytes {
                if byte >= 0x80 {
                    other = true
                } else if !byte.isASCIIWhitespace {
                    return false
                }
            }
            return other ? nil : true
        }
        return (answer ?? nil) ?? self[...].isBlank
    }

    /// The text without leading and trailing whitespace; most text has none to trim.
    public var trimmed: String {
        let bytes = utf8
        if let first = bytes.first, let last = bytes.last, first < 0x80, last < 0x80,
            !first.isASCIIWhitespace, !last.isASCIIWhitespace
        {
            return self
        }
        return self[...].trimmed
    }
}

extension [UInt8] {
    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) {
        if count > 0 { append(contentsOf: repeatElement(0x20, count: count)) }
    }
}

extension UInt8 {
    /// Space, tab and the ASCII line breaks (LF, VT, FF, CR).
    @inlinable
    var isASCIIWhitespace: Bool {
        self == 0x20 || (0x09...0x0D).contains(self)
    }
}

extension Unicode.Scalar {
    /// Control characters (C0, DEL, C1), the bidirectional marks, overrides and
    /// isolates, which could reorder or restyle what the terminal shows, and the
    /// separators and invisible characters that would break or hide text.
    public var needsEscapeForDisplay: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Direction marks and embeddings: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        // Line and paragraph separators (a line break to some terminals), and characters
        // that show nothing: zero width space, word joiner, byte order mark.
        case 0x2028, 0x2029, 0x200B, 0x2060, 0xFEFF: true
        default: false
        }
    }
}

extension String {
    /// Whether every byte is printable ASCII, a space to a tilde: text that takes a
    /// column a byte and has nothing to escape, as most titles.
    public var isPrintableASCII: Bool {
        withContiguousUTF8IfAvailable(\.isPrintableASCII) ?? utf8.allSatisfy(\.isPrintableASCII)
    }

    /// Whether the two hold the same bytes: `==` compares by canonical equivalence ("é"
    /// equals "e" and U+0301), this does not.
    public func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let answer = withContiguousUTF8IfAvailable { mine in
            other.withContiguousUTF8IfAvailable { theirs in mine.hasSameBytes(as: theirs) }
        }
        return (answer ?? nil) ?? utf8.elementsEqual(other.utf8)
    }

    /// The text with every control, escape or bidi character shown as an escape
    /// (`\n`, `\t`, `\u{1B}`), so user text can never drive the terminal.
    public var escapedForDisplay: String {
        guard !isPrintableASCII, unicodeScalars.contains(where: \.needsEscapeForDisplay) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            guard scalar.needsEscapeForDisplay else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }
}

extension Unicode.Scalar {
    /// Whether it is a control character (general category Cc: U+0000–U+001F and
    /// U+007F–U+009F), known from its value: the category's table lookup cost an import
    /// 7% of its time, one look a character of each title.
    public var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
