import NavStackBytes

/// A JSON document read into values: what the store reads back from the JSON it wrote
/// with ``JSONWriter``, through ``JSONReader``. Numbers are whole numbers.
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

    /// Parses a whole document; `nil` when it is not JSON (as ``JSONReader`` reads it) or
    /// holds a number that is not a whole `Int`.
    public init?(parsing text: String) {
        let value: JSONValue? = text.withUTF8Bytes { bytes in
            do throws(JSONError) {
                var reader = try JSONReader(bytes)
                let value = try Self.read(&reader, depth: 0, decimalsAsText: false)
                reader.skipBlanks()
                return reader.index == reader.end ? value : nil
            } catch {
                return nil
            }
        }
        guard let value else { return nil }
        self = value
    }

    /// Parses a whole document from another program, failing with where it is not JSON.
    /// A number that is not a whole `Int` (`4.5`, `1e3`) is kept as the string of its text:
    /// such files carry numbers navstack only keeps, never computes with.
    public static func parse(foreign text: String) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = text.withUTF8Bytes { bytes in
            do throws(JSONError) {
                var reader = try JSONReader(bytes)
                guard let value = try Self.read(&reader, depth: 0, decimalsAsText: true) else { throw .badNumber(at: reader.index) }
                reader.skipBlanks()
                guard reader.index == reader.end else { throw reader.unexpected() }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Writes the value back as compact JSON.
    public func write(to json: inout JSONWriter) {
        switch self {
        case .null: json.string(nil)
        case .bool(let value): json.bool(value)
        case .number(let value): json.number(value)
        case .string(let value): json.string(value)
        case .array(let values): json.array(values) { json, value in value.write(to: &json) }
        case .object(let members):
            json.object { json in
                for (key, value) in members {
                    json.key(key)
                    value.write(to: &json)
                }
            }
        }
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

    /// One value and what it holds; `nil` for a number that is not a whole `Int`.
    static func read(_ reader: inout JSONReader, depth: Int, decimalsAsText: Bool) throws(JSONError) -> JSONValue? {
        reader.skipBlanks()
        guard let byte = reader.peek else { throw .unexpectedEnd }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONReader.maximumDepth else { throw .tooDeep(at: reader.index) }
            let isObject = byte == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            reader.index += 1
            var members: [(String, JSONValue)] = []
            reader.skipBlanks()
            if reader.peek == close {
                reader.index += 1
            } else {
                while true {
                    var key = ""
                    if isObject {
                        reader.skipBlanks()
                        key = try reader.string()
                        reader.skipBlanks()
                        try reader.expect(UInt8(ascii: ":"))
                    }
                    guard let value = try read(&reader, depth: depth + 1, decimalsAsText: decimalsAsText) else { return nil }
                    members.append((key, value))
                    reader.skipBlanks()
                    if reader.peek == close { reader.index += 1; break }
                    try reader.expect(UInt8(ascii: ","))
                }
            }
            return isObject ? .object(members) : .array(members.map(\.1))
        case UInt8(ascii: "\""): return .string(try reader.string())
        case UInt8(ascii: "t") where reader.literal("true"): return .bool(true)
        case UInt8(ascii: "f") where reader.literal("false"): return .bool(false)
        case UInt8(ascii: "n") where reader.literal("null"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (range, whole) = try reader.number()
            let text = reader.bytes.string(range)
            guard whole, let number = Int(text) else { return decimalsAsText ? .string(text) : nil }
            return .number(number)
        default:
            throw reader.unexpected()
        }
    }
}

/// Reads the elements of a document's top array one at a time, as ``JSONValue/parse(foreign:)``
/// reads them: a file of many records is never held as one value, only the record being
/// read.
public struct JSONArrayReader {
    private var reader: JSONReader
    private var started = false
    private var finished = false

    /// Starts reading `bytes` from another program; nil when its first value is not an
    /// array.
    public init?(foreign bytes: ByteView) throws(JSONError) {
        var reader = try JSONReader(bytes)
        reader.skipBlanks()
        guard reader.peek == UInt8(ascii: "[") else { return nil }
        reader.index += 1
        self.reader = reader
    }

    /// The next element; nil once the array and the document have ended. Fails where the
    /// text is not JSON, or goes on past the array.
    public mutating func next() throws(JSONError) -> JSONValue? {
        guard !finished else { return nil }
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "]") {
            reader.index += 1
            finished = true
            reader.skipBlanks()
            guard reader.index == reader.end else { throw reader.unexpected() }
            return nil
        }
        if started { try reader.expect(UInt8(ascii: ",")) }
        started = true
        guard let value = try JSONValue.read(&reader, depth: 1, decimalsAsText: true) else { throw .badNumber(at: reader.index) }
        return value
    }
}
