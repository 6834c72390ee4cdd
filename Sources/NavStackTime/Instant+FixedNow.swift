/// `NAVSTACK_NOW`: "now" fixed for a whole process, so that with it and `TZ` every screen
/// and file comes out the same on every run (the golden transcripts depend on it).
extension Instant {
    /// The variable's name.
    public static let fixedNowVariable = "NAVSTACK_NOW"

    /// The instant `NAVSTACK_NOW` fixes, from the variable's value as the executable read
    /// it: nil when it is unset or empty (the executable then reads the clock), the instant
    /// when it is an ISO 8601 instant (``parse(iso8601:)``), else an error, so that a
    /// mistyped value stops the run instead of quietly using the real clock.
    public static func fixedNow(environmentValue value: String?) throws(FixedNowError) -> Instant? {
        guard let value, !value.isEmpty else { return nil }
        do {
            return try parse(iso8601: value)
        } catch {
            throw .notAnInstant(value, error)
        }
    }
}

/// Why `NAVSTACK_NOW` could not be used.
public enum FixedNowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Its value is not an instant; the parser's reason goes with it.
    case notAnInstant(String, InstantParseError)

    public var description: String {
        switch self {
        case .notAnInstant(let value, _):
            return "NAVSTACK_NOW='\(value)' is not an instant: use an ISO 8601 instant such as 2026-11-27T09:00:00Z"
        }
    }
}
