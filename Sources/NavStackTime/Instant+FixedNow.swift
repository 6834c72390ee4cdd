/// `NAVSTACK_NOW`: "now" fixed for a whole process, so that with it and `TZ` every screen
/// and file comes out the same on every run (the golden transcripts depend on it).
extension Instant {
    /// The variable's name.
    public static let fixedNowVariable = "NAVSTACK_NOW"

    /// The instant `NAVSTACK_NOW` fixes, from the variable's value as the executable read
    /// it: nil when it is unset or empty (the executable then reads the clock), the instant
    /// when it is an ISO 8601 instant (``parse(iso8601:)``), else an error, so that a
    /// mistyped value stops the run instead of quietly using the real clock.
    public static func fixedNow(environmentValue value: String?) throws(DateError) -> Instant? {
        guard let value, !value.isEmpty else { return nil }
        do {
            return try parse(iso8601: value)
        } catch {
            throw .badFixedNow(value, error)
        }
    }
}
