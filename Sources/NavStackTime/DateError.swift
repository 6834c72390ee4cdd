/// Why a text is not a date or an instant, or why `NAVSTACK_NOW` could not be used. The
/// words are in ``description``.
public enum DateError: Error, Equatable, Sendable, CustomStringConvertible {
    // A DATE as a user types it (``DateExpression``): each case says, in one line, every
    // form a DATE takes.

    /// The text is none of the forms.
    case unrecognized(String, DateLanguage)
    /// It has a date's form but names no day or time (`2026-02-30`, `2026-13-01`, `24:00`,
    /// `13pm`, `32nd`).
    case invalidDate(String, DateLanguage)
    /// `+N` or `N` with N above ``DateExpression/largestCount``.
    case outOfRange(String, DateLanguage)

    // An ISO 8601 instant (``Instant/parse(iso8601:)``).

    /// The text is not of any form ``Instant/parse(iso8601:)`` reads.
    case notAnInstant(String)
    /// It has the form, but a field is out of range (`2026-02-30`, `24:00:00`, `+25:00`).
    case instantOutOfRange(String)

    /// `NAVSTACK_NOW`'s value is not an instant; the parser's reason goes with it
    /// (``Instant/fixedNow(environmentValue:)``).
    indirect case badFixedNow(String, DateError)

    public var description: String {
        switch self {
        case .unrecognized(let text, let language):
            return "'\(text)' is not a date: \(Self.forms(language))"
        case .invalidDate(let text, let language):
            return "'\(text)' names no day or time: \(Self.forms(language))"
        case .outOfRange(let text, let language):
            return "'\(text)' is too far away: \(Self.forms(language))"
        case .notAnInstant(let text):
            return "'\(text)' is not an ISO 8601 instant: use 2026-11-27T09:00:00Z, an offset such as +01:00, or 20261127T090000Z"
        case .instantOutOfRange(let text):
            return "'\(text)' names no instant: a date, time or offset in it is out of range"
        case .badFixedNow(let value, _):
            return "NAVSTACK_NOW='\(value)' is not an instant: use an ISO 8601 instant such as 2026-11-27T09:00:00Z"
        }
    }

    /// The accepted forms, in one line.
    static func forms(_ language: DateLanguage) -> String {
        let words = (["now", "today", "tomorrow", "yesterday"] + language.shownWords).joined(separator: ", ")
        return "use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (with Z or +01:00 too, or 20261210T143000Z), \(words), "
            + "monday…sunday (mon…sun), 1st…31st, jan…dec, sod, eod, sow, eow, som, eom, soq, eoq, soy, eoy, "
            + "someday, later, N with d, w, m or y (3d, +2w), and a time: 9am, 17:30, friday 9am"
    }
}
