extension StringProtocol {
    /// The text without leading and trailing whitespace.
    public var trimmed: String {
        // Most lines start and end with a printable ASCII character: nothing to trim.
        if let head = utf8.first, let tail = utf8.reversed().first, (0x21...0x7E).contains(head), (0x21...0x7E).contains(tail) {
            return String(self)
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }

    /// Whether the text is empty or only whitespace.
    public var isBlank: Bool { allSatisfy(\.isWhitespace) }
}

extension Unicode.Scalar {
    /// Control characters (C0, DEL, C1) and the bidirectional overrides and isolates,
    /// which could reorder or restyle what the terminal shows.
    public var isUnsafeForDisplay: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// The text with every control, escape or bidi character shown as an escape
    /// (`\n`, `\t`, `\u{1B}`), so user text can never drive the terminal.
    public var escapedForDisplay: String {
        guard unicodeScalars.contains(where: \.isUnsafeForDisplay) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            guard scalar.isUnsafeForDisplay else {
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
