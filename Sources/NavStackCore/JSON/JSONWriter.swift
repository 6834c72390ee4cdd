/// Writes compact JSON with keys in the order they are given, so the same value gives
/// the same bytes.
public struct JSONWriter {
    public private(set) var text = ""
    private var needsComma = false

    public init() {}

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        open("{")
        body(&self)
        close("}")
    }

    public mutating func array<S: Sequence>(_ items: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        open("[")
        for item in items {
            body(&self, item)
        }
        close("]")
    }

    /// Starts a member of the object being written; the value follows.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        text += ":"
        needsComma = false
    }

    public mutating func string(_ value: String?) {
        separate()
        if let value { appendString(value) } else { text += "null" }
        needsComma = true
    }

    public mutating func number(_ value: Int) {
        separate()
        text += String(value)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        text += value ? "true" : "false"
        needsComma = true
    }

    public mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    private mutating func open(_ bracket: String) {
        separate()
        text += bracket
        needsComma = false
    }

    private mutating func close(_ bracket: String) {
        text += bracket
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { text += "," }
    }

    /// A string literal: runs that need no escape are copied as they are.
    private mutating func appendString(_ value: String) {
        text += "\""
        let bytes = value.utf8
        var copied = bytes.startIndex
        var index = copied
        while index < bytes.endIndex {
            let byte = bytes[index]
            let escape: String?
            var next = bytes.index(after: index)
            switch byte {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "\n"): escape = "\\n"
            case UInt8(ascii: "\r"): escape = "\\r"
            case UInt8(ascii: "\t"): escape = "\\t"
            case 0x00..<0x20, 0x7F: escape = Self.unicodeEscape(UInt32(byte))
            case 0xE2:
                // U+2028 and U+2029 (E2 80 A8, E2 80 A9) end lines in JavaScript.
                let rest = bytes[next...].prefix(2)
                if rest.elementsEqual([0x80, 0xA8]) || rest.elementsEqual([0x80, 0xA9]) {
                    escape = Self.unicodeEscape(rest.last == 0xA8 ? 0x2028 : 0x2029)
                    next = bytes.index(next, offsetBy: 2)
                } else {
                    escape = nil
                }
            default: escape = nil
            }
            if let escape {
                // Scalar bounds, not characters: `"` may start a character with a mark.
                text += Substring(value.unicodeScalars[copied..<index])
                text += escape
                copied = next
            }
            index = next
        }
        text += Substring(value.unicodeScalars[copied...])
        text += "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

extension String {
    /// The text as a JSON string literal, quotes included.
    public var jsonQuoted: String {
        var writer = JSONWriter()
        writer.string(self)
        return writer.text
    }
}
