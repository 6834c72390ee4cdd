import NavStackBytes
import NavStackCore

// The one codec of the sync protocol (docs/sync.md): the client writes requests and
// reads answers, the server reads requests and writes answers, the tests' log does both.
// Writing keeps `value` and `old` as the JSON text they are; reading is strict, checks
// every member the protocol names, reads past members it does not name, and names the
// member that failed.

extension SyncRequest {
    /// The body: `{"replica":…,"after":N,"ops":[…]}`, with `"key"`, `"drop_clear":true`,
    /// `"snapshot"` with `"own_seq"`, `"snapshots":true`, `"write_key"` and `"format"` (past
    /// 1) when they are set.
    public func json() -> [UInt8] {
        var writer = JSONWriter()
        writer.object { json in
            json.key("replica"); json.string(replica)
            json.key("after"); json.number(Int(after))
            json.key("ops")
            json.array(operations) { json, operation in operation.write(to: &json, inAnswer: false) }
            if let key {
                json.key("key"); json.string(key)
            }
            if dropClear {
                json.key("drop_clear"); json.bool(true)
            }
            if let snapshot {
                json.key("snapshot"); snapshot.write(to: &json)
                json.key("own_seq"); json.number(Int(ownSeq))
            }
            if takesSnapshots {
                json.key("snapshots"); json.bool(true)
            }
            if let writeKey {
                json.key("write_key"); json.string(writeKey)
            }
            if !aside.isEmpty {
                json.key("aside"); json.strings(aside)
            }
            // Format 1 is a request without one, as every earlier navstack sends it.
            if format != 1 {
                json.key("format"); json.number(format)
            }
        }
        return writer.bytes
    }

    /// Reads a request body.
    public init(json bytes: ByteView) throws(SyncWireError) {
        self = try SyncDecoder.decode(bytes) { decoder throws in try decoder.request() }
    }

    /// Reads a request body.
    public init(json bytes: [UInt8]) throws(SyncWireError) {
        let request = bytes.withBytes { bytes in Result { () throws(SyncWireError) in try SyncRequest(json: bytes) } }
        self = try request.get()
    }
}

extension SyncAnswer {
    /// The body: `{"ops":[…],"last":N,"more":B}`, keys in the protocol's order, then
    /// `"key"`, `"snapshot"`, `"since_snapshot"`, `"epoch"` and `"stored"` when they are set.
    public func json() -> [UInt8] {
        var writer = JSONWriter()
        writer.reserveCapacity(
            96 + (snapshot?.sealed.utf8.count ?? 0) + operations.reduce(0) { $0 + $1.encodedSizeBound })
        writer.object { json in
            json.key("ops")
            json.array(operations) { json, operation in operation.write(to: &json, inAnswer: true) }
            json.key("last"); json.number(Int(last))
            json.key("more"); json.bool(more)
            if let key {
                json.key("key"); json.string(key)
            }
            if let snapshot {
                json.key("snapshot"); snapshot.write(to: &json)
            }
            if let sinceSnapshot {
                json.key("since_snapshot"); json.number(Int(sinceSnapshot))
            }
            if let epoch {
                json.key("epoch"); json.string(epoch)
            }
            if let stored {
                json.key("stored"); stored.write(to: &json)
            }
            if !gone.isEmpty {
                json.key("gone"); json.strings(gone)
            }
        }
        return writer.bytes
    }

    /// Reads an answer body.
    public init(json bytes: ByteView) throws(SyncWireError) {
        self = try SyncDecoder.decode(bytes) { decoder throws in try decoder.answer() }
    }

    /// Reads an answer body.
    public init(json bytes: [UInt8]) throws(SyncWireError) {
        let answer = bytes.withBytes { bytes in Result { () throws(SyncWireError) in try SyncAnswer(json: bytes) } }
        self = try answer.get()
    }
}

extension SyncSnapshot {
    /// `{"seq":N,"sealed":…}`: only the sealed form travels.
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("seq"); json.number(Int(seq))
            json.key("sealed"); json.string(sealed)
        }
    }
}

extension SyncOperation {
    /// An answer's operation names its server sequence number and replica; a request's
    /// does not (the request names the replica).
    func write(to json: inout JSONWriter, inAnswer: Bool) {
        json.object { json in
            if inAnswer {
                json.key("server_seq"); json.number(Int(serverSeq))
                json.key("replica"); json.string(replica)
            }
            json.key("seq"); json.number(Int(seq))
            json.key("millis"); json.number(Int(millis))
            json.key("counter"); json.number(Int(counter))
            if let sealed {
                json.key("sealed"); json.string(sealed)
                return
            }
            json.key("task"); json.string(task)
            json.key("field"); json.string(field.rawValue)
            // JSON already: checked when it was read, or made by the replica.
            json.key("value"); json.raw(value)
            json.key("old"); json.raw(old)
        }
    }
}

extension SyncOperation {
    /// What sealing hides: `{"task":…,"field":…,"value":…,"old":…}`.
    public func payloadJSON() -> [UInt8] {
        var writer = JSONWriter()
        // Its keys and punctuation are 36 bytes: one buffer, grown never.
        writer.reserveCapacity(48 + task.utf8.count + field.rawValue.utf8.count + value.utf8.count + old.utf8.count)
        writer.object { json in
            json.key("task"); json.string(task)
            json.key("field"); json.string(field.rawValue)
            json.key("value"); json.raw(value)
            json.key("old"); json.raw(old)
        }
        return writer.bytes
    }

    /// This operation with the payload `bytes` (``payloadJSON()``) in place of its seal,
    /// read as strictly as an operation in clear.
    public func opened(payload bytes: [UInt8]) throws(SyncWireError) -> SyncOperation {
        let payload = bytes.withBytes { bytes in
            Result { () throws(SyncWireError) in try SyncDecoder.decode(bytes) { decoder throws in try decoder.payload() } }
        }
        let (task, field, value, old) = try payload.get()
        return SyncOperation(
            serverSeq: serverSeq, replica: replica, seq: seq, millis: millis, counter: counter, task: task, field: field,
            value: value, old: old)
    }
}

/// Valid JSON text without the blanks between its tokens. Both ends send compact JSON,
/// so the text is usually copied as it is, after one scan.
func compactJSON(_ json: ByteView) -> String {
    var tokens = JSONTokenScan()
    guard let firstBlank = json.indices.first(where: { tokens.isBlank(json[$0]) }) else {
        return json.string
    }
    var compact = json.view(0..<firstBlank).array
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
