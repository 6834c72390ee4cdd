import NavStackCore

// The index of due dates in list order, and the words of tasks (tags and projects) that
// lists by tag and project read.
extension SQLiteStore {
    /// The index of `due` carries each task's place in the list and what the list's filter
    /// asks (`done`, `wait`): a list by a due term is sorted and counted from it alone, each
    /// task read only for the page shown.
    static let dueInOrder = """
        DROP INDEX task_by_due;
        CREATE INDEX task_by_due ON task(profile_id, due, parent, position, uuid, done, wait) WHERE due IS NOT NULL;

        """

    /// The table of tags' and projects' words and the triggers that keep it (the words:
    /// ``wordsOf(tags:project:)``). Each row carries its task's place in the list (parent,
    /// position, uuid: `under`, `place`, `tie`), so a word's tasks are read in list order;
    /// its columns are named apart from the task's, so the two join without qualifying
    /// every name. `word_count` counts each word's tasks, kept by triggers on `task_word`.
    static let taskWordSchema = """
        CREATE TABLE task_word (
            profile INTEGER NOT NULL,
            word TEXT NOT NULL,
            under INTEGER NOT NULL,
            place INTEGER NOT NULL,
            tie TEXT NOT NULL,
            task_id INTEGER NOT NULL,
            PRIMARY KEY (profile, word, under, place, tie, task_id)
        ) WITHOUT ROWID;
        CREATE TRIGGER \(newTaskWordsTrigger) AFTER INSERT ON task WHEN \(hasWords("new")) BEGIN
            INSERT OR IGNORE INTO task_word \(wordRows("new"));
        END;
        CREATE TRIGGER task_words_changed AFTER UPDATE OF tags, project, parent, position ON task
            WHEN old.tags IS NOT new.tags OR old.project IS NOT new.project OR old.parent IS NOT new.parent
                OR old.position IS NOT new.position BEGIN
            DELETE FROM task_word WHERE (profile, word, under, place, tie, task_id) IN (\(wordRows("old")));
            INSERT OR IGNORE INTO task_word \(wordRows("new"));
        END;
        CREATE TRIGGER task_words_gone AFTER DELETE ON task WHEN \(hasWords("old")) BEGIN
            DELETE FROM task_word WHERE (profile, word, under, place, tie, task_id) IN (\(wordRows("old")));
        END;
        CREATE TABLE word_count (
            profile INTEGER NOT NULL,
            word TEXT NOT NULL,
            tasks INTEGER NOT NULL,
            PRIMARY KEY (profile, word)
        ) WITHOUT ROWID;
        CREATE TRIGGER word_counted AFTER INSERT ON task_word BEGIN
            INSERT INTO word_count VALUES (new.profile, new.word, 1) ON CONFLICT (profile, word) DO UPDATE SET tasks = tasks + 1;
        END;
        CREATE TRIGGER word_uncounted AFTER DELETE ON task_word BEGIN
            UPDATE word_count SET tasks = tasks - 1 WHERE profile = old.profile AND word = old.word;
        END;

        """

    /// The rows of `task_word` of the task `row` (`new` or `old` in a trigger), or of each
    /// task of `table` (`row` its name).
    static func wordRows(_ row: String, of table: String? = nil) -> String {
        "SELECT \(row).profile_id, value, \(row).parent, \(row).position, \(row).uuid, \(row).id "
            + "FROM \(table.map { "\($0), " } ?? "")json_each(navstack_words(\(row).tags, \(row).project))"
    }

    /// Whether the task `row` has words: tags or a project.
    static func hasWords(_ row: String) -> String {
        "\(row).tags != '' OR \(row).project IS NOT NULL"
    }

    /// Gives the tasks `condition` picks (of `task`) their rows of `task_word`.
    static func wordsOfTasks(where condition: String) -> String {
        "INSERT OR IGNORE INTO task_word \(wordRows("task", of: "task")) WHERE \(condition)"
    }

