import NavStackBytes

/// Writes compact JSON with keys in the order they are given, so the same value gives
/// the same bytes.
public struct JSONWriter {
    /// The JSON written so far, as UTF-8.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init() {}

    /// Makes room for `count` bytes in all, so a large document grows its buffer once.
    public mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    /// The JSON written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    public mutating func array<S: Sequence>(_ items: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        open(UInt8(ascii: "["))
        for item in items {
            body(&self, item)
        }
        close(UInt8(ascii: "]"))
    }

    /// Starts a member of the object being written; the value follows.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String?) {
        separate()
        if let value { appendString(value) } else { append("null") }
        needsComma = true
    }

    public mutating func number(_ value: Int) {
        separate()
        bytes.appendDecimal(value)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
        needsComma = true
    }

    /// A value that is JSON already, copied as it is.
    public mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
        needsComma = true
    }

    /// A value that is JSON already, as UTF-8 bytes, copied as it is.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    public mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func append(_ literal: StaticString) {
        bytes.append(literal)
    }

    /// A string literal: runs that need no escape are copied as they are.
    private mutating func appendString(_ value: String) {
        value.withUTF8Bytes { appendString(utf8: $0) }
    }

    private mutating func appendString(utf8 text: ByteView) {
        bytes.append(UInt8(ascii: "\""))
        var copied = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            var next = index + 1
            let escape: UInt32?
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"),
                0x00..<0x20, 0x7F:
                escape = UInt32(byte)
            case 0xE2 where next + 1 < text.count && text[next] == 0x80 && (text[next + 1] == 0xA8 || text[next + 1] == 0xA9):
                // U+2028 and U+2029 (E2 80 A8, E2 80 A9) end lines in JavaScript.
                escape = text[next + 1] == 0xA8 ? 0x2028 : 0x2029
                next += 2
            default:
                escape = nil
            }
            if let escape {
                bytes.append(contentsOf: text.view(copied..<index))
                appendEscape(escape)
                copied = next
            }
            index = next
        }
        bytes.append(contentsOf: text.view(from: copied))
        bytes.append(UInt8(ascii: "\""))
    }

    /// `\"`, `\\`, `\n`, `\r`, `\t`, or `\uXXXX` for the other characters that need one.
    private mutating func appendEscape(_ value: UInt32) {
        bytes.append(UInt8(ascii: "\\"))
        switch value {
        case 0x22, 0x5C: bytes.append(UInt8(value))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(UInt8(ascii: "u"))
            let hex = Array("0123456789abcdef".utf8)
            for shift in stride(from: 12, through: 0, by: -4) {
                bytes.append(hex[Int(value >> UInt32(shift)) & 0xF])
            }
        }
    }
}

extension String {
    /// The text as a JSON string literal, quotes included.
    public var jsonQuoted: String {
        // Printable ASCII but quotes and backslashes, as most titles are: copied between
        // the quotes as it is.
        let plain = withUTF8Bytes { utf8 -> String? in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else { return nil }
            return String(capacity: utf8.count + 2) { quoted in
                quoted.append(0x22)
                quoted.append(utf8)
                quoted.append(0x22)
            }
        }
        if let plain { return plain }
        var writer = JSONWriter()
        writer.string(self)
        return writer.text
    }
}
