import NavStackBytes

/// An instant as text: ISO 8601 in UTC as JSON shows it (`2026-12-01T00:00:00Z`), and
/// Taskwarrior's compact form (`20261201T000000Z`), which its exports use.
extension Instant {
    /// The extended form in UTC, `2026-12-01T00:00:00Z`: what JSON and the files hold.
    /// Years outside 0000–9999 are written with as many digits as they need (and a `-`
    /// before zero), which ``init(iso8601:)`` does not read back.
    public var iso8601: String {
        let t = CivilDateTime(wallSeconds: secondsSinceEpoch)
        guard (0...9999).contains(t.date.year) else {
            return "\(t.date.isoText)T\(twoDigits(t.hour)):\(twoDigits(t.minute)):\(twoDigits(t.second))Z"
        }
        // The usual years, digit by digit: JSON writes several a change.
        return String(capacity: 20) { text in
            text.appendDate(t.date)
            text.append(UInt8(ascii: "T"))
            text.appendDigits(t.hour, count: 2)
            text.append(UInt8(ascii: ":"))
            text.appendDigits(t.minute, count: 2)
            text.append(UInt8(ascii: ":"))
            text.appendDigits(t.second, count: 2)
            text.append(UInt8(ascii: "Z"))
        }
    }

    /// Taskwarrior's compact form in UTC, `20261201T000000Z`.
    public var compactISO8601: String {
        let t = CivilDateTime(wallSeconds: secondsSinceEpoch)
        return "\(fourDigits(t.date.year))\(twoDigits(t.date.month))\(twoDigits(t.date.day))"
            + "T\(twoDigits(t.hour))\(twoDigits(t.minute))\(twoDigits(t.second))Z"
    }

    /// The instant an ISO 8601 text names, or nil; ``parse(iso8601:)`` says what was wrong.
    public init?(iso8601 text: String) {
        guard let instant = try? Self.parse(iso8601: text) else { return nil }
        self = instant
    }

    /// Reads an instant in one of the forms programs write:
    ///
    /// - extended: `2026-11-27T09:00:00Z`, with fractional seconds (`09:00:00.250Z`,
    ///   dropped: instants are whole seconds) and an offset instead of `Z` (`+01:00`,
    ///   `-0330`, `+05`);
    /// - compact, as Taskwarrior exports: `20261201T000000Z` (an offset may follow
    ///   instead of `Z`, as above).
    ///
    /// `T` and `Z` may be lower case (RFC 3339 allows it). A text without `Z` or an offset
    /// is refused: it names no instant until a zone is chosen, and that is the DATE
    /// parser's work (``DateExpression``), not this one's.
    public static func parse(iso8601 text: String) throws(DateError) -> Instant {
        var scanner = DigitScanner(text)
        let year: Int
        let month: Int
        let day: Int
        let hour: Int
        let minute: Int
        let second: Int
        if scanner.count >= 9, scanner.byte(at: 4) == UInt8(ascii: "-") {
            guard let y = scanner.digits(4), scanner.take("-"), let mo = scanner.digits(2), scanner.take("-"),
                let d = scanner.digits(2), scanner.take("T") || scanner.take("t"),
                let h = scanner.digits(2), scanner.take(":"), let mi = scanner.digits(2), scanner.take(":"),
                let s = scanner.digits(2)
            else { throw .notAnInstant(text) }
            (year, month, day, hour, minute, second) = (y, mo, d, h, mi, s)
            if scanner.take(".") || scanner.take(",") {
                guard scanner.skipDigits() > 0 else { throw .notAnInstant(text) }
            }
        } else {
            guard let y = scanner.digits(4), let mo = scanner.digits(2), let d = scanner.digits(2),
                scanner.take("T") || scanner.take("t"),
                let h = scanner.digits(2), let mi = scanner.digits(2), let s = scanner.digits(2)
            else { throw .notAnInstant(text) }
            (year, month, day, hour, minute, second) = (y, mo, d, h, mi, s)
        }
        let offset: Int
        if scanner.take("Z") || scanner.take("z") {
            offset = 0
        } else if let sign = scanner.takeSign() {
            guard let h = scanner.digits(2) else { throw .notAnInstant(text) }
            var m = 0
            if scanner.take(":") {
                guard let minutes = scanner.digits(2) else { throw .notAnInstant(text) }
                m = minutes
            } else if let minutes = scanner.digits(2) {
                m = minutes
            }
            guard h <= 23, m <= 59 else { throw .instantOutOfRange(text) }
            offset = sign * (h * 3600 + m * 60)
        } else {
            throw .notAnInstant(text)
        }
        guard scanner.atEnd else { throw .notAnInstant(text) }
        guard let civil = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw .instantOutOfRange(text)
        }
        return Instant(secondsSinceEpoch: civil.wallSeconds - Int64(offset))
    }
}

