import NavStackCore

extension SQLiteStore {
    // MARK: - A list sorted by `sort KEY`

    /// The `ORDER BY` terms of a sort SQL can give (every key but urgency), before the
    /// list's own order that breaks ties. Tasks without the date come last either way;
    /// titles compare ignoring the case of ASCII letters, then by bytes.
    static func sortOrder(_ sort: ListSort) -> String {
        let direction = sort.reversed ? " DESC" : ""
        switch sort.key {
        case .due, .created, .modified: return "\(sort.key.rawValue) IS NULL, \(sort.key.rawValue)\(direction)"
        case .priority: return "CASE priority WHEN 'H' THEN 0 WHEN 'M' THEN 1 WHEN 'L' THEN 2 ELSE 3 END\(direction)"
        case .title: return "title COLLATE NOCASE\(direction), title\(direction)"
        case .urgency: return ""
        }
    }

    /// Rows `offset + 1 … offset + limit` of a list sorted by urgency. SQL cannot work
    /// urgency out, so every task of the list is read in list order, ranked at the
    /// query's "now" (ties keep the list's order), and the page cut from them.
    static func urgencyPage(_ db: Connection, _ user: String, _ query: ListQuery, offset: Int, limit: Int) throws -> [TaskItem] {
        guard let sort = query.sort else { return [] }
        var plain = query
        plain.sort = nil
        let (sql, arguments) = pageQuery(plain, user)
        // `LIMIT -1`: no limit.
        let tasks = try db.statement(sql).all(arguments + [-1, 0], Self.task)
        let links = Urgency.links(among: try linked(db, user))
        // Ranked as numbers and places (a task is many references: moving each one while
        // sorting is most of the cost), then the page's tasks taken.
        var ranked = tasks.indices.map { index in
            let uuid = tasks[index].uuid.lowercased()
            let urgency = Urgency.of(
                tasks[index], now: query.now, blocking: links.blocking.contains(uuid), blocked: links.blocked.contains(uuid))
            return (urgency: urgency, index: index)
        }
        ranked.sort { a, b in sort.precedes(urgency: a.urgency, b.urgency) ?? (a.index < b.index) }
        guard offset < ranked.count else { return [] }
        return ranked[offset..<min(ranked.count, offset + limit)].map { tasks[$0.index] }
    }

    /// The profile's open tasks that depend on others, and the tasks they name: all that
    /// makes a task blocked or blocking (``Urgency/links(among:)``).
    static func linked(_ db: Connection, _ user: String) throws -> [TaskItem] {
        let dependents = try db.statement(
            "SELECT \(columns) FROM task WHERE profile_id = \(profileID) AND done = 0 AND depends != ''"
        ).all([user], Self.task)
        var named = Set(dependents.flatMap { $0.depends.map { $0.lowercased() } })
        named.subtract(dependents.map { $0.uuid.lowercased() })
        var tasks = dependents
        let byUUID = "SELECT \(columns) FROM task WHERE uuid = ? AND profile_id = \(profileID)"
        for uuid in named.sorted() {
            if let task = try db.first(byUUID, [uuid, user], Self.task) { tasks.append(task) }
        }
        return tasks
    }
}
