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

    private mutating func appendString(_ value: String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
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
