/// What `tag` does to a draft's tags.
public enum TagChange: Equatable, Hashable, Sendable {
    /// `tag none`.
    case clear
    /// `tag +a -b …`: adds and removes, in the order typed.
    case change([(add: Bool, name: String)])

    public static func == (lhs: TagChange, rhs: TagChange) -> Bool {
        switch (lhs, rhs) {
        case (.clear, .clear): true
        case (.change(let a), .change(let b)): a.elementsEqual(b) { $0.add == $1.add && $0.name == $1.name }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .clear: hasher.combine(0)
        case .change(let steps):
            for step in steps {
                hasher.combine(step.add)
                hasher.combine(step.name)
            }
        }
    }

    /// `none`, or words each `+NAME` or `-NAME`.
    public init(parsing text: String) throws(NavError) {
        if text.lowercased() == "none" {
            self = .clear
            return
        }
        var steps: [(add: Bool, name: String)] = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            let name = String(word.dropFirst())
            guard let sign = word.first, sign == "+" || sign == "-", FieldRules.isTag(name) else {
                throw .badTag(String(word).escapedForDisplay)
            }
            steps.append((sign == "+", name))
        }
        self = .change(steps)
    }

    /// The tags after this change.
    public func applied(to tags: [String]) -> [String] {
        guard case .change(let steps) = self else { return [] }
        var result = tags
        for step in steps {
            result.removeAll { $0.lowercased() == step.name.lowercased() }
            if step.add { result.append(step.name) }
        }
        return TaskWords.tagSet(result)
    }
}
