import NavStackBytes

/// The one reader of JSON text (RFC 8259) here: the import parser and ``JSONValue`` (what
/// the store reads back) both read through it, so they accept exactly the same documents.
///
/// Strict: numbers as the RFC writes them, strings of valid UTF-8 without raw control
/// characters, escapes that are whole characters (half a surrogate pair is refused), and
/// no more than ``maximumDepth`` arrays and objects inside one another. Inputs past
/// ``maximumBytes`` are refused before they are read. It works on bytes and allocates
/// only the strings it returns.
public struct JSONReader {
    /// How deep arrays and objects may nest.
    public static let maximumDepth = 512
    /// The largest input read: 256 MiB, about four times a million-task import file.
    public static let maximumBytes = 256 << 20

    /// The whole input; offsets in failures count from its start.
    public let bytes: ByteView
    /// The next byte to read.
    public var index = 0
    /// Where reading stops: the end of the input, or of one line of JSON Lines.
    public var end: Int

    public init(_ bytes: ByteView) throws(JSONError) {
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge(bytes: bytes.count) }
        self.bytes = bytes
        self.end = bytes.count
    }

    /// The next byte, if any.
    @inlinable
    public var peek: UInt8? { index < end ? bytes[index] : nil }

    /// Moves past spaces, tabs and line breaks.
    @inlinable
    public mutating func skipBlanks() {
        while index < end && Self.isBlank(bytes[index]) { index += 1 }
    }

    /// A space, tab or line break: what may stand around JSON's values.
    @inlinable
    public static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// What stands at the reading position, as a failure.
    public func unexpected() -> JSONError {
        guard index < end else { return .unexpectedEnd }
        let byte = bytes[index]
        if byte < 0x80 { return .unexpected(Unicode.Scalar(byte), at: index) }
        guard let width = utf8Width(at: index) else { return .invalidUTF8(at: index) }
        let scalar = bytes.string(index..<index + width)
            .unicodeScalars.first!
        return .unexpected(scalar, at: index)
    }

    /// Reads `byte`, or fails.
    @inlinable
    public mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard index < end, bytes[index] == byte else { throw unexpected() }
        index += 1
    }

    /// Reads `word` if it is next.
    public mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= end else { return false }
        for offset in 0..<count where bytes[index + offset] != word.bytes[offset] { return false }
        index += count
        return true
    }

    /// A string, at its opening quote, with its escapes decoded.
    public mutating func string() throws(JSONError) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        // Most strings are plain ASCII without escapes: read them straight from the input.
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return bytes.string(start..<index - 1)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        var utf8 = Array(bytes[start..<index])
        while index < end {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let at = index
                index += 1
                do throws(JSONEscape.EscapeError) {
                    try JSONEscape.decode(bytes.view(0..<end), at: &index, into: &utf8)
                } catch .loneSurrogate {
                    throw .loneSurrogate(at: at)
                } catch {
                    throw .badEscape(at: at)
                }
            case 0..<0x20:
                throw .controlCharacter(at: index)
            case 0x80...:
                guard let width = utf8Width(at: index) else { throw .invalidUTF8(at: index) }
                utf8.append(contentsOf: bytes.view(index..<index + width))
                index += width
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw .unexpectedEnd
    }

    /// The length of the well-formed UTF-8 sequence at `position` (whose first byte is not
    /// ASCII), or `nil`: no overlong forms, surrogates or scalars past U+10FFFF.
    private func utf8Width(at position: Int) -> Int? {
        let lead = bytes[position]
        let width: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: width = 2
        case 0xE0: width = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: width = 3
        case 0xED: width = 3; high = 0x9F
        case 0xF0: width = 4; low = 0x90
        case 0xF1...0xF3: width = 4
        case 0xF4: width = 4; high = 0x8F
        default: return nil
        }
        guard position + width <= end, (low...high).contains(bytes[position + 1]) else { return nil }
        for offset in 2..<width where !(0x80...0xBF).contains(bytes[position + offset]) { return nil }
        return width
    }

    /// A number as RFC 8259 writes it: `-`? then `0` or digits not starting with 0, then
    /// an optional fraction and exponent. Returns its bytes' range and whether it is whole.
    public mutating func number() throws(JSONError) -> (range: Range<Int>, whole: Bool) {
        let start = index
        func digits() -> Bool {
            let first = index
            while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index > first
        }
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else if !digits() {
            throw .badNumber(at: start)
        }
        var whole = true
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits() else { throw .badNumber(at: start) }
            whole = false
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits() else { throw .badNumber(at: start) }
            whole = false
        }
        // A number runs into nothing but a separator: `01` and `1x` are not numbers.
        if let next = peek,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) || next == UInt8(ascii: ".")
                || next == UInt8(ascii: "+") || next == UInt8(ascii: "-") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E")
        {
            throw .badNumber(at: start)
        }
        return (start..<index, whole)
    }

    /// Reads past one value of any kind; `depth` is how many arrays and objects it is in.
    public mutating func skipValue(depth: Int) throws(JSONError) {
        skipBlanks()
        guard let byte = peek else { throw .unexpectedEnd }
        switch byte {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw .tooDeep(at: index) }
            let isObject = byte == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipBlanks()
            if peek == close { index += 1; return }
            while true {
                if isObject {
                    skipBlanks()
                    _ = try string()
                    skipBlanks()
                    try expect(UInt8(ascii: ":"))
                }
                try skipValue(depth: depth + 1)
                skipBlanks()
                if peek == close { index += 1; return }
                try expect(UInt8(ascii: ","))
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            guard literal("true") || literal("false") || literal("null") else { throw unexpected() }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try number()
        default:
            throw unexpected()
        }
    }
}

/// Why the text is not JSON, with the byte offset (from 0) where it stopped.
public enum JSONError: CatalogError, Equatable, Hashable, Sendable {
    case unexpected(Unicode.Scalar, at: Int)
    case unexpectedEnd
    case tooDeep(at: Int)
    case badNumber(at: Int)
    case controlCharacter(at: Int)
    case badEscape(at: Int)
    case loneSurrogate(at: Int)
    case invalidUTF8(at: Int)
    case tooLarge(bytes: Int)

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .unexpected(let scalar, let offset):
            t(.jsonUnexpected, ("character", String(scalar).escapedForDisplay), ("offset", offset))
        case .unexpectedEnd: t(.jsonUnexpectedEnd)
        case .tooDeep(let offset): t(.jsonTooDeep, ("limit", JSONReader.maximumDepth), ("offset", offset))
        case .badNumber(let offset): t(.jsonBadNumber, ("offset", offset))
        case .controlCharacter(let offset): t(.jsonControlCharacter, ("offset", offset))
        case .badEscape(let offset): t(.jsonBadEscape, ("offset", offset))
        case .loneSurrogate(let offset): t(.jsonLoneSurrogate, ("offset", offset))
        case .invalidUTF8(let offset): t(.jsonInvalidUTF8, ("offset", offset))
        case .tooLarge(let bytes): t(.jsonTooLarge, ("bytes", bytes), ("limit", JSONReader.maximumBytes))
        }
    }
}
