import Foundation
import GRDB
import NavStackCore

/// Why an import was refused; nothing was added.
public enum ImportError: Error, Equatable, CustomStringConvertible, Sendable {
    case notJSON(String)
    case badRecord(index: Int, reason: String)
    case noProfile

    public var description: String {
        switch self {
        case .notJSON(let reason): "the input is not a JSON array or JSON Lines: \(reason)"
        case .badRecord(let index, let reason): "record \(index): \(reason); nothing was imported"
        case .noProfile: "no one is signed in: name the profile with --user NAME"
        }
    }
}

extension SQLiteStore {
    /// The profile `import` and `export` work on: the one named, else the signed-in one.
    public func profile(named name: String?) throws -> String {
        if let name { return name }
        let user = try reading { db in try String.fetchOne(db, sql: "SELECT user FROM session WHERE id = 1") }
        guard let user else { throw ImportError.noProfile }
        return user
    }

    /// Reads tasks from a JSON array or JSON Lines of `{"title", "notes"?, "done"?}`
    /// (other keys, such as an exported `id`, are ignored). Records are numbered from 0;
    /// the first bad one fails the whole input.
    public static func parseImport(_ data: Data) throws(ImportError) -> [DraftFields] {
        try ImportParser.parse(data)
    }

    /// Adds tasks after the profile's existing ones, in order, as one transaction and one
    /// change for `undo`. Creates the profile if it is missing.
    public func importTasks(_ records: [DraftFields], user: String) throws -> Int {
        try writing { db in
            try openProfile(user, sample: false)
            guard !records.isEmpty else { return 0 }
            let bottom = try Int.fetchOne(db.cachedStatement(sql: "SELECT bottom FROM profile WHERE name = ?"),
                                          arguments: [user]) ?? 0
            let insert = try db.makeStatement(sql: "INSERT INTO task (profile, position, title, notes, done) VALUES (?, ?, ?, ?, ?)")
            var first: Int64 = 0
            var done = 0
            for (offset, fields) in records.enumerated() {
                try insert.execute(arguments: [user, bottom + 1 + offset, fields.title, fields.notes, fields.done])
                if offset == 0 { first = db.lastInsertedRowID }
                if fields.done { done += 1 }
            }
            try db.execute(sql: """
                UPDATE profile SET total = total + ?, done = done + ?, bottom = ? WHERE name = ?
                """, arguments: [records.count, done, bottom + records.count, user])
            try record(db, user, .import, .imported(first: Int(first), last: Int(db.lastInsertedRowID)))
            return records.count
        }
    }

    /// The profile's tasks in list order, as a JSON array of `id`, `title`, `notes`,
    /// `done`, written in pieces.
    public func exportTasks(user: String, write: (String) -> Void) throws {
        try reading { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT id, title, notes, done FROM task WHERE profile = ? ORDER BY position",
                                             arguments: [user])
            write("[")
            var first = true
            while let row = try cursor.next() {
                let task = Self.task(row)
                write((first ? "\n" : ",\n") + Self.json(task))
                first = false
            }
            write(first ? "]\n" : "\n]\n")
        }
    }

    private static func json(_ task: TaskItem) -> String {
        "{\"id\":\(task.id),\"title\":\(task.title.jsonQuoted),\"notes\":\(task.notes.jsonQuoted),\"done\":\(task.done)}"
    }
}
