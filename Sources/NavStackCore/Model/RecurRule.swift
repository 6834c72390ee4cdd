/// A recurrence rule as the contract writes it.
public enum RecurRule {
    public static let named = ["daily", "weekdays", "weekly", "biweekly", "monthly", "quarterly", "yearly"]

    /// Taskwarrior 2.6's other names, each read as the rule it steps by (its `recur.cpp`
    /// and `Duration.cpp`): `biannual` is every two years there, as `biyearly` is.
    public static let synonyms = [
        "annual": "yearly", "semiannual": "6m", "biannual": "2y", "bimonthly": "2m", "fortnight": "biweekly",
    ]

    /// The spelled-out units of `Nday(s)`, `Nweek(s)`, `Nmonth(s)` and `Nyear(s)`.
    private static let units = ["day": "d", "week": "w", "month": "m", "year": "y"]

    /// The rule in lowercase, or `nil` when `text` is not one: a named rule, or a whole
    /// number from 1 then `d`, `w`, `m` or `y` (`3d`, `2w`). Another name of one of these
    /// (`annual`, `fortnight`, `3days`, `2weeks`) is read as it: `yearly`, `biweekly`,
    /// `3d`, `2w`, so every rule is kept, sent and exported in one spelling.
    public static func normalized(_ text: String) -> String? {
        let rule = text.lowercased()
        if named.contains(rule) { return rule }
        if let synonym = synonyms[rule] { return synonym }
        let digits = rule.prefix { $0.isASCII && $0.isNumber }
        let word = rule.dropFirst(digits.count)
        let unit: String
        if word.count == 1, "dwmy".contains(word) {
            unit = String(word)
        } else if let short = units[String(word.hasSuffix("s") ? word.dropLast() : word)] {
            unit = short
        } else {
            return nil
        }
        guard (1...5).contains(digits.count), let count = Int(digits), count >= 1 else { return nil }
        return String(count) + unit
    }
}
