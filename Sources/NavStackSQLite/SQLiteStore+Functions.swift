import CSQLite
import NavStackCore

/// The SQL functions of navstack's own that the store's queries and triggers call.
extension SQLiteStore {
    /// `navstack_matches(title, notes, search)`: the list's search, in SQL.
    static func addFunctions(to db: Connection) throws(SQLiteError) {
        try db.check(
            sqlite3_create_function_v2(
                db.handle, "navstack_matches", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                { context, _, values in
                    func text(_ index: Int) -> String {
                        guard let value = values?[index] else { return "" }
                        let bytes = sqlite3_value_text(value)
                        return String(decodingC: bytes, count: Int(sqlite3_value_bytes(value)))
                    }
                    sqlite3_result_int(context, ListQuery.matches(title: text(0), notes: text(1), search: text(2)) ? 1 : 0)
                }, nil, nil, nil))
        // `navstack_has_tag(tags, tag)`: the tags (words joined by a space) hold the tag,
        // without case as Swift folds it (SQLite's `lower` folds ASCII alone).
        try db.check(
            sqlite3_create_function_v2(
                db.handle, "navstack_has_tag", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                { context, _, values in
                    func text(_ index: Int) -> String {
                        guard let value = values?[index] else { return "" }
                        return String(decodingC: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
                    }
                    sqlite3_result_int(context, TaskWords.tags(text(0).split(separator: " "), contain: text(1)) ? 1 : 0)
                }, nil, nil, nil))
        // `navstack_words(tags, project)`: the words the table task_word keeps of a task,
        // as a JSON array (see ``SQLiteStore/wordsOf(tags:project:)``); the store's
        // triggers call it.
        try db.check(
            sqlite3_create_function_v2(
                db.handle, "navstack_words", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                { context, _, values in
                    func text(_ index: Int) -> String? {
                        guard let value = values?[index], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
                        return String(decodingC: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
                    }
                    var json = JSONWriter()
                    json.strings(SQLiteStore.wordsOf(tags: text(0) ?? "", project: text(1)))
                    sqlite3_result_text(context, json.text, -1, ns_sqlite_transient())
                }, nil, nil, nil))
        // `navstack_in_project(project, filter)`: the project is the filter's or one of
        // its sub-projects, without case.
        try db.check(
            sqlite3_create_function_v2(
                db.handle, "navstack_in_project", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                { context, _, values in
                    func text(_ index: Int) -> String {
                        guard let value = values?[index] else { return "" }
                        return String(decodingC: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
                    }
                    sqlite3_result_int(context, TaskWords.project(text(0), isWithin: text(1)) ? 1 : 0)
                }, nil, nil, nil))
    }
}
