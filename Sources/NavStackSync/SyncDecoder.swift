import NavStackCore

/// Reads one request or answer in one pass over the body's bytes, with ``JSONReader``
/// for the tokens. It throws ``SyncWireError`` and ``JSONReader/Failure`` (untyped, so
/// both pass through the same calls); ``decode(_:_:)`` sorts them out.
struct SyncDecoder {
    var reader: JSONReader

    static func decode<Message>(_ bytes: UnsafeRawBufferPointer, _ read: (inout SyncDecoder) throws -> Message)
        throws(SyncWireError) -> Message
    {
        do {
            var decoder = SyncDecoder(reader: try JSONReader(bytes.assumingMemoryBound(to: UInt8.self)))
            return try read(&decoder)
        } catch let failure as SyncWireError {
            throw failure
        } catch let failure as JSONReader.Failure {
            throw .notJSON(failure)
        } catch {
            preconditionFailure("the sync decoder throws only its own failures: \(error)")
        }
    }

    mutating func request() throws -> SyncRequest {
        var replica: String?
        var after: Int64?
        var operations: [SyncOperation]?
        var accountKey: String?
        var dropClear: Bool?
        var snapshot: SyncSnapshot?
        var takesSnapshots: Bool?
        var ownSeq: Int64?
        try members(of: "the body", depth: 0) { decoder, key throws in
            switch key {
            case "own_seq":
                guard ownSeq == nil else { throw SyncWireError.repeated(path: key) }
                ownSeq = try decoder.whole(path: { key }, 0...Int64.max, depth: 1)
            case "snapshot":
                guard snapshot == nil else { throw SyncWireError.repeated(path: key) }
                snapshot = try decoder.snapshot()
            case "snapshots":
                guard takesSnapshots == nil else { throw SyncWireError.repeated(path: key) }
                takesSnapshots = try decoder.boolean(path: key, depth: 1)
            case "key":
                guard accountKey == nil else { throw SyncWireError.repeated(path: key) }
                accountKey = try decoder.keyRecord()
            case "drop_clear":
                guard dropClear == nil else { throw SyncWireError.repeated(path: key) }
                dropClear = try decoder.boolean(path: key, depth: 1)
            case "replica":
                guard replica == nil else { throw SyncWireError.repeated(path: key) }
                replica = try decoder.replica(path: { key }, depth: 1)
            case "after":
                guard after == nil else { throw SyncWireError.repeated(path: key) }
                after = try decoder.whole(path: { key }, 0...Int64.max, depth: 1)
            case "ops":
                guard operations == nil else { throw SyncWireError.repeated(path: key) }
                operations = try decoder.operations(inAnswer: false)
            default:
                try decoder.reader.skipValue(depth: 1)
            }
        }
        try end()
        guard let replica else { throw SyncWireError.missing(path: "replica") }
        guard let after else { throw SyncWireError.missing(path: "after") }
        guard let operations else { throw SyncWireError.missing(path: "ops") }
        // A snapshot goes alone: a request holds one within its body's limit only so.
        if snapshot != nil && !operations.isEmpty { throw SyncWireError.snapshotWithOperations }
        if snapshot != nil && ownSeq == nil { throw SyncWireError.missing(path: "own_seq") }
        var request = SyncRequest(
            replica: replica, after: after, operations: operations, key: accountKey, dropClear: dropClear ?? false,
            snapshot: snapshot)
        request.takesSnapshots = takesSnapshots ?? false
        request.ownSeq = ownSeq ?? 0
        return request
    }

    mutating func answer() throws -> SyncAnswer {
        var operations: [SyncOperation]?
        var last: Int64?
        var more: Bool?
        var accountKey: String??
        var snapshot: SyncSnapshot?
        var sinceSnapshot: Int64?
        try members(of: "the body", depth: 0) { decoder, key throws in
            switch key {
            case "snapshot":
                guard snapshot == nil else { throw SyncWireError.repeated(path: key) }
                snapshot = try decoder.snapshot()
            case "since_snapshot":
                guard sinceSnapshot == nil else { throw SyncWireError.repeated(path: key) }
                sinceSnapshot = try decoder.whole(path: { key }, 0...Int64.max, depth: 1)
            case "key":
                guard accountKey == nil else { throw SyncWireError.repeated(path: key) }
                accountKey = decoder.reader.literal("null") ? .some(nil) : try decoder.keyRecord()
            case "ops":
                guard operations == nil else { throw SyncWireError.repeated(path: key) }
                operations = try decoder.operations(inAnswer: true)
            case "last":
                guard last == nil else { throw SyncWireError.repeated(path: key) }
                last = try decoder.whole(path: { key }, 0...Int64.max, depth: 1)
            case "more":
                guard more == nil else { throw SyncWireError.repeated(path: key) }
                more = try decoder.boolean(path: key, depth: 1)
            default:
                try decoder.reader.skipValue(depth: 1)
            }
        }
        try end()
        guard let operations else { throw SyncWireError.missing(path: "ops") }
        guard let last else { throw SyncWireError.missing(path: "last") }
        guard let more else { throw SyncWireError.missing(path: "more") }
        return SyncAnswer(
            operations: operations, last: last, more: more, key: accountKey ?? nil, snapshot: snapshot,
            sinceSnapshot: sinceSnapshot)
    }

