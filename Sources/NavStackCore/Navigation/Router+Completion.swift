/// What Tab completes: the word being typed and what it could become.
public struct Completion: Equatable, Sendable {
    /// The part of the word already typed.
    public var typed: String
    /// Whole words that start with `typed`, sorted as they are offered.
    public var candidates: [String]

    public init(typed: String, candidates: [String]) {
        self.typed = typed
        self.candidates = candidates
    }

    /// The longest text every candidate starts with.
    public var commonPrefix: String {
        guard var prefix = candidates.first else { return typed }
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

extension Router {
    /// Completes the word before the cursor: a command available on this screen, or
    /// that command's argument (tab names, row numbers, `on|off`, filters, deep links).
    public func completions(for textBeforeCursor: String) -> Completion {
        let leading = textBeforeCursor.drop(while: { $0 == " " || $0 == "\t" })
        guard let space = leading.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            let typed = String(leading)
            let kind = (try? screenKind()) ?? .login
            let words = availableWords(on: kind).map(\.rawValue)
            return Completion(typed: typed, candidates: words.filter { $0.hasPrefix(typed.lowercased()) })
        }
        let rest = leading[space...].drop(while: { $0 == " " || $0 == "\t" })
        guard !rest.contains(" "), let word = CommandWord(word: leading[..<space]) else {
            return Completion(typed: String(rest), candidates: [])
        }
        let typed = String(rest)
        let options = argumentCandidates(for: word)
        return Completion(typed: typed, candidates: options.filter { $0.hasPrefix(typed) })
    }

    /// Every argument a command could take here.
    func argumentCandidates(for word: CommandWord) -> [String] {
        switch word {
        case .tab: return Tab.allCases.map(\.rawValue)
        case .filter: return ListFilter.allCases.map(\.rawValue)
        case .done: return ["on", "off"]
        case .help: return CommandWord.allCases.map(\.rawValue)
        case .go: return linkCandidates()
        case .open, .toggle, .delete:
            guard let screen = try? screen(), case .list(let page) = screen.content else { return [] }
            return page.rows.map { String($0.row) }
        case .page:
            guard let screen = try? screen(), case .list(let page) = screen.content else { return [] }
            return (1...min(page.pages, 100)).map(String.init)
        case .back, .backDiscarding:
            guard let depth = session?.depth, depth > 0 else { return [] }
            return (1...depth).map(String.init)
        default: return []
        }
    }

    /// The deep links that open now: the fixed screens and the tasks of the list page.
    private func linkCandidates() -> [String] {
        var links = [DeepLink.tasks, .newTask, .account, .settings, .about].map(\.path)
        if let session, let screenPage = try? listPage(of: session) {
            for row in screenPage.rows {
                links.append(DeepLink.task(row.task.id).path)
                links.append(DeepLink.editTask(row.task.id).path)
            }
        }
        return links
    }
}
