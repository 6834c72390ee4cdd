import NavStackCore
import NavStackTime

/// Reads todo.txt (todotxt/todo.txt's format): one task a line.
///
/// `x` starts a task done, then its completion date and its creation date; an open task
/// may start with its priority, `(A)`, then its creation date. `(A)`, `(B)` and `(C)` are
/// priorities `H`, `M` and `L`; another letter is kept as the custom field `pri`, as is
/// a done task's `pri:X`. `due:DATE`, `t:DATE` (the threshold) and `rec:RULE` are the due
/// date, `wait` and the rule; the keys ``TodoTxtWriter`` writes for navstack's own fields
/// are read back as them; every other `key:value` whose key starts with a letter is a
/// custom field, out of the title (a time, `10:30`, stays in it).
/// `+project` and `@context` words stay in the title, where they came from, and each is
/// a tag too (its word without the sign). Dates are days in the local time zone, or a day
/// and a time of it (`2026-12-01T09:30`).
///
/// A line without `uuid:` has no identity of its own: its uuid is derived from it (see
/// ``record(_:seen:zone:)``), so importing the same file twice changes nothing the second
/// time, and a line changed since is a new task.
public enum TodoTxtReader {
    public static func read(_ data: [UInt8], source: String, zone: Zone) throws(ImportError) -> [TaskwarriorRecord] {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var records: [TaskwarriorRecord] = []
        var seen: [String: Int] = [:]
        var uuids: Set<String> = []
        var number = 0
        // A line whose values ``FieldRules`` refuses is named, and reading goes on: the
        // import then fails with every such line (``BadRecords``).
        var bad = BadRecords()
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                bad.add(BadRecord(.line(number), .notJSON(.invalidUTF8(at: 0))))
                continue
            }
            guard !text.allSatisfy(\.isWhitespace) else { continue }
            if let control = text.unicodeScalars.first(where: { FieldRules.refuses($0, lines: false) }) {
                bad.add(BadRecord(.line(number), title: text, .value(.controlCharacter(.title, control))))
                continue
            }
            do throws(ImportError.Problem) {
                let record = try record(text, seen: &seen, zone: zone)
                let named = record.wins ? record.uuid : nil
                guard uuids.insert(record.uuid).inserted else {
                    throw ImportError.Problem(.duplicateUUID(record.uuid), uuid: named, title: record.fields.title)
                }
                if let problem = FieldRules.problem(in: record.fields) {
                    throw ImportError.Problem(.value(problem), uuid: named, title: record.fields.title)
                }
                records.append(record)
            } catch {
                bad.add(BadRecord(.line(number), uuid: error.uuid, title: error.title ?? text, error.record))
            }
        }
        try bad.check()
        guard !records.isEmpty else { throw .empty(source: source) }
        return records
    }

    /// One line's task.
    ///
    /// Without a `uuid:`, its uuid is derived from the line as ``TodoTxtWriter`` would
    /// write the task (and from how many lines before gave the same text), so a file
    /// navstack wrote comes back to the same tasks. A line navstack would write otherwise
    /// (its `key:value` words in another order, say) is kept whole in the custom field
    /// ``TodoTxtWriter/lineField``, so that it comes back as it was while the task is not
    /// changed.
    static func record(_ line: String, seen: inout [String: Int], zone: Zone) throws(ImportError.Problem) -> TaskwarriorRecord {
        var task = try parse(line, zone: zone)
        let canonical = TodoTxtWriter.line(task.fields, stamps: task.stamps, parentUUID: task.parentUUID, zone: zone)
        // A line without a creation date is kept too: the task gets the day it came in
        // as its own, which the line navstack writes would show. A line the value rules
        // would not take as a field (longer than a value holds, or a 201st field) is not
        // kept: the task is taken, and written anew.
        if canonical + (task.uuid.map { " uuid:" + $0 } ?? "") != line || task.stamps.created == nil {
            var kept = task.fields
            kept.custom.append(CustomField(name: TodoTxtWriter.lineField, value: line))
            if FieldRules.problem(in: task.fields) != nil || FieldRules.problem(in: kept) == nil { task.fields = kept }
        }
        let status: TaskwarriorRecord.Status = task.fields.done ? .done : .open
        guard let uuid = task.uuid else {
            let derived = derivedUUID(canonical, seen: &seen)
            return TaskwarriorRecord(uuid: derived, fields: task.fields, stamps: task.stamps, status: status, parentUUID: task.parentUUID)
        }
        return TaskwarriorRecord(
            uuid: uuid, fields: task.fields, stamps: task.stamps, status: status, parentUUID: task.parentUUID, wins: true)
    }

    /// What a line holds.
    struct Line {
        var fields: DraftFields
        var stamps: TaskStamps
        var parentUUID: String?
        /// The uuid its `uuid:` names.
        var uuid: String?
    }

    /// The fields of a line.
    static func parse(_ line: String, zone: Zone) throws(ImportError.Problem) -> Line {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)[...]
        var fields = DraftFields()
        var stamps = TaskStamps()
        func day(_ word: String?) -> Instant? {
            guard let word, let date = CivilDate(isoText: word) else { return nil }
            return zone.instant(CivilDateTime(midnightOf: date))
        }
        /// A day, or a day and a time of it (`2026-12-01T09:30`, seconds optional).
        func moment(_ key: String, _ word: String) throws(ImportError.Problem) -> Instant {
            guard let civil = CivilDateTime(shortISOText: word) else {
                throw ImportError.Problem(.badValue(key: key, expected: "YYYY-MM-DD"))
            }
            return zone.instant(civil)
        }
        var letter: Character?
        var parentUUID: String?
        var uuid: String?
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
            if let first = words.first, let middle = priorityLetter(first[...]) {
                letter = middle
                words = words.dropFirst()
            }
            if let created = day(words.first) {
                stamps.created = created
                words = words.dropFirst()
            }
        }
        // What the first word after the dates could have been read as: a `\` before
        // such a word says it is the title's (``TodoTxtWriter/escapedTitle(_:start:tags:)``).
        var start: TodoTxtWriter.LineStart =
            stamps.created != nil ? [] : fields.done || letter != nil ? [.date] : TodoTxtWriter.LineStart.lineStart
        var title: [String] = []
        var tags: [String] = []
        for word in words {
            defer { start = [] }
            if let escaped = TodoTxtWriter.unescaped(word[...], start: start) {
                title.append(String(escaped))
                continue
            }
            if word.count > 1, word.first == "+" || word.first == "@" {
                let tag = String(word.dropFirst())
                if FieldRules.isTag(tag) { tags.append(tag) }
                title.append(word)
                continue
            }
            if let pair = keyValue(word[...]), !isTitleWord(key: pair.key, value: pair.value) {
                let (key, value) = (String(pair.key), String(pair.value))
                switch key {
                case "due": fields.due = try moment(key, value)
                case "t": fields.wait = try moment(key, value)
                case "scheduled": fields.scheduled = try moment(key, value)
                case "until": fields.until = try moment(key, value)
                case "project" where FieldRules.isProject(value): fields.project = value
                case "depends" where value.split(separator: ",").allSatisfy({ String($0).isUUID }):
                    fields.depends = value.split(separator: ",").map { $0.lowercased() }
                case "notes":
                    fields.notes = TodoTxtWriter.decoded(value)
                case "ann":
                    let parts = value.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, let entry = Instant(iso8601: String(parts[0])) else {
                        throw ImportError.Problem(.badValue(key: key, expected: "YYYYMMDDTHHMMSSZ:TEXT"))
                    }
                    fields.annotations.append(Annotation(entry: entry, text: TodoTxtWriter.decoded(String(parts[1]))))
                case TaskwarriorWriter.parentAttribute where value.isUUID: parentUUID = value.lowercased()
                case "uuid" where value.isUUID: uuid = value.lowercased()
                case "rec" where RecurRule.normalized(value.hasPrefix("+") ? String(value.dropFirst()) : value) != nil:
                    fields.recur = RecurRule.normalized(value.hasPrefix("+") ? String(value.dropFirst()) : value)
                case "pri" where fields.done && value.count == 1:
                    letter = value.first
                default:
                    fields.custom.append(CustomField(name: key, value: TodoTxtWriter.decoded(value)))
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
        if let problem = FieldRules.problem(fields.title, as: .title) { throw ImportError.Problem(.value(problem)) }
        fields.tags = TaskWords.tagSet(tags)
        return Line(fields: fields, stamps: stamps, parentUUID: parentUUID, uuid: uuid)
    }

    /// A word's key and value when it is a `key:value`: a key starts with a letter and
    /// holds no `/` (`10:30`, `16:9` and `3:16` are words of the title), a value is not
    /// empty and does not start with `//` (a URL is a word of the title).
    static func keyValue(_ word: Substring) -> (key: Substring, value: Substring)? {
        guard let colon = word.firstIndex(of: ":"), word.first?.isLetter ?? false else { return nil }
        let value = word[word.index(after: colon)...]
        guard !value.isEmpty, !value.hasPrefix("//"), !word[..<colon].contains("/") else { return nil }
        return (word[..<colon], value)
    }

    /// Whether a `key:value` is a word of the title after all: one of navstack's own keys
    /// with a value that is not one (`uuid:x`), never a custom field of that name (which
    /// an export to Taskwarrior would write over the task's own attribute).
    static func isTitleWord(key: Substring, value: Substring) -> Bool {
        switch key {
        case "uuid", TaskwarriorWriter.parentAttribute: !String(value).isUUID
        case "project": !FieldRules.isProject(String(value))
        case "depends": !value.split(separator: ",").allSatisfy({ String($0).isUUID })
        default: false
        }
    }

    /// The letter of a priority word, `(A)` to `(Z)`.
    static func priorityLetter(_ word: Substring) -> Character? {
        guard word.count == 3, word.first == "(", word.last == ")", let middle = word.dropFirst().first, ("A"..."Z").contains(middle)
        else { return nil }
        return middle
    }

    /// The uuid of a line without `uuid:`: of its text and of how many lines before it
    /// had the same text.
    static func derivedUUID(_ line: String, seen: inout [String: Int]) -> String {
        let occurrence = seen[line, default: 0]
        seen[line] = occurrence + 1
        return derivedUUID(line, occurrence: occurrence)
    }

    /// The uuid of a line without `uuid:` that `occurrence` lines before it had the same text.
    static func derivedUUID(_ line: String, occurrence: Int) -> String {
        SQLiteStore.nameUUID("todo.txt\n" + line + (occurrence > 0 ? "\n\(occurrence)" : ""))
    }
}

extension ImportError {
    /// A record's problem as a thrown error, before its line is known.
    struct Problem: Error {
        var record: Record
        /// The uuid and title of the task, when they were read.
        var uuid: String?
        var title: String?

        init(_ record: Record, uuid: String? = nil, title: String? = nil) {
            self.record = record
            self.uuid = uuid
            self.title = title
        }
    }
}
