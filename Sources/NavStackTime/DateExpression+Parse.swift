/// Reading a DATE's text: exactly the forms the contract lists, case aside.
extension DateExpression {
    private static let words: [String: DateExpression] = [
        "now": .now, "today": .today, "tomorrow": .tomorrow, "yesterday": .yesterday,
        "someday": .date(CivilDate(unchecked: 9999, 12, 30)), "later": .date(CivilDate(unchecked: 9999, 12, 30)),
        "eod": .end(.day), "eow": .end(.week), "eom": .end(.month), "eoq": .end(.quarter), "eoy": .end(.year),
        "sod": .start(.day), "sow": .start(.week), "som": .start(.month), "soq": .start(.quarter), "soy": .start(.year),
        "monday": .next(.monday), "tuesday": .next(.tuesday), "wednesday": .next(.wednesday),
        "thursday": .next(.thursday), "friday": .next(.friday), "saturday": .next(.saturday), "sunday": .next(.sunday),
        "mon": .next(.monday), "tue": .next(.tuesday), "wed": .next(.wednesday), "thu": .next(.thursday),
        "fri": .next(.friday), "sat": .next(.saturday), "sun": .next(.sunday),
        "jan": .month(1), "feb": .month(2), "mar": .month(3), "apr": .month(4), "may": .month(5), "jun": .month(6),
        "jul": .month(7), "aug": .month(8), "sep": .month(9), "oct": .month(10), "nov": .month(11), "dec": .month(12),
        "january": .month(1), "february": .month(2), "march": .month(3), "april": .month(4), "june": .month(6),
        "july": .month(7), "august": .month(8), "september": .month(9), "october": .month(10), "november": .month(11),
        "december": .month(12),
    ]

    /// The largest N of `+N…` and `N…`: enough for any plan (`+9999d` is 27 years), small
    /// enough that no step can leave the calendar's range.
    public static let largestCount = 99_999

