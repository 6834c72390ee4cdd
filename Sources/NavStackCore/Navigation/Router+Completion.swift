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
    /// that command's argument (tab names, row numbers, `on|off`, filters, deep links,
    /// `to` and the tasks `back to` and `move N to` take).
    public func completions(for textBeforeCursor: String) -> Completion {
        let leading = textBeforeCursor.drop(while: { $0 == " " || $0 == "\t" })
        guard let space = leading.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            let typed = String(leading)
            let kind = (try? screenKind()) ?? .login
            let words = availableWords(on: kind).map(\.rawValue)
            return Completion(typed: typed, candidates: words.filter { $0.hasPrefix(typed.lowercased()) })
        }
        let rest = leading[space...].drop(while: { $0 == " " || $0 == "\t" })
        guard let word = CommandWord(word: leading[..<space]) else {
            return Completion(typed: String(rest), candidates: [])
        }
        // The words of the argument before the one being typed.
        var before = rest.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let typed = rest.last == " " ? "" : (before.popLast() ?? "")
        let options = argumentCandidates(for: word, after: before, typed: typed)
        return Completion(typed: typed, candidates: options.filter { $0.hasPrefix(typed) })
    }

    /// The DATE words Tab offers: a few of each kind the parser takes.
    static let dateWords = [
        "today", "tomorrow", "monday", "friday", "eod", "eow", "eom", "eoq", "eoy", "sow", "som", "1st", "15th", "+1w", "3d",
        "9am", "someday",
    ]

    /// Every argument word a command could take here, after the words `before`.
    func argumentCandidates(for word: CommandWord, after before: [String] = [], typed: String = "") -> [String] {
        switch (word, before.count) {
        case (.tab, 0): return Tab.allCases.map(\.rawValue)
        case (.filter, _): return filterCandidates(typed: typed)
        case (.priority, 0): return Priority.allCases.map(\.rawValue) + ["none"]
        case (.sort, 0): return ListSort.words + ListSort.Key.allCases.map { "-" + $0.rawValue }
        case (.due, 0), (.scheduled, 0), (.wait, 0), (.until, 0): return Self.dateWords + ["none"]
        case (.day, 0): return Self.dateWords
        case (.recur, 0): return RecurRule.named + ["annual", "semiannual", "biannual", "bimonthly", "fortnight", "none"]
        case (.project, 0), (.tag, 0): return ["none"]
        case (.done, 0):
            let kind = (try? screenKind()) ?? .login
            return kind == .edit || kind == .newTask ? ["on", "off"] : shownRows().map { String($0.row) }
        case (.modify, 0): return shownRows().map { String($0.row) }
        case (.help, 0): return CommandWord.allCases.map(\.rawValue)
        case (.go, 0): return linkCandidates(typed: typed)
        case (.open, 0), (.toggle, 0), (.delete, 0), (.move, 0):
            return shownRows().map { String($0.row) }
        case (.move, 1): return ["to"]
        case (.move, 2) where before[1] == "to":
            // A task shown, or one on the path.
            var ids = shownRows().map { String($0.task.id) }
            ids += pathTaskIDs().map(String.init).filter { !ids.contains($0) }
            return ["top"] + ids
        case (.page, 0):
            guard let page = shownPage() else { return [] }
            return (1...min(page.pages, 100)).map(String.init)
        case (.back, 0), (.backDiscarding, 0):
            guard let depth = session?.depth, depth > 0 else { return [] }
            return (1...depth).map(String.init) + ["to"]
        case (.back, 1) where before[0] == "to", (.backDiscarding, 1) where before[0] == "to":
            return ["list"] + pathTaskIDs().reversed().map(String.init)
        default: return []
        }
    }

    /// A filter's words: the statuses and each term's start (``ListTerms/starts``); after
    /// a term's start, its values: the profile's tags after `+`, `-` and `tag:`, its
    /// projects after `project:` (those that start with what is typed, from the store's
    /// index), the dates and the words `due:` and its kin take.
    private func filterCandidates(typed: String) -> [String] {
        let dates = ["today", "tomorrow", "monday", "eow", "eom", "eoy", "+1w"]
        let starts: [(start: String, values: () -> [String])] = [
            ("+", { self.names(.tag, typed, after: "+") }), ("-", { self.names(.tag, typed, after: "-") }),
            ("tag:", { self.names(.tag, typed, after: "tag:") }), ("project:", { self.names(.project, typed, after: "project:") }),
            ("priority:", { Priority.allCases.map(\.rawValue) }), ("status:", { ListFilter.statusWords }),
            ("due:", { DueTerm.allCases.map(\.rawValue) + dates.dropFirst() }), ("due.before:", { dates }), ("due.after:", { dates }),
        ]
        for (start, values) in starts where typed.hasPrefix(start) {
            return values().map { start + $0 }
        }
        return ListTerms.starts
    }

    /// The profile's tag or project names that start with what is typed after `start`.
    private func names(_ kind: NameKind, _ typed: String, after start: String) -> [String] {
        guard let session else { return [] }
        let prefix = String(typed.dropFirst(start.count))
        return (try? store.names(session.user, kind, prefix: prefix, limit: 100)) ?? []
    }

    /// The page of the list, or of the subtasks, the screen shows now.
    private func shownPage() -> ListPage? {
        switch try? screen().content {
        case .list(let page)?, .detail(_, let page)?, .day(_, let page)?: page
        default: nil
        }
    }

    /// The rows of the list, of the subtasks, of the agenda or of the day shown.
    private func shownRows() -> [ListRow] {
        if case .agenda(let agenda)? = try? screen().content { return agenda.sections.flatMap(\.rows) }
        return shownPage()?.rows ?? []
    }

    /// The tasks whose detail screens are on the path of the tab shown.
    private func pathTaskIDs() -> [Int] {
        session?.path.compactMap { if case .detail(let id) = $0 { id } else { nil } } ?? []
    }

    /// The deep links that open now: the fixed screens, the tasks of the page shown and
    /// the chain open; after `tasks/1/4/`, the subtasks of task 4 (their first page).
    private func linkCandidates(typed: String) -> [String] {
        var links = [DeepLink.tasks, .newTask, .agenda(page: 1), .account, .settings, .about].map(\.path)
        guard let session else { return links }
        let chain = session.tasksPath.compactMap { if case .detail(let id) = $0 { id } else { nil } }
        if !chain.isEmpty {
            links += [DeepLink.detail(chain: chain, page: 1), .edit(chain: chain), .sheet(under: chain)].map(\.path)
        }
        // The list's page, wherever it is shown from, and the subtasks shown.
        var rows = (try? listPage(of: session).rows) ?? []
        if case .detail(_, let page)? = try? screen().content { rows += page.rows }
        for row in rows {
            let rowChain = row.task.parent == chain.last && row.task.parent != nil ? chain + [row.task.id] : [row.task.id]
            links += [DeepLink.detail(chain: rowChain, page: 1), .edit(chain: rowChain)].map(\.path)
        }
        // `tasks/1/4/`: what comes after task 4.
        if typed.hasPrefix("tasks/"), typed.hasSuffix("/"),
            case .detail(let typedChain, _)? = try? DeepLink(parsing: String(typed.dropLast())),
            let id = typedChain.last
        {
            let subtasks = (try? store.page(session.user, .subtasks(of: id), offset: 0, limit: 100)) ?? []
            links += subtasks.map { DeepLink.detail(chain: typedChain + [$0.id], page: 1).path }
            links += [DeepLink.edit(chain: typedChain), .sheet(under: typedChain)].map(\.path)
        }
        var seen = Set<String>()
        return links.filter { seen.insert($0).inserted }
    }
}
