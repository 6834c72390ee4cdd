extension StringProtocol {
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
        let answer = utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
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
    /// Appends the text's UTF-8, copied from its storage at once when the text has it
    /// contiguous (as native strings do).
    mutating func append(utf8 text: some StringProtocol) {
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            append(contentsOf: text.utf8)
        }
    }

    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) {
        if count > 0 { append(contentsOf: repeatElement(0x20, count: count)) }
    }

    /// Appends the decimal digits of `number` (and its sign) as ASCII.
    mutating func appendDecimal(_ number: Int) {
        withDecimalDigits(of: number) { append(contentsOf: $0) }
    }
}

extension UInt8 {
    /// A printable ASCII character, space included: one column on a terminal, nothing to
    /// escape.
    @inlinable
    public var isPrintableASCII: Bool {
        (0x20...0x7E).contains(self)
    }

    /// Space, tab and the ASCII line breaks (LF, VT, FF, CR).
    @inlinable
    var isASCIIWhitespace: Bool {
        self == 0x20 || (0x09...0x0D).contains(self)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is printable ASCII (0x20–0x7E), looked at eight at a time.
    var isPrintableASCII: Bool {
        guard let base = baseAddress else { return true }
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A high bit where a byte is below 0x20 (taking 0x20 from it borrows), is 0x7F
            // (adding one carries) or is 0x80 and above (set already).
            let below = (word &- Self.ones &* 0x20) & ~word
            guard (below | (word &+ Self.ones) | word) & Self.highs == 0 else { return false }
            index += 8
        }
        while index < count {
            guard base[index].isPrintableASCII else { return false }
            index += 1
        }
        return true
    }

    /// Each byte of a word 1, and each byte's high bit.
    static var ones: UInt64 { 0x0101_0101_0101_0101 }
    static var highs: UInt64 { 0x8080_8080_8080_8080 }
}

extension Unicode.Scalar {
    /// Control characters (C0, DEL, C1), the bidirectional marks, overrides and
    /// isolates, which could reorder or restyle what the terminal shows, and the
    /// separators and invisible characters that would break or hide text.
    public var isUnsafeForDisplay: Bool {
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
    /// The text's UTF-8 lent to `body`: a native string's bytes as it keeps them (no
    /// copy), any other's once it is made native.
    @inlinable
    public func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var native = self
        return native.withUTF8(body)
    }

    /// Whether every byte is printable ASCII, a space to a tilde: text that takes a
    /// column a byte and has nothing to escape, as most titles.
    public var isPrintableASCII: Bool {
        utf8.withContiguousStorageIfAvailable(\.isPrintableASCII) ?? utf8.allSatisfy(\.isPrintableASCII)
    }

    /// Whether the two hold the same bytes: `==` compares by canonical equivalence ("é"
    /// equals "e" and U+0301), this does not.
    public func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let answer = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in Self.sameBytes(mine, theirs) }
        }
        return (answer ?? nil) ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether two buffers of one length hold the same bytes, compared eight at a time
    /// (a copy of a string shares its bytes: found at once).
    private static func sameBytes(_ mine: UnsafeBufferPointer<UInt8>, _ theirs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let a = mine.baseAddress, let b = theirs.baseAddress, a != b else { return true }
        let count = mine.count
        var index = 0
        while index + 8 <= count {
            let x = UnsafeRawPointer(a + index).loadUnaligned(as: UInt64.self)
            guard x == UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self) else { return false }
            index += 8
        }
        while index < count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }

    /// The text with every control, escape or bidi character shown as an escape
    /// (`\n`, `\t`, `\u{1B}`), so user text can never drive the terminal.
    public var escapedForDisplay: String {
        guard !isPrintableASCII, unicodeScalars.contains(where: \.isUnsafeForDisplay) else { return self }
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

/// The decimal digits of `number` (and its sign) as ASCII, lent to `body` from the stack.
func withDecimalDigits<R>(of number: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    // At most 19 digits and a sign.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var rest = number.magnitude
        var start = digits.count
        repeat {
            start -= 1
            digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if number < 0 {
            start -= 1
            digits[start] = UInt8(ascii: "-")
        }
        return body(UnsafeBufferPointer(rebasing: digits[start...]))
    }
}