extension CivilDate {
    /// `2026-12-01`: four digits of year at least, and a `-` before years below zero.
    public var isoText: String {
        guard (0...9999).contains(year) else { return "\(fourDigits(year))-\(twoDigits(month))-\(twoDigits(day))" }
        return String(capacity: 10) { $0.appendDate(self) }
    }

    /// Reads `2026-12-01` back: exactly four digits of year, two of month and of day, a
    /// day that exists; `nil` otherwise.
    public init?(isoText text: some StringProtocol) {
        var scanner = DigitScanner(String(text))
        guard scanner.count == 10, let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2),
            scanner.take("-"), let day = scanner.digits(2)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }
}

extension ByteWriter {
    /// Writes a date of the years 0000–9999 as `2026-12-01` (10 bytes).
    mutating func appendDate(_ date: CivilDate) {
        appendDigits(date.year, count: 4)
        append(UInt8(ascii: "-"))
        appendDigits(date.month, count: 2)
        append(UInt8(ascii: "-"))
        appendDigits(date.day, count: 2)
    }
}

func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

func fourDigits(_ value: Int) -> String {
    if value < 0 { return "-" + fourDigits(-value) }
    let text = "\(value)"
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
}

extension CivilDateTime {
    /// `2026-12-01` at midnight, else `2026-12-01T09:30` (with `:SS` when the seconds
    /// are not zero): the shortest ISO 8601 form that keeps it.
    public var shortISOText: String {
        guard hour != 0 || minute != 0 || second != 0 else { return date.isoText }
        return "\(date.isoText)T\(twoDigits(hour)):\(twoDigits(minute))" + (second != 0 ? ":\(twoDigits(second))" : "")
    }

    /// Reads ``shortISOText`` back: `2026-12-01` (midnight), `2026-12-01T09:30` or
    /// `2026-12-01T09:30:15`; `nil` for anything else or a time that is not one.
    public init?(shortISOText text: some StringProtocol) {
        guard let date = CivilDate(isoText: text.prefix(10)) else { return nil }
        guard text.count > 10 else {
            self.init(midnightOf: date)
            return
        }
        var scanner = DigitScanner(String(text.dropFirst(10)))
        guard scanner.take("T"), let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2) else { return nil }
        var second = 0
        if scanner.take(":") {
            guard let value = scanner.digits(2) else { return nil }
            second = value
        }
        guard scanner.atEnd else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: second)
    }
}

/// Reads ASCII digits and marks from the front of a text, by byte: the forms read here
/// are all ASCII, and any other byte simply fails to match.
struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var count: Int { bytes.count }
    var atEnd: Bool { index == bytes.count }

    func byte(at position: Int) -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Exactly `count` digits as a number, or nil (and nothing taken).
    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
    }

    /// Takes every digit at the front; how many it took.
    mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    /// Takes `mark` when it is next.
    mutating func take(_ mark: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: mark) else { return false }
        index += 1
        return true
    }

    /// Takes a `+` (1) or `-` (-1) when one is next.
    mutating func takeSign() -> Int? {
        if take("+") { return 1 }
        if take("-") { return -1 }
        return nil
    }
}
