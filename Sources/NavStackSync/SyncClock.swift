/// A hybrid logical clock: wall-clock milliseconds, never going back, with a counter for
/// operations within one millisecond and for clocks seen ahead of this one's.
public struct SyncClock: Equatable, Sendable {
    public var millis = 0
    public var counter = 0

    public init(millis: Int = 0, counter: Int = 0) {
        self.millis = millis
        self.counter = counter
    }

    /// The stamp of a new local operation made at `wall`.
    public mutating func tick(_ wall: Int) -> (millis: Int, counter: Int) {
        if wall > millis {
            millis = wall
            counter = 0
        } else {
            counter += 1
        }
        return (millis, counter)
    }

    /// Moves past a stamp seen from another replica.
    public mutating func observe(millis seen: Int, counter seenCounter: Int) {
        if seen > millis || (seen == millis && seenCounter > counter) {
            millis = seen
            counter = seenCounter
        }
    }
}

/// A stamp as sortable text: millis (15 digits), counter (10 digits), replica id. Text
/// order is stamp order: millis, then counter, then replica. `""` is older than any.
public enum Stamp {
    public static func text(millis: Int, counter: Int, replica: String) -> String {
        padded(millis, 15) + padded(counter, 10) + replica
    }

    /// ``text(millis:counter:replica:)`` in SQL, of the SQL expressions given.
    public static func sql(millis: String, counter: String, replica: String) -> String {
        "printf('%015d%010d%s', max(0, \(millis)), max(0, \(counter)), \(replica))"
    }

    public static func replica(of text: String) -> Substring {
        text.utf8.count > 25 ? text.dropFirst(25) : ""
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(max(0, value))
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
