import NavStackBytes

/// A hybrid logical clock: wall-clock milliseconds, never going back, with a counter for
/// operations within one millisecond and for clocks seen ahead of this one's.
///
/// No stamp it is given can make it fail: the counter stays within what the protocol
/// carries (``maximumCounter``), past which the clock moves on a millisecond, and the
/// milliseconds stop at their largest value rather than overflow.
public struct SyncClock: Equatable, Sendable {
    public var millis = 0
    public var counter = 0

    /// The largest counter a stamp carries (the server keeps it as a 32-bit integer).
    public static let maximumCounter = Int(Int32.max)

    public init(millis: Int = 0, counter: Int = 0) {
        self.millis = millis
        self.counter = min(max(0, counter), Self.maximumCounter)
    }

    /// The stamp of a new local operation made at `wall`.
    public mutating func tick(_ wall: Int) -> (millis: Int, counter: Int) {
        if wall > millis {
            millis = wall
            counter = 0
        } else if counter < Self.maximumCounter {
            counter += 1
        } else if millis < Int.max {
            millis += 1
            counter = 0
        }
        return (millis, counter)
    }

    /// Moves past a stamp seen from another replica.
    public mutating func observe(millis seen: Int, counter seenCounter: Int) {
        let seenCounter = min(max(0, seenCounter), Self.maximumCounter)
        if seen > millis || (seen == millis && seenCounter > counter) {
            millis = seen
            counter = seenCounter
        }
    }
}

/// How far ahead of the server's clock a stamp may be: the server refuses operations
/// stamped later, so that no replica's clock drags the others' into the future.
public enum SyncDrift {
    public static let maximumMillis = 60_000

    /// A distance in time as a person reads it, to the nearest unit: `45 s`, `12 min`,
    /// `3 h`, `5 days` (a clock 3 h ahead, measured a few milliseconds later, is 3 h ahead).
    public static func words(millis: Int) -> String {
        let millis = max(0, millis)
        let seconds = millis / 1000 + (millis % 1000 >= 500 ? 1 : 0)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 120 * 60 - 30 { return "\((seconds + 30) / 60) min" }
        if seconds < 48 * 3600 - 1800 { return "\((seconds + 1800) / 3600) h" }
        return "\((seconds + 43_200) / 86_400) days"
    }
}

/// A stamp as sortable text: millis (15 digits), counter (10 digits), replica id. Text
/// order is stamp order: millis, then counter, then replica. `""` is older than any.
public enum Stamp {
    public static func text(millis: Int, counter: Int, replica: String) -> String {
        // Two Ints of at most 19 digits each, zeros before them, then the replica; the
        // writer asks room for 20 digits at each number.
        String(capacity: 64 + replica.utf8.count) { writer in
            // `value`'s digits, zeros before them up to `width`.
            func put(_ value: Int, width: Int) {
                let value = max(0, value)
                var length = 1
                var scan = value
                while scan >= 10 {
                    scan /= 10
                    length += 1
                }
                for _ in length..<max(width, length) { writer.append(0x30) }
                writer.appendDecimal(value)
            }
            put(millis, width: 15)
            put(counter, width: 10)
            replica.withUTF8Bytes { writer.append($0) }
        }
    }

    /// ``text(millis:counter:replica:)`` in SQL, of the SQL expressions given.
    public static func sql(millis: String, counter: String, replica: String) -> String {
        "printf('%015d%010d%s', max(0, \(millis)), max(0, \(counter)), \(replica))"
    }

    /// The millis and counter of a stamp's text; `nil` for `""` or text that is not a stamp.
    public static func parts(of text: String) -> (millis: Int, counter: Int)? {
        func read(_ bytes: some RandomAccessCollection<UInt8>) -> (millis: Int, counter: Int)? {
            guard bytes.count >= 25 else { return nil }
            let start = bytes.startIndex
            let middle = bytes.index(start, offsetBy: 15)
            guard let millis = integer(bytes[start..<middle]),
                let counter = integer(bytes[middle..<bytes.index(middle, offsetBy: 10)])
            else { return nil }
            return (millis, counter)
        }
        return text.withContiguousUTF8IfAvailable(read) ?? read(Array(text.utf8))
    }

    /// The whole number the bytes spell as `Int(_:)` reads text (a sign, then at least
    /// one digit and nothing else); at most 15 bytes, so never more than `Int` holds.
    private static func integer(_ bytes: some Collection<UInt8>) -> Int? {
        var digits = bytes[...]
        let sign = digits.first
        if sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return sign == UInt8(ascii: "-") ? -value : value
    }

    public static func replica(of text: String) -> Substring {
        text.utf8.count > 25 ? text.dropFirst(25) : ""
    }
}
