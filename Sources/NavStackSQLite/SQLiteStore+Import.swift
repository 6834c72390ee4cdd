import Foundation
import GRDB
import GRDBSQLite
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
            guard let profile = try Row.fetchOne(db, sql: "SELECT id, bottom FROM profile WHERE name = ?", arguments: [user])
            else { return 0 }
            let (profileID, bottom): (Int64, Int) = (profile[0], profile[1])
            // Rows go in batches of 500 a statement (the rest one by one), bound through
            // SQLite's own API: this loop runs a million times for a large import.
            let batch = 500
            let row = "(?, ?, ?, ?, ?)"
            let insert = "INSERT INTO task (profile_id, position, title, notes, done) VALUES "
            let many = try db.makeStatement(sql: insert + Array(repeating: row, count: batch).joined(separator: ", "))
            let one = try db.makeStatement(sql: insert + row)
            defer {
                sqlite3_reset(many.sqliteStatement)
                sqlite3_reset(one.sqliteStatement)
            }
            var done = 0
            var first: Int64?
            var index = 0
            while index < records.count {
                let rows = records.count - index >= batch ? batch : 1
                let handle = rows == batch ? many.sqliteStatement : one.sqliteStatement
                sqlite3_reset(handle)
                for (offset, fields) in records[index..<(index + rows)].enumerated() {
                    let column = Int32(offset * 5 + 1)
                    sqlite3_bind_int64(handle, column, profileID)
                    sqlite3_bind_int64(handle, column + 1, Int64(bottom + 1 + index + offset))
                    Self.bind(fields.title, to: handle, at: column + 2)
                    Self.bind(fields.notes, to: handle, at: column + 3)
                    sqlite3_bind_int(handle, column + 4, fields.done ? 1 : 0)
                    if fields.done { done += 1 }
                }
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                // A multi-row insert reports its last row; the ids before it are consecutive.
                first = first ?? db.lastInsertedRowID - Int64(rows - 1)
                index += rows
            }
            try db.execute(sql: """
                UPDATE profile SET total = total + ?, done = done + ?, bottom = ? WHERE name = ?
                """, arguments: [records.count, done, bottom + records.count, user])
            try record(db, user, .import, .imported(first: Int(first ?? 0), last: Int(db.lastInsertedRowID)))
            return records.count
        }
    }

    /// Binds text, copied by SQLite.
    private static func bind(_ text: String, to handle: OpaquePointer, at index: Int32) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                _ = sqlite3_bind_text(handle, index, "", 0, transient)
                return
            }
            _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                  Int32(bytes.count), transient)
        }
    }

    /// The profile's tasks in list order, as a JSON array of `id`, `title`, `notes`,
    /// `done`, written in pieces.
    public func exportTasks(user: String, write: (String) -> Void) throws {
        try reading { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT id, title, notes, done FROM task WHERE profile_id = \(Self.profileID) ORDER BY position",
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
