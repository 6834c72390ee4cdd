import NavStackBytes
import NavStackCore

extension SyncDecoder {
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

    /// A restore epoch: 1 to 64 bytes of letters, digits, `-` and `_`.
    mutating func epoch() throws -> String {
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: 1)
            throw SyncWireError.badEpoch
        }
        let text = try reader.string()
        guard (1...64).contains(text.utf8.count),
            text.utf8.allSatisfy({
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
            })
        else { throw SyncWireError.badEpoch }
        return text
    }

    /// A write key: base64 text of 32 bytes (``SyncRequest/writeKey``).
    mutating func writeKey() throws -> String {
        guard reader.peek == UInt8(ascii: "\"") else {
            try reader.skipValue(depth: 1)
            throw SyncWireError.badWriteKey
        }
        let text = try reader.string()
        guard text.utf8.count == 44, Base64.decode(text)?.count == 32 else { throw SyncWireError.badWriteKey }
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
        return compactJSON(reader.bytes.view(start..<reader.index))
    }
}
