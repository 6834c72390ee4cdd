import NavStackTime

/// `add TITLE` with Taskwarrior's attributes among its words: `due:DATE`,
/// `scheduled:DATE`, `wait:DATE`, `until:DATE`, `recur:RULE`, `priority:H` (`pri:`),
/// `project:NAME` (`pro:`), `+TAG`; a word that starts with `\` is the rest of it,
/// literally (`\+1`). A time of day right after a date is part of it (`due:friday 9am`).
public enum AddLine {
    /// The fields of the task `add` makes from its words. A line with no attribute keeps
    /// its title exactly as typed; one with some has its other words joined by one space.
    public static func fields(_ line: String, clock: TaskClock, language: Language) throws(NavError) -> DraftFields {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard words.contains(where: { isAttribute($0) || $0.first == "\\" }) else { return DraftFields(title: line) }
        var fields = DraftFields()
        var title: [Substring] = []
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            if word.first == "\\", word.count > 1, isAttribute(word.dropFirst()) {
                title.append(word.dropFirst())
                continue
            }
            guard isAttribute(word) else {
                title.append(word)
                continue
            }
            if word.first == "+" {
                fields.tags = TaskWords.tagSet(fields.tags + [String(word.dropFirst())])
                continue
            }
            let (name, value) = parts(word)
            try set(name, withTime(value, of: name, from: words, at: &index), in: &fields, clock: clock, language: language)
        }
        fields.title = title.joined(separator: " ")
        if let problem = FieldRules.problem(fields[.tags], as: .tags) { throw .badValue(problem) }
        return fields
    }

    static let names: Set<String> = ["due", "scheduled", "wait", "until", "recur", "priority", "pri", "project", "pro"]

    /// `+TAG`, or `NAME:VALUE` with one of the attributes' names.
    static func isAttribute(_ word: Substring) -> Bool {
        if word.first == "+" { return FieldRules.isTag(String(word.dropFirst())) }
        guard let colon = word.firstIndex(of: ":") else { return false }
        return names.contains(word[..<colon].lowercased())
    }

    /// A date attribute's value with the time of day typed after it (`due:friday 9am`),
    /// that word then taken; any other value as it is.
    static func withTime(_ value: String, of name: String, from words: [Substring], at index: inout Int) -> String {
        guard ["due", "scheduled", "wait", "until"].contains(name), !value.isEmpty, index < words.endIndex,
            DateExpression.isTimeOfDay(String(words[index]))
        else { return value }
        index += 1
        return value + " " + words[index - 1]
    }

    /// An attribute word's name (lowercased) and value.
    static func parts(_ word: Substring) -> (name: String, value: String) {
        let colon = word.firstIndex(of: ":")!
        return (word[..<colon].lowercased(), String(word[word.index(after: colon)...]))
    }

    /// The field an attribute's name (one of ``names``) stands for.
    static func field(named name: String) -> TaskField {
        switch name {
        case "due": .due
        case "scheduled": .scheduled
        case "wait": .wait
        case "until": .until
        case "recur": .recur
        case "priority", "pri": .priority
        default: .project
        }
    }

    /// Sets the field an attribute names (one of ``names``) to the value typed; returns it.
    @discardableResult
    static func set(
        _ name: String, _ value: String, in fields: inout DraftFields, clock: TaskClock, language: Language
    ) throws(NavError) -> TaskField {
        let field = field(named: name)
        switch field {
        case .recur:
            guard let rule = RecurRule.normalized(value) else { throw .badRule(value.escapedForDisplay) }
            fields.recur = rule
        case .priority:
            guard let priority = Priority(letter: value) else { throw .badPriority(value.escapedForDisplay) }
            fields.priority = priority
        case .project:
            guard FieldRules.isProject(value) else { throw .badProject(value.escapedForDisplay) }
            fields.project = value
        default:
            fields[field] = .instant(try clock.instant(typed: value, language: language))
        }
        return field
    }
}

/// `modify WORDS…`: `add`'s words applied to a task that exists. An attribute sets its
/// field, `ATTR:` with nothing after the colon clears it, `+TAG` adds a tag and `-TAG`
/// removes one, a word that starts with `\` is the rest of it, literally; the other words,
/// when there are any, are the new title.
public enum ModifyLine {
    /// Changes `fields` as the words say; returns the fields they name, in their order.
    /// A line that names nothing is refused.
    public static func apply(
        _ line: String, to fields: inout DraftFields, clock: TaskClock, language: Language
    ) throws(NavError) -> [TaskField] {
        var changed: [TaskField] = []
        var title: [Substring] = []
        func note(_ field: TaskField) {
            if !changed.contains(field) { changed.append(field) }
        }
        let words = line.split(whereSeparator: \.isWhitespace)
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            if word.first == "\\", word.count > 1 {
                title.append(word.dropFirst())
                continue
            }
            if word.count > 1, word.first == "+" || word.first == "-", FieldRules.isTag(String(word.dropFirst())) {
                let tag = String(word.dropFirst())
                if word.first == "+" {
                    fields.tags = TaskWords.tagSet(fields.tags + [tag])
                } else {
                    fields.tags = fields.tags.filter { $0.lowercased() != tag.lowercased() }
                }
                note(.tags)
                continue
            }
            guard AddLine.isAttribute(word) else {
                title.append(word)
                continue
            }
            let (name, value) = AddLine.parts(word)
            if value.isEmpty {
                note(clear(name, in: &fields))
            } else {
                let value = AddLine.withTime(value, of: name, from: words, at: &index)
                note(try AddLine.set(name, value, in: &fields, clock: clock, language: language))
            }
        }
        if !title.isEmpty {
            fields.title = title.joined(separator: " ")
            note(.title)
        }
        guard !changed.isEmpty else { throw .modifyNeedsWords }
        if let problem = FieldRules.problem(fields[.tags], as: .tags) ?? FieldRules.problem(fields.title, as: .title) {
            throw .badValue(problem)
        }
        if let problem = Recurrence.problem(with: fields) { throw problem }
        return changed
    }

    /// Clears the field an attribute names; returns it.
    static func clear(_ name: String, in fields: inout DraftFields) -> TaskField {
        let field = AddLine.field(named: name)
        switch field {
        case .due, .scheduled, .wait, .until: fields[field] = .instant(nil)
        default: fields[field] = .name(nil)
        }
        return field
    }
}

extension DraftFields {
    /// The fields with an annotation of `text` added at `now`, the one way every door
    /// annotates: a blank text is missing, and a text or a count ``FieldRules`` refuses is
    /// refused.
    public func annotated(_ text: String, at now: Instant) throws(NavError) -> DraftFields {
        guard !text.isBlank else { throw .missingArgument(.annotate) }
        if let problem = FieldRules.problem(text, as: .annotation) { throw .badValue(problem) }
        var fields = self
        fields.annotations.append(Annotation(entry: now, text: text))
        if let problem = FieldRules.problem(fields[.annotations], as: .annotations) { throw .badValue(problem) }
        return fields
    }
}