    /// The DATE `text` states, read in `language` (whose words for today, tomorrow and the
    /// days of the week are understood besides the English ones). Letters may be of any
    /// case; `amanhã` and `mañana` match however their accent is encoded (one character,
    /// or `n`/`a` and U+0303), as Swift compares strings by canonical equivalence. A day
    /// and a time of day are two words with one space between (`friday 9am`).
    public static func parse(_ text: String, language: DateLanguage) throws(DateError) -> DateExpression {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return try word(text, text: text, language: language) }
        guard !parts[0].isEmpty, let time = try timeOfDay(parts[1].lowercased(), text: text, language: language) else {
            throw .unrecognized(text, language)
        }
        let day = try word(String(parts[0]), text: text, language: language)
        guard day.namesADay else { throw .unrecognized(text, language) }
        return .at(day, hour: time.hour, minute: time.minute)
    }

    /// One word of a DATE; errors name the whole `text`.
    private static func word(_ word: String, text: String, language: DateLanguage) throws(DateError) -> DateExpression {
        let lowered = word.lowercased()
        if let expression = words[lowered] ?? language.words[lowered] { return expression }
        if let time = try timeOfDay(lowered, text: text, language: language) {
            return .at(.today, hour: time.hour, minute: time.minute)
        }
        if let day = try dayOfMonth(lowered, text: text, language: language) { return .dayOfMonth(day) }
        var scanner = DigitScanner(lowered)
        let plus = scanner.take("+")
        let count = scanner.skipDigits()
        if count > 0, scanner.count == count + (plus ? 2 : 1) {
            return try fromToday(lowered, digits: count, text: text, language: language)
        }
        scanner = DigitScanner(lowered)
        if scanner.digits(8) != nil, scanner.take("t") { return try instant(word, text: text, language: language) }
        return try isoDate(word, text: text, language: language)
    }

    /// `+Nd` or `Nd` (and `w`, `m`, `y`), N of `digits` digits.
    private static func fromToday(_ word: String, digits: Int, text: String, language: DateLanguage) throws(DateError)
        -> DateExpression
    {
        let units: [UInt8: Zone.Unit] = [
            UInt8(ascii: "d"): .days, UInt8(ascii: "w"): .weeks, UInt8(ascii: "m"): .months, UInt8(ascii: "y"): .years,
        ]
        guard let last = word.utf8.last, let unit = units[last] else { throw .unrecognized(text, language) }
        let number = word.utf8.dropLast().drop { $0 == UInt8(ascii: "+") }
        guard digits <= 5, let count = Int(String(decoding: number, as: UTF8.self)), count <= largestCount else {
            throw .outOfRange(text, language)
        }
        return .fromToday(count, unit)
    }

    /// Whether `word` has a time of day's form (`9am`, `17:30`, and `13pm`, which is
    /// then refused as no time): what may follow a date after one space.
    public static func isTimeOfDay(_ word: String) -> Bool {
        do {
            return try timeOfDay(word.lowercased(), text: word, language: .en) != nil
        } catch {
            return true
        }
    }

    /// `9am`, `12pm`, `9:30am`, `17:30`: the hour and minute, `nil` when `word` has no
    /// time's form, and an error when it has one but names no time (`13pm`, `25:00`).
    static func timeOfDay(_ word: String, text: String, language: DateLanguage) throws(DateError) -> (hour: Int, minute: Int)? {
        var rest = Substring(word)
        var half: Int?
        if rest.hasSuffix("am") || rest.hasSuffix("pm") {
            half = rest.hasSuffix("pm") ? 12 : 0
            rest = rest.dropLast(2)
        }
        let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
        let isNumber = { (field: Substring) in !field.isEmpty && field.utf8.allSatisfy { (48...57).contains($0) } }
        guard fields.count == 2 || (fields.count == 1 && half != nil), (1...2).contains(fields[0].count),
            isNumber(fields[0]), fields.count == 1 || (fields[1].count == 2 && isNumber(fields[1]))
        else { return nil }
        let hour = Int(fields[0])!
        let minute = fields.count == 2 ? Int(fields[1])! : 0
        guard minute < 60 else { throw .invalidDate(text, language) }
        if let half {
            guard (1...12).contains(hour) else { throw .invalidDate(text, language) }
            return (hour % 12 + half, minute)
        }
        guard hour < 24 else { throw .invalidDate(text, language) }
        return (hour, minute)
    }

    /// `1st`, `2nd`, `3rd`, `4th` … `31st`: the day, `nil` when `word` has no such form
    /// (the suffix must be the number's own: `2th` is none), an error past 31 or at 0.
    private static func dayOfMonth(_ word: String, text: String, language: DateLanguage) throws(DateError) -> Int? {
        guard word.utf8.count >= 3, word.utf8.count <= 4 else { return nil }
        let digits = word.dropLast(2)
        guard digits.utf8.allSatisfy({ (48...57).contains($0) }), let day = Int(digits) else { return nil }
        let suffix: String
        switch (day % 10, day % 100) {
        case (1, let tens) where tens != 11: suffix = "st"
        case (2, let tens) where tens != 12: suffix = "nd"
        case (3, let tens) where tens != 13: suffix = "rd"
        default: suffix = "th"
        }
        guard word.hasSuffix(suffix) else { return nil }
        guard (1...31).contains(day) else { throw .invalidDate(text, language) }
        return day
    }

    /// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS`, each in local time, and
    /// any of them with seconds and `Z` or an offset (an instant).
    private static func isoDate(_ word: String, text: String, language: DateLanguage) throws(DateError) -> DateExpression {
        var scanner = DigitScanner(word.lowercased())
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2)
        else { throw .unrecognized(text, language) }
        if scanner.atEnd {
            guard year >= 1, let date = CivilDate(year: year, month: month, day: day) else { throw .invalidDate(text, language) }
            return .date(date)
        }
        guard scanner.take("t"), let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2) else {
            throw .unrecognized(text, language)
        }
        var second = 0
        if !scanner.atEnd {
            guard scanner.take(":"), let seconds = scanner.digits(2), scanner.atEnd else {
                return try instant(word, text: text, language: language)
            }
            second = seconds
        }
        guard year >= 1, let dateTime = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { throw .invalidDate(text, language) }
        return .dateTime(dateTime)
    }

    /// An ISO 8601 instant with `Z` or an offset, extended or compact.
    private static func instant(_ word: String, text: String, language: DateLanguage) throws(DateError) -> DateExpression {
        do {
            return .instant(try Instant.parse(iso8601: word))
        } catch .instantOutOfRange {
            throw .invalidDate(text, language)
        } catch {
            throw .unrecognized(text, language)
        }
    }
}
