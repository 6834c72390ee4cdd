/// A JSON document read into values: what the store reads back from the JSON it wrote
/// with ``JSONWriter``. Numbers are whole numbers.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Int)
    case string(String)
    case array([JSONValue])
    /// Members in the order they were written; the first of a repeated key wins.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Parses a whole document; `nil` when it is not JSON this type can hold.
    public init?(parsing text: String) {
        var text = text
        let value: JSONValue? = text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipBlanks()
            return reader.index == bytes.count ? value : nil
        }
        guard let value else { return nil }
        self = value
    }

    /// A member of an object; `nil` for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var number: Int? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// How deep arrays and objects may nest.
    static let maximumDepth = 64

    /// A byte-level reader: no allocation but for the values it returns.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func skipBlanks() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipBlanks()
            guard index < bytes.count, depth <= JSONValue.maximumDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        private mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var members: [(String, JSONValue)] = []
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipBlanks()
                guard index < bytes.count else { return nil }
                index += 1
                switch bytes[index - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return .object(members)
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var values: [JSONValue] = []
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            while true {
                guard let value = value(depth: depth + 1) else { return nil }
                values.append(value)
                skipBlanks()
                guard index < bytes.count else { return nil }
                index += 1
                switch bytes[index - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return .array(values)
                default: return nil
                }
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A whole number, optionally negative; fractions and exponents are refused.
        private mutating func number() -> JSONValue? {
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            var value = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                index += 1
            }
            guard index > start else { return nil }
            return .number(negative ? -value : value)
        }

        /// A string literal, at its opening quote.
        private mutating func string() -> String? {
            index += 1
            var utf8: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    do throws(JSONEscape.Failure) {
                        try JSONEscape.decode(bytes, at: &index, into: &utf8)
                    } catch {
                        return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    utf8.append(byte)
                }
            }
            return nil
        }
    }
}
