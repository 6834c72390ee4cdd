import NavStackBytes
import NavStackCore

/// Reads one request or answer in one pass over the body's bytes, with ``JSONReader``
/// for the tokens. It throws ``SyncWireError`` and ``JSONError`` (untyped, so
/// both pass through the same calls); ``decode(_:_:)`` sorts them out.
struct SyncDecoder {
    var reader: JSONReader

    static func decode<Message>(_ bytes: ByteView, _ read: (inout SyncDecoder) throws -> Message)
        throws(SyncWireError) -> Message
    {
        do {
            var decoder = SyncDecoder(reader: try JSONReader(bytes))
            return try read(&decoder)
        } catch let failure as SyncWireError {
            throw failure
        } catch let failure as JSONError {
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
        var writeKey: String?
        var format: Int64?
        var aside: [String]?
        try members(of: "the body", depth: 0) { decoder, key throws in
            switch key {
            case "aside":
                guard aside == nil else { throw SyncWireError.repeated(path: key) }
                aside = try decoder.replicas(path: key)
            case "format":
                guard format == nil else { throw SyncWireError.repeated(path: key) }
                format = try decoder.whole(path: { key }, 1...Int64(SyncFormat.highest), depth: 1)
                // Read whole, so that the refusal names the format.
                if let read = format, read > SyncFormat.current { throw SyncWireError.unknownFormat(format: Int(read)) }
            case "write_key":
                guard writeKey == nil else { throw SyncWireError.repeated(path: key) }
                writeKey = try decoder.writeKey()
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
        request.writeKey = writeKey
        request.aside = aside ?? []
        request.format = Int(format ?? 1)
        return request
    }

    mutating func answer() throws -> SyncAnswer {
        var operations: [SyncOperation]?
        var last: Int64?
        var more: Bool?
        var accountKey: String??
        var snapshot: SyncSnapshot?
        var sinceSnapshot: Int64?
        var epoch: String?
        var stored: SyncStored?
        var gone: [String]?
        try members(of: "the body", depth: 0) { decoder, key throws in
            switch key {
            case "gone":
                guard gone == nil else { throw SyncWireError.repeated(path: key) }
                gone = try decoder.replicas(path: key)
            case "stored":
                guard stored == nil else { throw SyncWireError.repeated(path: key) }
                stored = try decoder.stored()
            case "epoch":
                guard epoch == nil else { throw SyncWireError.repeated(path: key) }
                epoch = try decoder.epoch()
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
        var answer = SyncAnswer(
            operations: operations, last: last, more: more, key: accountKey ?? nil, snapshot: snapshot,
            sinceSnapshot: sinceSnapshot)
        answer.epoch = epoch
        answer.stored = stored
        answer.gone = gone ?? []
        return answer
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
}
