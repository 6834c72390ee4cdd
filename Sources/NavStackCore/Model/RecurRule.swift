/// A recurrence rule as the contract writes it.
public enum RecurRule {
    public static let named = ["daily", "weekdays", "weekly", "biweekly", "monthly", "quarterly", "yearly"]

    /// The rule in lowercase, or `nil` when `text` is not one: a named rule, or a whole
    /// number from 1 then `d`, `w`, `m` or `y` (`3d`, `2w`).
    public static func normalized(_ text: String) -> String? {
        let rule = text.lowercased()
        if named.contains(rule) { return rule }
        guard let unit = rule.last, "dwmy".contains(unit) else { return nil }
        let digits = rule.dropLast()
        guard (1...5).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits), count >= 1
        else { return nil }
        return String(count) + String(unit)
    }
}
