import NavStackCore

extension SyncRequest {
    /// Why a body is not a sync request. `path` names the member, as `after` or `ops[3].seq`.
    public enum Failure: Error, Equatable, Sendable {
        /// Not JSON at all, as navstack's one JSON reader reads it.
        case notJSON(JSONReader.Failure)
        case notAnObject(path: String)
        case notAnArray(path: String)
        case missing(path: String)
        case repeated(path: String)
        case badReplica
        case notAWholeNumber(path: String, range: ClosedRange<Int64>)
        case badTask(path: String)
        case badField(path: String)
        case tooManyOperations

        public var message: String {
            switch self {
            case .notJSON(let failure): "malformed JSON: " + failure.message(in: .english)
            case .notAnObject(let path): "\(path) must be a JSON object"
            case .notAnArray(let path): "\(path) must be an array"
            case .missing(let path): "\(path) is missing"
            case .repeated(let path): "\(path) is given twice"
            case .badReplica: "replica must be 32 lowercase hexadecimal digits"
            case .notAWholeNumber(let path, let range):
                "\(path) must be a whole number from \(range.lowerBound) to \(range.upperBound)"
            case .badTask(let path):
                "\(path) must be a string of 1 to \(SyncLimits.maximumTaskLength) characters without control characters"
            case .badField(let path):
                "\(path) must be one of " + Field.allCases.map(\.rawValue).joined(separator: ", ")
            case .tooManyOperations: "more than \(SyncLimits.maximumOperationsPerRequest) ops in one request"
            }
        }
    }

    /// Reads a request body, checking every member the protocol names; members it does
    /// not name are read past. `value` and `old` are kept as the JSON text they were sent
    /// as, without the blanks between tokens, so the server stores and returns them as they are.
    public init(json bytes: UnsafeRawBufferPointer) throws(Failure) {
        do {
            var decoder = try RequestDecoder(bytes.assumingMemoryBound(to: UInt8.self))
            self = try decoder.request()
        } catch let failure as Failure {
            throw failure
        } catch let failure as JSONReader.Failure {
            throw .notJSON(failure)
        } catch {
            preconditionFailure("the request decoder throws only its own failures: \(error)")
        }
    }
}

/// Reads one request in one pass over the body's bytes, with ``JSONReader`` for the tokens.
/// It throws ``SyncRequest/Failure`` and ``JSONReader/Failure`` (untyped, so both pass
/// through the same calls); ``SyncRequest/init(json:)`` sorts them out.
private struct RequestDecoder {
    var reader: JSONReader

