/// A time zone's rules: which UTC offset holds at each instant, as the tz database gives
/// them (``named(_:directory:)`` reads its TZif files) or as a POSIX TZ string states
/// them (``posix(_:)``). ``local(tz:directory:localtimePath:)`` reads `TZ` the way the C
/// library does.
///
/// A value, read once and then only asked: it holds the transitions of its file (the
/// 64-bit ones) and the file's footer rule, which answers for every instant past the last
/// transition (`CET-1CEST,M3.5.0,M10.5.0/3`), so 2040 is answered as 2026 is.
public struct Zone: Equatable, Sendable {
    /// The name it was asked by (`Europe/Madrid`, a TZ string, `UTC`), for messages; rules
    /// alike under two names are still two zones to `==`.
    public let name: String
    /// The instants at which the offset or its name changes, ascending.
    let transitions: [Int64]
    /// For each transition, the index in ``types`` of what holds from it on.
    let transitionTypes: [Int]
    /// The local time types; the first holds before the first transition (RFC 9636 §3.2).
    let types: [LocalTimeType]
    /// The footer's rule, for instants from the last transition on (all instants when
    /// there is no transition).
    let rule: POSIXRule?

    /// Coordinated Universal Time: offset 0 at every instant.
    public static let utc = Zone(
        name: "UTC", transitions: [], transitionTypes: [],
        types: [LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: "UTC")], rule: nil
    )

    /// The zone a POSIX TZ string states (`UTC0`, `EST5EDT,M3.2.0,M11.1.0`,
    /// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`), named by the string.
    public static func posix(_ string: String) throws(ZoneError) -> Zone {
        guard let rule = POSIXRule(string) else { throw .badRule(string) }
        return Zone(name: string, transitions: [], transitionTypes: [], types: [rule.standard], rule: rule)
    }

    /// What holds at `instant`: its offset, whether it is daylight saving time, its
    /// abbreviation.
    func type(at instant: Int64) -> LocalTimeType {
        guard let last = transitions.last else { return rule?.type(at: instant) ?? types[0] }
        if instant >= last, let rule { return rule.type(at: instant) }
        guard instant >= transitions[0] else { return types[0] }
        // The last transition at or before the instant.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return types[transitionTypes[low]]
    }

    /// The offset from UTC at `instant`, in seconds east of Greenwich.
    public func utcOffset(at instant: Instant) -> Int {
        type(at: instant.secondsSinceEpoch).utcOffset
    }

    /// The changes after `start` up to and including `end`, each with what held before
    /// and what holds after it, in order: the file's transitions, then the footer rule's.
    /// A transition that changes nothing a local time shows is left out.
    func changes(after start: Int64, through end: Int64) -> [ZoneChange] {
        var points = transitions.filter { $0 > start && $0 <= end }
        if let rule {
            points += rule.changePoints(after: max(start, transitions.last ?? start), through: end)
        }
        points.sort()
        var result: [ZoneChange] = []
        for at in points where result.last?.at != at {
            let before = type(at: at - 1)
            let after = type(at: at)
            if before != after { result.append(ZoneChange(at: at, before: before, after: after)) }
        }
        return result
    }
}

/// One kind of local time a zone has: its offset, whether it is daylight saving time, and
/// its abbreviation (`CEST`, `-03`).
struct LocalTimeType: Hashable, Sendable {
    /// Seconds east of UTC.
    var utcOffset: Int
    var isDaylightSaving: Bool
    var abbreviation: String
}

/// A moment at which a zone's local time changes.
struct ZoneChange: Equatable {
    var at: Int64
    var before: LocalTimeType
    var after: LocalTimeType
}
