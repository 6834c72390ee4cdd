import CSQLite
import NavStackCore

/// Why an import or export was refused; nothing was added.
public enum ImportError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The input is not JSON outside any record (or is too large to read).
    case notJSON(JSONReader.Failure)
    /// The first bad record, numbered from 0.
    case badRecord(index: Int, RecordProblem)
    case noProfile
    /// The input holds nothing but blanks.
    case empty(source: String)
    /// The file is larger than ``JSONReader/maximumBytes``.
    case tooLarge(source: String)
    /// `export` of a profile that does not exist.
    case noSuchProfile(String)

    public var description: String { message(in: .english) }

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .notJSON(let failure): t(.importNotJSON, ("reason", failure.message(in: t)))
        case .badRecord(let index, let problem): t(.importBadRecord, ("index", index), ("reason", problem.message(in: t)))
        case .noProfile: t(.importNoProfile)
        case .empty(let source): t(.importEmpty, ("file", source))
        case .tooLarge(let source): t(.importTooLarge, ("file", source), ("mib", JSONReader.maximumBytes >> 20))
        case .noSuchProfile(let name): t(.exportNoSuchProfile, ("name", name.escapedForDisplay))
        }
    }
}

/// Why a record that was read is not a task.
public enum RecordProblem: Error, Equatable, Sendable {
    case notJSON(JSONReader.Failure)
    case notAnObject
    case noTitle
    case wrongType(String)
    case blankTitle
    case tooLong(TextField, count: Int, limit: Int)
    case tooManyBytes(TextField, bytes: Int, limit: Int)
    case controlCharacter(TextField, Unicode.Scalar)
    case notAUUID
    case duplicateUUID(String)
    case uuidInStore(String)

    public func message(in t: Catalog) -> String {
        switch self {
        case .notJSON(let failure): t(.recordNotJSON, ("reason", failure.message(in: t)))
        case .notAnObject: t(.recordNotObject)
        case .noTitle: t(.recordNoTitle)
        case .wrongType(let key): t(.recordWrongType, ("key", key))
        case .blankTitle: t(.recordBlankTitle)
        case .tooLong(let field, let count, let limit): NavError.textTooLong(field, count: count, limit: limit).message(in: t)
        case .tooManyBytes(let field, let bytes, let limit):
            t(.recordTooManyBytes, ("field", t(field.phrase)), ("bytes", bytes), ("limit", limit))
        case .controlCharacter(let field, let scalar):
            t(.recordControlCharacter, ("field", t(field.phrase)), ("character", String(scalar).escapedForDisplay))
        case .notAUUID: t(.recordNotAUUID)
        case .duplicateUUID(let uuid): t(.recordDuplicateUUID, ("uuid", uuid))
        case .uuidInStore(let uuid): t(.recordUUIDInStore, ("uuid", uuid))
        }
    }
}

extension SQLiteStore {
    /// The profile `import` and `export` work on: the one named, else the signed-in one.
    /// With `existing`, a profile that does not exist is refused.
    public func profile(named name: String?, existing: Bool = false) throws -> String {
        if let name {
            if existing, try reading({ db in try db.first("SELECT 1 FROM profile WHERE name = ?", [name]) { $0.int(0) } }) == nil {
                throw ImportError.noSuchProfile(name)
            }
            return name
        }
        let user = try reading { db in try db.first("SELECT user FROM session WHERE id = 1") { $0.optionalText(0) } ?? nil }
        guard let user else { throw ImportError.noProfile }
        return user
    }

    /// Reads tasks from a JSON array or JSON Lines of `{"title", "notes"?, "done"?, "uuid"?}`
    /// (other keys, such as an exported `id`, are ignored). Records are numbered from 0;
    /// the first bad one fails the whole input. `source` names the input in errors.
    public static func parseImport(_ data: [UInt8], source: String = "the input") throws(ImportError) -> [ImportRecord] {
        try ImportParser.parse(data, source: source)
    }

