/// Reading a DATE's text: exactly the forms the contract lists, case aside.
extension DateExpression {
    private static let words: [String: DateExpression] = [
        "now": .now, "today": .today, "tomorrow": .tomorrow, "yesterday": .yesterday,
        "eod": .end(.day), "eow": .end(.week), "eom": .end(.month), "eoy": .end(.year),
        "sow": .start(.week), "som": .start(.month), "soy": .start(.year),
        "monday": .next(.monday), "tuesday": .next(.tuesday), "wednesday": .next(.wednesday),
        "thursday": .next(.thursday), "friday": .next(.friday), "saturday": .next(.saturday), "sunday": .next(.sunday),
        "mon": .next(.monday), "tue": .next(.tuesday), "wed": .next(.wednesday), "thu": .next(.thursday),
        "fri": .next(.friday), "sat": .next(.saturday), "sun": .next(.sunday),
    ]

    /// The largest N of `+N…`: enough for any plan (`+9999d` is 27 years), small enough
    /// that no step can leave the calendar's range.
    public static let largestCount = 99_999

    /// The DATE `text` states, read in `language` (whose words for today and tomorrow are
    /// understood besides the English ones). Letters may be of any case; `amanhã` and
    /// `mañana` match however their accent is encoded (one character, or `n`/`a` and
    /// U+0303), as Swift compares strings by canonical equivalence.
    public static func parse(_ text: String, language: DateLanguage) throws(DateError) -> DateExpression {
        let word = text.lowercased()
        if let expression = words[word] ?? language.words[word] { return expression }
        var scanner = DigitScanner(word)
        if scanner.take("+") {
            let digits = scanner.skipDigits()
            guard digits > 0, scanner.count == digits + 2 else { throw .unrecognized(text, language) }
            let unit: Zone.Unit
            switch word.utf8.last {
            case UInt8(ascii: "d"): unit = .days
            case UInt8(ascii: "w"): unit = .weeks
            case UInt8(ascii: "m"): unit = .months
            case UInt8(ascii: "y"): unit = .years
            default: throw .unrecognized(text, language)
            }
            guard digits <= 5, let count = Int(word.dropFirst().dropLast()), count <= largestCount else {
                throw .outOfRange(text, language)
            }
            return .fromToday(count, unit)
        }
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2)
        else { throw .unrecognized(text, language) }
        if scanner.atEnd {
            guard year >= 1, let date = CivilDate(year: year, month: month, day: day) else { throw .invalidDate(text, language) }
            return .date(date)
        }
        guard scanner.take("t"), let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2), scanner.atEnd else {
            throw .unrecognized(text, language)
        }
        guard year >= 1, let dateTime = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute) else {
            throw .invalidDate(text, language)
        }
        return .dateTime(dateTime)
    }
}
