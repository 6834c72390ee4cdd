import NavStackCore
import NavStackSync
import NavStackTime

/// Reads todo.txt (todotxt/todo.txt's format): one task a line.
///
/// `x` starts a task done, then its completion date and its creation date; an open task
/// may start with its priority, `(A)`, then its creation date. `(A)`, `(B)` and `(C)` are
/// priorities `H`, `M` and `L`; another letter is kept as the custom field `pri`, as is
/// a done task's `pri:X`. `due:DATE`, `t:DATE` (the threshold) and `rec:RULE` are the due
/// date, `wait` and the rule; every other `key:value` is a custom field, out of the title.
/// `+project` and `@context` words stay in the title, where they came from, and each is
/// a tag too (its word without the sign). Dates are days in the local time zone.
///
/// A line has no identity of its own: its uuid is derived from its text (and how many
/// times the same text came before it), so importing the same file twice changes nothing
/// the second time, and a line changed since is a new task.
public enum TodoTxtReader {
    public static func read(_ data: [UInt8], source: String, zone: Zone) throws(ImportError) -> [TaskwarriorRecord] {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var records: [TaskwarriorRecord] = []
        var seen: [String: Int] = [:]
        var number = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw .badLine(number: number, .notJSON(.invalidUTF8(at: 0)))
            }
            guard !text.allSatisfy(\.isWhitespace) else { continue }
            if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
                throw .badLine(number: number, .controlCharacter(.title, control))
            }
            let occurrence = seen[text, default: 0]
            seen[text] = occurrence + 1
            do throws(ImportError.Problem) {
                records.append(try record(text, occurrence: occurrence, zone: zone))
            } catch {
                throw .badLine(number: number, error.record)
            }
        }
        guard !records.isEmpty else { throw .empty(source: source) }
        return records
    }

    /// One line's task.
    static func record(_ line: String, occurrence: Int, zone: Zone) throws(ImportError.Problem) -> TaskwarriorRecord {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)[...]
        var fields = DraftFields()
        var stamps = TaskStamps()
        func day(_ word: String?) -> Instant? {
            guard let word, let date = CivilDate(isoText: word) else { return nil }
            return zone.instant(CivilDateTime(midnightOf: date))
        }
        var letter: Character?
        if words.first == "x" {
            fields.done = true
            words = words.dropFirst()
            if let completed = day(words.first) {
                stamps.completed = completed
                words = words.dropFirst()
                if let created = day(words.first) {
                    stamps.created = created
                    words = words.dropFirst()
                }
            }
        } else {
            if let first = words.first, first.count == 3, first.first == "(", first.last == ")",
                let middle = first.dropFirst().first, ("A"..."Z").contains(middle)
            {
                letter = middle
                words = words.dropFirst()
            }
            if let created = day(words.first) {
                stamps.created = created
                words = words.dropFirst()
            }
        }
        var title: [String] = []
        var tags: [String] = []
        for word in words {
            if word.count > 1, word.first == "+" || word.first == "@" {
                let tag = String(word.dropFirst())
                if TaskWords.isTag(tag) { tags.append(tag) }
                title.append(word)
                continue
            }
            if let colon = word.firstIndex(of: ":"), colon != word.startIndex, word.index(after: colon) != word.endIndex,
                !word[word.index(after: colon)...].hasPrefix("//"), !word[..<colon].contains(where: { $0 == "/" || $0 == ":" })
            {
                let key = String(word[..<colon])
                let value = String(word[word.index(after: colon)...])
                switch key {
                case "due":
                    guard let due = day(value) else { throw ImportError.Problem(.badValue(key: key, expected: "YYYY-MM-DD")) }
                    fields.due = due
                case "t":
                    guard let wait = day(value) else { throw ImportError.Problem(.badValue(key: key, expected: "YYYY-MM-DD")) }
                    fields.wait = wait
                case "rec" where RecurRule.normalized(value.hasPrefix("+") ? String(value.dropFirst()) : value) != nil:
                    fields.recur = RecurRule.normalized(value.hasPrefix("+") ? String(value.dropFirst()) : value)
                case "pri" where fields.done && value.count == 1:
                    letter = value.first
                default:
                    fields.custom.append(CustomField(name: key, value: value))
                }
                continue
            }
            title.append(word)
        }
        switch letter {
        case "A"?: fields.priority = .high
        case "B"?: fields.priority = .medium
        case "C"?: fields.priority = .low
        case let other?: fields.custom.append(CustomField(name: "pri", value: String(other)))
        case nil: break
        }
        fields.title = title.joined(separator: " ")
        guard !fields.title.isBlank else { throw ImportError.Problem(.blankTitle) }
        guard fields.title.count <= Limits.titleCharacters else {
            throw ImportError.Problem(.tooLong(.title, count: fields.title.count, limit: Limits.titleCharacters))
        }
        var seenTags: Set<String> = []
        fields.tags = tags.filter { seenTags.insert($0.lowercased()).inserted }
        let name = "todo.txt\n" + line + (occurrence > 0 ? "\n\(occurrence)" : "")
        return TaskwarriorRecord(uuid: lineUUID(name), fields: fields, stamps: stamps, status: fields.done ? .done : .open)
    }

    /// A version-8 uuid of a line's text (RFC 9562's SHA-256 name-based form).
    static func lineUUID(_ name: String) -> String {
        SQLiteStore.version8UUID(Array(SHA256.hash(Array(name.utf8)).prefix(16)))
    }
}

extension ImportError {
    /// A record's problem as a thrown error, before its line is known.
    struct Problem: Error {
        var record: Record

        init(_ record: Record) {
            self.record = record
        }
    }
}
