extension FieldRules {
    /// What is wrong with a value of `field`, if anything (its shape was checked as it
    /// was read): each item of a list, and how many there are.
    public static func problem(_ value: FieldValue, as field: TaskField) -> FieldProblem? {
        switch value {
        case .text(let text):
            return field == .title || field == .notes ? problem(text, as: field == .title ? .title : .notes) : nil
        case .name(let name?):
            switch field {
            case .priority: return Priority(rawValue: name) == nil ? .badWord(field, name) : nil
            case .project: return isProject(name) ? nil : .badWord(field, name)
            default: return RecurRule.normalized(name) == name ? nil : .badWord(field, name)
            }
        case .words(let words):
            if words.count > itemsPerTask { return .tooManyItems(field, count: words.count, limit: itemsPerTask) }
            let bad = field == .tags ? words.first { !isTag($0) } : words.first { !isTaskID($0) }
            return bad.map { .badWord(field, $0) }
        case .annotations(let list):
            if list.count > itemsPerTask { return .tooManyItems(field, count: list.count, limit: itemsPerTask) }
            for annotation in list {
                if let problem = problem(annotation.text, as: .annotation) { return problem }
            }
            return nil
        case .custom(let list):
            if list.count > itemsPerTask { return .tooManyItems(field, count: list.count, limit: itemsPerTask) }
            for item in list {
                if let problem = problem(item.name, as: .customName) ?? problem(item.value, as: .customValue) { return problem }
            }
            return nil
        case .flag, .instant, .name(nil):
            return nil
        }
    }

    /// Whether a value of `field` is one a task may hold.
    public static func takes(_ value: FieldValue, as field: TaskField) -> Bool {
        problem(value, as: field) == nil
    }

    /// The first thing wrong with a task's values, field by field in their order, if
    /// anything: what every import asks of a record it read.
    public static func problem(in fields: DraftFields) -> FieldProblem? {
        if let problem = problem(fields.title, as: .title) ?? problem(fields.notes, as: .notes) { return problem }
        for field in TaskField.allCases.dropFirst(3) {
            if let problem = problem(fields[field], as: field) { return problem }
        }
        return nil
    }
}
