/// A moment in time: whole seconds since 1970-01-01T00:00:00Z, leap seconds not counted
/// (POSIX time, as the C library, Taskwarrior and JSON's `…Z` texts count it).
///
/// It knows no zone: a zone turns it into a civil date and time (``Zone/local(_:)``) and
/// back (``Zone/instant(_:)``). It is what the store keeps, so that a task's `due` means
/// the same moment whatever `TZ` the next run has.
public struct Instant: Comparable, Hashable, Sendable {
    /// Seconds since the Unix epoch; negative before it.
    public var secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    /// This instant moved by `seconds` (negative: earlier), held at the ends of `Int64`
    /// rather than wrapping, so that no input can make it trap.
    public func adding(seconds: Int64) -> Instant {
        Instant(secondsSinceEpoch: secondsSinceEpoch.saturatingAdding(seconds))
    }
}

extension Int64 {
    /// The sum, held at `.min` or `.max` where it would overflow.
    func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