    init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        reader = try JSONReader(bytes)
    }

    mutating func request() throws -> SyncRequest {
        var replica: String?
        var after: Int64?
        var operations: [SyncRequest.Operation]?
        try members(of: "the body", depth: 0) { decoder, key throws in
            switch key {
            case "replica":
                guard replica == nil else { throw SyncRequest.Failure.repeated(path: key) }
                replica = try decoder.replica()
            case "after":
                guard after == nil else { throw SyncRequest.Failure.repeated(path: key) }
                after = try decoder.whole(path: { key }, 0...Int64.max)
            case "ops":
                guard operations == nil else { throw SyncRequest.Failure.repeated(path: key) }
                operations = try decoder.operations()
            default:
                try decoder.reader.skipValue(depth: 1)
            }
        }
        reader.skipBlanks()
        guard reader.index == reader.end else { throw reader.unexpected() }
        guard let replica else { throw SyncRequest.Failure.missing(path: "replica") }
        guard let after else { throw SyncRequest.Failure.missing(path: "after") }
        guard let operations else { throw SyncRequest.Failure.missing(path: "ops") }
        return SyncRequest(replica: replica, after: after, operations: operations)
    }

    /// Reads an object, calling `member` at each member's value with its key.
    /// Anything else where the object should be is read (so malformed JSON is named as
    /// such) and refused.
    mutating func members(of path: @autoclosure () -> String, depth: Int, _ member: (inout Self, String) throws -> Void)
        throws {
        reader.skipBlanks()
        guard reader.peek == UInt8(ascii: "{") else {
            try reader.skipValue(depth: depth)
            throw SyncRequest.Failure.notAnObject(path: path())
        }
        reader.index += 1
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "}") {
            reader.index += 1
            return
        }
        while true {
            reader.skipBlanks()
            let key = try reader.string()
            reader.skipBlanks()
            try reader.expect(UInt8(ascii: ":"))
            reader.skipBlanks()
            try member(&self, key)
            reader.skipBlanks()
            if reader.peek == UInt8(ascii: ",") {
                reader.index += 1
                continue
            }
            try reader.expect(UInt8(ascii: "}"))
            return
        }
    }

    mutating func operations() throws -> [SyncRequest.Operation] {
        guard reader.peek == UInt8(ascii: "[") else {
            try reader.skipValue(depth: 1)
            throw SyncRequest.Failure.notAnArray(path: "ops")
        }
        reader.index += 1
        var operations: [SyncRequest.Operation] = []
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "]") {
            reader.index += 1
            return operations
        }
        // About 150 bytes an operation: enough room, usually, without growing.
        operations.reserveCapacity(min(SyncLimits.maximumOperationsPerRequest, reader.end / 150 + 1))
        while true {
            guard operations.count < SyncLimits.maximumOperationsPerRequest else {
                throw SyncRequest.Failure.tooManyOperations
            }
            operations.append(try operation(at: operations.count))
            reader.skipBlanks()
            if reader.peek == UInt8(ascii: ",") {
                reader.index += 1
                reader.skipBlanks()
                continue
            }
            try reader.expect(UInt8(ascii: "]"))
            return operations
        }
    }

    mutating func operation(at index: Int) throws -> SyncRequest.Operation {
        var seq: Int64?
        var millis: Int64?
        var counter: Int64?
        var task: String?
        var field: SyncRequest.Field?
        var value: String?
        var old: String?
        func path(_ key: String) -> String { "ops[\(index)].\(key)" }
        try members(of: "ops[\(index)]", depth: 2) { decoder, key throws in
            switch key {
            case "seq":
                guard seq == nil else { throw SyncRequest.Failure.repeated(path: path(key)) }
                seq = try decoder.whole(path: { path(key) }, 1...Int64.max)
            case "millis":
                guard millis == nil else { throw SyncRequest.Failure.repeated(path: path(key)) }
                millis = try decoder.whole(path: { path(key) }, 0...Int64.max)
            case "counter":
                guard counter == nil else { throw SyncRequest.Failure.repeated(path: path(key)) }
                counter = try decoder.whole(path: { path(key) }, 0...Int64(Int32.max))
            case "task":
                guard task == nil else { throw SyncRequest.Failure.repeated(path: path(key)) }
                task = try decoder.task(path: { path(key) })
            case "field":
                guard field == nil else { throw SyncRequest.Failure.repeated(path: path(key)) }
                guard decoder.reader.peek == UInt8(ascii: "\"") else {
                    try decoder.reader.skipValue(depth: 3)
                    throw SyncRequest.Failure.badField(path: path(key))
                }
                guard let named = SyncRequest.Field(rawValue: try decoder.reader.string()) else {
                    throw SyncRequest.Failure.badField(path: path(key))
                }
                field = named
            case "value":
                guard value == nil else { throw SyncRequest.Failure.repeated(path: path(key)) }
                value = try decoder.jsonText()
            case "old":
                guard old == nil else { throw SyncRequest.Failure.repeated(path: path(key)) }
                old = try decoder.jsonText()
            default:
                try decoder.reader.skipValue(depth: 3)
            }
        }
        guard let seq else { throw SyncRequest.Failure.missing(path: path("seq")) }
        guard let millis else { throw SyncRequest.Failure.missing(path: path("millis")) }
        guard let counter else { throw SyncRequest.Failure.missing(path: path("counter")) }
        guard let task else { throw SyncRequest.Failure.missing(path: path("task")) }
        guard let field else { throw SyncRequest.Failure.missing(path: path("field")) }
        guard let value else { throw SyncRequest.Failure.missing(path: path("value")) }
        return SyncRequest.Operation(
            seq: seq, millis: millis, counter: Int32(counter), task: task, field: field, value: value, old: old ?? "null")
    }

    mutating func replica() throws -> String {
        let start = reader.index
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: 1)
            throw SyncRequest.Failure.badReplica
        }
        let replica = try reader.string()
        // 32 characters between the quotes, none of them escaped: a hex digit needs no escape.
        guard reader.index - start == 34, replica.utf8.allSatisfy(\.isLowercaseHexDigit) else {
            throw SyncRequest.Failure.badReplica
        }
        return replica
    }

    mutating func task(path: () -> String) throws -> String {
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: 3)
            throw SyncRequest.Failure.badTask(path: path())
        }
        let task = try reader.string()
        // PostgreSQL text cannot hold NUL, and no uuid holds any control character.
        guard !task.isEmpty, task.utf8.count <= 4 * SyncLimits.maximumTaskLength,
              task.count <= SyncLimits.maximumTaskLength,
              !task.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw SyncRequest.Failure.badTask(path: path()) }
        return task
    }

    /// A JSON number that is whole and in `range`; anything else is read past and refused.
    mutating func whole(path: () -> String, _ range: ClosedRange<Int64>) throws -> Int64 {
        guard let first = reader.peek, first == UInt8(ascii: "-") || first.isDigit else {
            try reader.skipValue(depth: 1)
            throw SyncRequest.Failure.notAWholeNumber(path: path(), range: range)
        }
        let (digits, whole) = try reader.number()
        guard whole, let number = Int64(ascii: reader.bytes, digits), range.contains(number) else {
            throw SyncRequest.Failure.notAWholeNumber(path: path(), range: range)
        }
        return number
    }

    /// Any JSON value, checked by reading past it, as compact text.
    mutating func jsonText() throws -> String {
        let start = reader.index
        try reader.skipValue(depth: 3)
        return compactJSON(UnsafeBufferPointer(rebasing: reader.bytes[start..<reader.index]))
    }
}

/// Valid JSON text without the blanks between its tokens. Clients send compact JSON, so
/// the text is usually copied as it is, after one scan.
func compactJSON(_ json: UnsafeBufferPointer<UInt8>) -> String {
    var tokens = JSONTokenScan()
    guard let firstBlank = json.indices.first(where: { tokens.isBlank(json[$0]) }) else {
        return String(decoding: json, as: UTF8.self)
    }
    var compact = Array(json[..<firstBlank])
    compact.reserveCapacity(json.count)
    for byte in json[(firstBlank + 1)...] where !tokens.isBlank(byte) {
        compact.append(byte)
    }
    return String(decoding: compact, as: UTF8.self)
}

/// Reads JSON text a byte at a time, knowing whether it is inside a string.
private struct JSONTokenScan {
    private var inString = false
    private var escaped = false

    /// Takes the next byte: `true` for a blank between tokens (not one inside a string).
    mutating func isBlank(_ byte: UInt8) -> Bool {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return false
        }
        if byte == UInt8(ascii: "\"") {
            inString = true
            return false
        }
        return byte.isJSONBlank
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isLowercaseHexDigit: Bool { isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self) }
    fileprivate var isJSONBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension Int64 {
    /// The whole number `-`? digits in `bytes[range]`; `nil` past `Int64`'s range.
    fileprivate init?(ascii bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAgain) = negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
            index += 1
        }
        self = value
    }
}