    /// Nothing but blanks after the body's object.
    mutating func end() throws {
        reader.skipBlanks()
        guard reader.index == reader.end else { throw reader.unexpected() }
    }

    /// Reads an object, calling `member` at each member's value with its key.
    /// Anything else where the object should be is read (so malformed JSON is named as
    /// such) and refused.
    mutating func members(of path: @autoclosure () -> String, depth: Int, _ member: (inout Self, String) throws -> Void)
        throws
    {
        reader.skipBlanks()
        guard reader.peek == UInt8(ascii: "{") else {
            try reader.skipValue(depth: depth)
            throw SyncWireError.notAnObject(path: path())
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

    mutating func operations(inAnswer: Bool) throws -> [SyncOperation] {
        guard reader.peek == UInt8(ascii: "[") else {
            try reader.skipValue(depth: 1)
            throw SyncWireError.notAnArray(path: "ops")
        }
        reader.index += 1
        var operations: [SyncOperation] = []
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "]") {
            reader.index += 1
            return operations
        }
        // About 150 bytes an operation: enough room, usually, without growing.
        operations.reserveCapacity(min(SyncLimits.maximumOperationsPerRequest, reader.end / 150 + 1))
        while true {
            // A request carries at most so many; an answer, a page of at most as many.
            guard operations.count < SyncLimits.maximumOperationsPerRequest else { throw SyncWireError.tooManyOperations }
            operations.append(try operation(at: operations.count, inAnswer: inAnswer))
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

    mutating func operation(at index: Int, inAnswer: Bool) throws -> SyncOperation {
        var serverSeq: Int64?
        var replica: String?
        var seq: Int64?
        var millis: Int64?
        var counter: Int64?
        var task: String?
        var field: SyncField?
        var value: String?
        var old: String?
        var sealed: String?
        func path(_ key: String) -> String { "ops[\(index)].\(key)" }
        func once<T>(_ slot: T?, _ key: String) throws {
            guard slot == nil else { throw SyncWireError.repeated(path: path(key)) }
        }
        try members(of: "ops[\(index)]", depth: 2) { decoder, key throws in
            switch key {
            case "server_seq" where inAnswer:
                try once(serverSeq, key)
                serverSeq = try decoder.whole(path: { path(key) }, 1...Int64.max, depth: 3)
            case "replica" where inAnswer:
                try once(replica, key)
                replica = try decoder.replica(path: { path(key) }, depth: 3)
            case "seq":
                try once(seq, key)
                seq = try decoder.whole(path: { path(key) }, 1...Int64.max, depth: 3)
            case "millis":
                try once(millis, key)
                millis = try decoder.whole(path: { path(key) }, 0...Int64.max, depth: 3)
            case "counter":
                try once(counter, key)
                counter = try decoder.whole(path: { path(key) }, 0...Int64(Int32.max), depth: 3)
            case "task":
                try once(task, key)
                task = try decoder.task(path: { path(key) })
            case "field":
                try once(field, key)
                field = try decoder.field(path: { path(key) })
            case "value":
                try once(value, key)
                value = try decoder.jsonText()
            case "old":
                try once(old, key)
                old = try decoder.jsonText()
            case "sealed":
                try once(sealed, key)
                sealed = try decoder.sealed(path: { path(key) })
            default:
                try decoder.reader.skipValue(depth: 3)
            }
        }
        if inAnswer {
            guard serverSeq != nil else { throw SyncWireError.missing(path: path("server_seq")) }
            guard replica != nil else { throw SyncWireError.missing(path: path("replica")) }
        }
        guard let seq else { throw SyncWireError.missing(path: path("seq")) }
        guard let millis else { throw SyncWireError.missing(path: path("millis")) }
        guard let counter else { throw SyncWireError.missing(path: path("counter")) }
        if let sealed {
            // A sealed payload hides what an operation in clear shows: never both.
            guard task == nil, field == nil, value == nil, old == nil else {
                throw SyncWireError.sealedAndClear(path: "ops[\(index)]")
            }
            return .sealed(sealed, serverSeq: serverSeq ?? 0, replica: replica ?? "", seq: seq, millis: millis, counter: counter)
        }
        guard let task else { throw SyncWireError.missing(path: path("task")) }
        guard let field else { throw SyncWireError.missing(path: path("field")) }
        guard let value else { throw SyncWireError.missing(path: path("value")) }
        return SyncOperation(
            serverSeq: serverSeq ?? 0, replica: replica ?? "", seq: seq, millis: millis,
            counter: counter, task: task, field: field, value: value, old: old ?? "null")
    }

    /// A sealed payload's members: the task, the field, the value and the old value (the
    /// last may be left out), as strictly as an operation in clear.
    mutating func payload() throws -> (task: String, field: SyncField, value: String, old: String) {
        var task: String?
        var field: SyncField?
        var value: String?
        var old: String?
        try members(of: "the payload", depth: 0) { decoder, key throws in
            switch key {
            case "task":
                guard task == nil else { throw SyncWireError.repeated(path: key) }
                task = try decoder.task(path: { key })
            case "field":
                guard field == nil else { throw SyncWireError.repeated(path: key) }
                field = try decoder.field(path: { key })
            case "value":
                guard value == nil else { throw SyncWireError.repeated(path: key) }
                value = try decoder.jsonText()
            case "old":
                guard old == nil else { throw SyncWireError.repeated(path: key) }
                old = try decoder.jsonText()
            default:
                try decoder.reader.skipValue(depth: 1)
            }
        }
        try end()
        guard let task else { throw SyncWireError.missing(path: "task") }
        guard let field else { throw SyncWireError.missing(path: "field") }
        guard let value else { throw SyncWireError.missing(path: "value") }
        return (task, field, value, old ?? "null")
    }

    /// A snapshot: `{"seq":N,"sealed":…}`, its seal at most
    /// ``SyncSnapshot/maximumSealedBytes``.
    mutating func snapshot() throws -> SyncSnapshot {
        var seq: Int64?
        var sealed: String?
        try members(of: "snapshot", depth: 1) { decoder, key throws in
            switch key {
            case "seq":
                guard seq == nil else { throw SyncWireError.repeated(path: "snapshot.seq") }
                seq = try decoder.whole(path: { "snapshot.seq" }, 1...Int64.max, depth: 2)
            case "sealed":
                guard sealed == nil else { throw SyncWireError.repeated(path: "snapshot.sealed") }
                sealed = try decoder.sealed(path: { "snapshot.sealed" }, depth: 2, limit: SyncSnapshot.maximumSealedBytes)
            default:
                try decoder.reader.skipValue(depth: 2)
            }
        }
        guard let seq else { throw SyncWireError.missing(path: "snapshot.seq") }
        guard let sealed else { throw SyncWireError.missing(path: "snapshot.sealed") }
        return SyncSnapshot(seq: seq, sealed: sealed)
    }

    /// A sealed payload: base64 text (RFC 4648, with padding) of at most `limit` bytes.
    mutating func sealed(path: () -> String, depth: Int = 3, limit: Int = SyncLimits.maximumSealedBytes) throws -> String {
        let start = reader.index
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: depth)
            throw SyncWireError.badSealed(path: path())
        }
        let text = try reader.string()
        // Base64 needs no escape: the string's bytes are its text.
        guard reader.index - start == text.utf8.count + 2, (4...limit).contains(text.utf8.count),
            Base64.isValid(text)
        else { throw SyncWireError.badSealed(path: path()) }
        return text
    }

    /// An account's key record: printable ASCII of at most ``SyncLimits/maximumKeyBytes``
    /// (the server keeps it as it is; only replicas read it).
    mutating func keyRecord() throws -> String {
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: 1)
            throw SyncWireError.badKey
        }
        let text = try reader.string()
        guard (1...SyncLimits.maximumKeyBytes).contains(text.utf8.count), text.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { throw SyncWireError.badKey }
        return text
    }

    mutating func replica(path: () -> String, depth: Int) throws -> String {
        let start = reader.index
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: depth)
            throw SyncWireError.badReplica(path: path())
        }
        let replica = try reader.string()
        // 32 characters between the quotes, none of them escaped: a hex digit needs no escape.
        guard reader.index - start == 34, replica.utf8.allSatisfy(\.isLowercaseHexDigit) else {
            throw SyncWireError.badReplica(path: path())
        }
        return replica
    }

    mutating func task(path: () -> String) throws -> String {
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: 3)
            throw SyncWireError.badTask(path: path())
        }
        let task = try reader.string()
        // PostgreSQL text cannot hold NUL, and no uuid holds any control character.
        guard !task.isEmpty, task.utf8.count <= 4 * SyncLimits.maximumTaskLength,
            task.count <= SyncLimits.maximumTaskLength,
            !task.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw SyncWireError.badTask(path: path()) }
        return task
    }

    mutating func field(path: () -> String) throws -> SyncField {
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: 3)
            throw SyncWireError.badField(path: path())
        }
        guard let field = SyncField(rawValue: try reader.string()) else { throw SyncWireError.badField(path: path()) }
        return field
    }

    mutating func boolean(path: String, depth: Int) throws -> Bool {
        if reader.literal("true") { return true }
        if reader.literal("false") { return false }
        try reader.skipValue(depth: depth)
        throw SyncWireError.notABoolean(path: path)
    }

    /// A JSON number that is whole and in `range`; anything else is read past and refused.
    mutating func whole(path: () -> String, _ range: ClosedRange<Int64>, depth: Int) throws -> Int64 {
        guard let first = reader.peek, first == UInt8(ascii: "-") || first.isDigit else {
            try reader.skipValue(depth: depth)
            throw SyncWireError.notAWholeNumber(path: path(), range: range)
        }
        let (digits, whole) = try reader.number()
        guard whole, let number = Int64(ascii: reader.bytes, digits), range.contains(number) else {
            throw SyncWireError.notAWholeNumber(path: path(), range: range)
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
