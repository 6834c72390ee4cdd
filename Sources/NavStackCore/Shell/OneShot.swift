/// A change the shell makes in one command (`navstack add Buy bread`, `navstack done 42`):
/// it acts on one profile's tasks through the store alone, and neither reads nor moves
/// the place the profile's sessions keep (paths, filters, pages, drafts).
///
/// What it did comes back as one line each, in the catalog's words, and as JSON objects
/// (the tasks as they are after, or what `undo` and `redo` changed).
public struct OneShot: Equatable, Sendable {
    public enum Verb: String, CaseIterable, Sendable {
        case add, done, modify, annotate, delete, undo, redo
    }

    /// What a one-shot command did.
    public struct Report: Equatable, Sendable {
        /// One line per thing done.
        public var lines: [String] = []
        /// One JSON object per thing done.
        public var objects: [String] = []
    }

    public var verb: Verb
    /// The words after the verb, as the shell passed them.
    public var words: [String]

    public init(_ verb: Verb, _ words: [String]) {
        self.verb = verb
        self.words = words
    }

    /// Runs the command on `user`'s tasks, as one transaction: everything it names is read
    /// and checked first, and a failure changes nothing.
    public func run(user: String, store: any TaskStore, clock: TaskClock, catalog: Catalog) throws(NavError) -> Report {
        var report = Report()
        try storeCall {
            try store.transaction {
                report = try apply(user: user, store: store, clock: clock, catalog: catalog)
            }
        }
        return report
    }

    private func apply(user: String, store: any TaskStore, clock: TaskClock, catalog: Catalog) throws(NavError) -> Report {
        var report = Report()
        func said(_ phrase: Phrase, _ task: TaskItem, _ more: (String, any CustomStringConvertible)...) {
            report.lines.append(catalog(phrase, [("id", task.id), ("title", Self.quoted(task.title))] + more))
            var json = JSONWriter()
            json.object { TaskJSON.members(of: task, into: &$0, whole: true) }
            report.objects.append(json.text)
        }
        func written(_ task: TaskItem?, _ id: Int) throws(NavError) -> TaskItem {
            guard let task else { throw .taskVanished(id) }
            return task
        }
        let language = catalog.language
        switch verb {
        case .add:
            var fields = try AddLine.fields(words.joined(separator: " "), clock: clock, language: language)
            fields.title = fields.title.trimmed
            if let problem = FieldRules.problem(fields.title, as: .title) { throw .badValue(problem) }
            if let problem = Recurrence.problem(with: fields) { throw problem }
            try storeCall { try store.openProfile(user, sample: false) }
            said(.shellAdded, try storeCall { try store.insertAtTop(user, fields, as: .add) })
        case .done:
            for task in try tasks(words, of: user, in: store) {
                guard !task.done else {
                    said(.shellAlreadyDone, task)
                    continue
                }
                var fields = task.fields
                fields.done = true
                said(
                    .shellCompleted,
                    try written(try storeCall { try store.write(user, id: task.id, [.done], from: fields, as: .toggle) }, task.id))
            }
        case .modify:
            guard let first = words.first else { throw .modifyNeedsWords }
            let task = try TaskReference.task(first, of: user, in: store)
            var fields = task.fields
            let changed = try ModifyLine.apply(words.dropFirst().joined(separator: " "), to: &fields, clock: clock, language: language)
            let after = try written(try storeCall { try store.write(user, id: task.id, changed, from: fields, as: .save) }, task.id)
            said(.shellModified, after, ("fields", changed.map(\.rawValue).joined(separator: ", ")))
        case .annotate:
            guard let first = words.first else { throw .missingArgument(.annotate) }
            let task = try TaskReference.task(first, of: user, in: store)
            let fields = try task.fields.annotated(words.dropFirst().joined(separator: " "), at: clock.now())
            said(
                .shellAnnotated,
                try written(try storeCall { try store.write(user, id: task.id, [.annotations], from: fields, as: .save) }, task.id))
        case .delete:
            for task in try tasks(words, of: user, in: store) {
                let below = try storeCall { try store.descendantCount(user, id: task.id) }
                guard try storeCall({ try store.delete(user, id: task.id) }) else { throw .taskVanished(task.id) }
                if below > 0 { said(.shellDeletedWithSubtasks, task, ("count", below)) } else { said(.shellDeleted, task) }
            }
        case .undo, .redo:
            guard words.isEmpty else { throw .unexpectedArgument(verb == .undo ? .undo : .redo, words.joined(separator: " ")) }
            let summary = try storeCall { try verb == .undo ? store.undo(user) : store.redo(user) }
            guard let summary else { throw verb == .undo ? .nothingToUndo : .nothingToRedo }
            report.lines.append(catalog(verb == .undo ? .shellUndid : .shellRedid, ("change", Self.words(for: summary, in: catalog))))
            var json = JSONWriter()
            json.object { json in
                json.key(verb.rawValue); json.string(summary.kind.rawValue)
                json.key("id")
                if let first = summary.first { json.number(first.id) } else { json.string(nil) }
                json.key("title"); json.string(summary.first?.title)
                json.key("count"); json.number(summary.count)
            }
            report.objects.append(json.text)
        }
        return report
    }

    /// The tasks `words` name, each once, in the order named; at least one.
    private func tasks(_ words: [String], of user: String, in store: any TaskStore) throws(NavError) -> [TaskItem] {
        guard !words.isEmpty else { throw .missingArgument(verb == .done ? .done : .delete) }
        var found: [TaskItem] = []
        for word in words {
            let task = try TaskReference.task(word, of: user, in: store)
            if !found.contains(where: { $0.id == task.id }) { found.append(task) }
        }
        return found
    }

    /// A title as a line quotes it, its controls and invisible characters escaped.
    static func quoted(_ title: String) -> String {
        "\"" + title.escapedForDisplay + "\""
    }

    /// What an `undo` or a `redo` changed, in words: `save of 42 "Buy bread"`.
    static func words(for summary: ChangeSummary, in catalog: Catalog) -> String {
        if summary.kind == .import { return catalog(.shellChangeImport, ("count", summary.count)) }
        guard let first = summary.first else { return summary.kind.rawValue }
        let parts: [(String, any CustomStringConvertible)] = [
            ("kind", summary.kind.rawValue), ("id", first.id), ("title", quoted(first.title)), ("more", summary.count - 1),
        ]
        return catalog(summary.count > 1 ? .shellChangeMany : .shellChangeOne, parts)
    }
}