    /// The trigger that gives a task added its words.
    static let newTaskWordsTrigger = "task_words_made"

    /// What a bulk write that gives its new tasks their words at once holds back: the
    /// trigger that gives each new task its words (its SQL as the store has it), and the
    /// last task id before the write.
    struct WordsHeldBack {
        fileprivate let trigger: String
        fileprivate let lastID: Int
    }

    /// Drops the trigger that gives a new task its words, in the write transaction under
    /// way, for ``giveWordsToNewTasks(_:_:)`` to give them to every task added since, in
    /// one statement, and make the trigger again. A trigger a task costs an import a third
    /// of its time: a statement journal for each insert (a statement with a trigger may
    /// have to be undone alone), a table of the trigger's rows, and a count of each word.
    /// Changes and deletes in between keep their triggers; a failure rolls the drop back
    /// with the rest. `nil` (nothing dropped) for a store without the trigger.
    static func holdBackWordsOfNewTasks(_ db: Connection) throws -> WordsHeldBack? {
        guard
            let trigger = try db.first(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", [newTaskWordsTrigger], { $0.text(0) })
        else { return nil }
        let lastID = try db.first("SELECT coalesce(max(id), 0) FROM task", [], { $0.int(0) }) ?? 0
        try db.execute("DROP TRIGGER \(newTaskWordsTrigger)")
        return WordsHeldBack(trigger: trigger, lastID: lastID)
    }

    /// Gives the tasks added since ``holdBackWordsOfNewTasks(_:)`` the words the trigger
    /// would have given each (with the place each has now: a change since kept its words
    /// already, which this leaves as they are), and makes the trigger again as it was.
    static func giveWordsToNewTasks(_ db: Connection, _ held: WordsHeldBack?) throws {
        guard let held else { return }
        try db.run(wordsOfTasks(where: "task.id > ? AND (\(hasWords("task")))"), [held.lastID])
        try db.execute(held.trigger)
    }

    /// The words `task_word` keeps of a task: `#home` for each tag, `@home` and
    /// `@home.garden` for the project `home.garden` (itself and each project above it),
    /// their ASCII letters in lower case (the list's words are ASCII; another is matched
    /// task by task, as Swift folds it).
    static func wordsOf(tags: String, project: String?) -> [String] {
        var words = tags.split(separator: " ").map { word(.tag, $0) }
        if let project {
            var end = project.startIndex
            while end < project.endIndex {
                end = project[project.index(after: end)...].firstIndex(of: ".") ?? project.endIndex
                words.append(word(.project, project[..<end]))
            }
        }
        return words
    }

    /// What a word of `task_word` names.
    enum WordKind: String {
        case tag = "#"
        case project = "@"
    }

    /// A tag's or a project's word in `task_word`: its sign, then its text with the ASCII
    /// letters in lower case.
    static func word(_ kind: WordKind, _ text: some StringProtocol) -> String {
        kind.rawValue + String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The word of a list's tag or project term, when `task_word` can answer it: a term in
    /// ASCII (another is matched task by task, as Swift folds it); `nil` for no term.
    static func listWord(_ kind: WordKind, _ term: String?) -> String? {
        guard let term, term.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return word(kind, term)
    }

    public func names(_ user: String, _ kind: NameKind, prefix: String, limit: Int) throws -> [String] {
        let start = Self.word(kind == .tag ? .tag : .project, prefix)
        // The words that start so are a range of the key of `word_count`: from the prefix
        // to the prefix and the last character, at most `limit` of them.
        return try reading { db in
            try db.statement(Self.namesInRange).all([user, start, start + "\u{10FFFF}", limit]) { String($0.text(0).dropFirst()) }
        }
    }

    static let namesInRange = SQL(
        "SELECT word FROM word_count WHERE profile = \(profileID) AND word >= ? AND word < ? AND tasks > 0 ORDER BY word LIMIT ?")
}