    /// Adds tasks after the profile's existing ones, in order, as one transaction and one
    /// change for `undo` and one operation in the log. Creates the profile if it is
    /// missing. A task keeps the uuid its record gives (one the store has is refused);
    /// the others get new ones.
    public func importTasks(_ records: [ImportRecord], user: String) throws -> Int {
        try writing { db in
            try openProfile(user, sample: false)
            guard !records.isEmpty else { return 0 }
            let known = try db.prepare("""
                SELECT 1 FROM task WHERE uuid = ?1 UNION ALL SELECT 1 FROM undone_task WHERE uuid = ?1 LIMIT 1
                """)
            for (index, record) in records.enumerated() {
                if let uuid = record.uuid, try known.first([uuid], { _ in true }) != nil {
                    throw ImportError.badRecord(index: index, .uuidInStore(uuid))
                }
            }
            guard let (profileID, bottom) = try db.first("SELECT id, bottom FROM profile WHERE name = ?", [user], { ($0.int64(0), $0.int(1)) })
            else { return 0 }
            // Rows go in batches of 500 a statement (the rest one by one), bound through
            // SQLite's own API: this loop runs a million times for a large import.
            let batch = 500
            let row = "(?, ?, ?, ?, ?, ?)"
            let insert = "INSERT INTO task (profile_id, position, title, notes, done, uuid) VALUES "
            let many = try db.prepare(insert + Array(repeating: row, count: batch).joined(separator: ", "))
            let one = try db.prepare(insert + row)
            var done = 0
            var first: Int64?
            var index = 0
            // The new uuids of a statement's rows, bound where they are written: SQLite
            // reads them when the statement runs.
            let uuidText = UnsafeMutableRawBufferPointer.allocate(byteCount: batch * TaskUUIDSource.textLength, alignment: 1)
            defer { uuidText.deallocate() }
            while index < records.count {
                let rows = records.count - index >= batch ? batch : 1
                let handle = rows == batch ? many.handle : one.handle
                sqlite3_reset(handle)
                for (offset, record) in records[index..<(index + rows)].enumerated() {
                    let fields = record.fields
                    let column = Int32(offset * 6 + 1)
                    sqlite3_bind_int64(handle, column, profileID)
                    sqlite3_bind_int64(handle, column + 1, Int64(bottom + 1 + index + offset))
                    _ = fields.title.bind(to: handle, at: column + 2)
                    _ = fields.notes.bind(to: handle, at: column + 3)
                    sqlite3_bind_int(handle, column + 4, fields.done ? 1 : 0)
                    if let uuid = record.uuid {
                        _ = uuid.bind(to: handle, at: column + 5)
                    } else {
                        let at = offset * TaskUUIDSource.textLength
                        let text = UnsafeMutableRawBufferPointer(rebasing: uuidText[at..<at + TaskUUIDSource.textLength])
                        uuids.write(into: text)
                        sqlite3_bind_text(handle, column + 5, text.baseAddress!.assumingMemoryBound(to: CChar.self),
                                          Int32(TaskUUIDSource.textLength), nil)
                    }
                    if fields.done { done += 1 }
                }
                try db.check(sqlite3_step(handle), done: true)
                // A multi-row insert reports its last row; the ids before it are consecutive.
                first = first ?? db.lastInsertedRowID - Int64(rows - 1)
                index += rows
            }
            try db.run("""
                UPDATE profile SET total = total + ?1, done = done + ?2, roots = roots + ?1, roots_done = roots_done + ?2, bottom = ?3
                WHERE name = ?4
                """, [records.count, done, bottom + records.count, user])
            let range = (first: Int(first ?? 0), last: Int(db.lastInsertedRowID))
            try record(db, user, .import, .imported(first: range.first, last: range.last))
            try Self.logImport(db, user, first: range.first, last: range.last, adding: true, as: ChangeKind.import.rawValue)
            return records.count
        }
    }

    /// The profile's tasks in list order, as a JSON array of `id`, `uuid`, `title`,
    /// `notes`, `done`, written in pieces.
    public func exportTasks(user: String, write: (String) throws -> Void) throws {
        try reading { db in
            try write("[")
            var first = true
            try db.prepare("SELECT \(Self.columns) FROM task WHERE profile_id = \(Self.profileID) ORDER BY position").each([user]) { row in
                try write((first ? "\n" : ",\n") + Self.json(Self.task(row)))
                first = false
            }
            try write(first ? "]\n" : "\n]\n")
        }
    }

    private static func json(_ task: TaskItem) -> String {
        "{\"id\":\(task.id),\"uuid\":\(task.uuid.jsonQuoted),\"title\":\(task.title.jsonQuoted),\"notes\":\(task.notes.jsonQuoted),\"done\":\(task.done)}"
    }
}
