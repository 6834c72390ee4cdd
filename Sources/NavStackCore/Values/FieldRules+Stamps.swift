import NavStackTime

/// The rule for a task's stamps (`created`, `modified`, `completed`) as sync carries them.
extension FieldRules {
    /// A stamp's value as an operation carries it: ISO 8601 text that reads back as the
    /// same instant (so that every replica keeps the same second).
    public static func stamp(_ value: JSONValue) -> Instant? {
        guard let text = value.string, let instant = Instant(iso8601: text), isStamp(instant) else { return nil }
        return instant
    }

    /// Whether an instant is one a stamp may hold: one that ISO 8601 text carries and reads
    /// back unchanged.
    public static func isStamp(_ instant: Instant) -> Bool {
        Instant(iso8601: instant.iso8601) == instant
    }
}
