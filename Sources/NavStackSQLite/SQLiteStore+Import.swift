import CSQLite
import NavStackBytes
import NavStackCore

/// Why an import or export was refused; nothing was added.
public enum ImportError: CatalogError, Equatable, CustomStringConvertible, Sendable {
    /// The input is not JSON outside any record (or is too large to read).
    case notJSON(JSONError)
    /// The first bad record, numbered from 0.
    case badRecord(index: Int, Record)
    /// The first bad line of a file of lines (todo.txt), numbered from 1.
    case badLine(number: Int, Record)
    /// Every record whose values a door refuses (``FieldRules``), each named: at most
    /// ``BadRecords/shown`` of them, and how many more.
    case badRecords([BadRecord], more: Int)
    case noProfile
    /// The input holds nothing but blanks.
    case empty(source: String)
    /// The file is larger than ``JSONReader/maximumBytes``.
    case tooLarge(source: String)
    /// `export` of a profile that does not exist.
    case noSuchProfile(String)

    /// Why a record that was read is not a task.
    public enum Record: Equatable, Sendable {
        case notJSON(JSONError)
        case notAnObject
        case noTitle
        case wrongType(String)
        /// A value ``FieldRules`` refuses.
        case value(FieldProblem)
        case notAUUID
        case duplicateUUID(String)
        case uuidInStore(String)
        /// `parent` is neither a record's number nor a uuid.
        case badParent
        case parentIsItself
        /// `parent` names a record past the input's last (`count` records).
        case parentOutOfRange(Int, count: Int)
        /// The record's chain of parents comes back to a record of the chain.
        case parentCycle
        /// `parent` is a uuid that neither a record nor a task of the profile has.
        case parentNotFound(String)
        /// The record would be deeper than ``TreeLimits/depth`` levels (`depth` is how deep).
        case tooDeep(depth: Int)
        /// A field whose value is not what it must be (another program's record).
        case badValue(key: String, expected: String)
        /// A field of navstack's own (``TaskwarriorWriter/templateField``) in another
        /// program's record.
        case reservedField(String)

        /// The words, in a catalog's language.
        public func message(in t: Catalog) -> String {
            switch self {
            case .notJSON(let failure): t(.recordNotJSON, ("reason", failure.message(in: t)))
            case .notAnObject: t(.recordNotObject)
            case .noTitle: t(.recordNoTitle)
            case .wrongType(let key): t(.recordWrongType, ("key", key))
            case .value(let problem): problem.message(in: t)
            case .notAUUID: t(.recordNotAUUID)
            case .duplicateUUID(let uuid): t(.recordDuplicateUUID, ("uuid", uuid))
            case .uuidInStore(let uuid): t(.recordUUIDInStore, ("uuid", uuid))
            case .badParent: t(.recordBadParent)
            case .parentIsItself: t(.recordParentIsItself)
            case .parentOutOfRange(let number, let count): t(.recordParentOutOfRange, ("number", number), ("count", count))
            case .parentCycle: t(.recordParentCycle)
            case .parentNotFound(let uuid): t(.recordParentNotFound, ("uuid", uuid))
            case .tooDeep(let depth): NavError.tooDeep(depth: depth).message(in: t)
            case .badValue(let key, let expected): t(.recordBadValue, ("key", key), ("expected", expected))
            case .reservedField(let key): t(.recordReservedField, ("key", key))
            }
        }
    }

    public var description: String { message(in: .english) }

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .notJSON(let failure): t(.importNotJSON, ("reason", failure.message(in: t)))
        case .badRecord(let index, let problem): t(.importBadRecord, ("index", index), ("reason", problem.message(in: t)))
        case .badLine(let number, let problem): t(.importBadLine, ("number", number), ("reason", problem.message(in: t)))
        case .badRecords(let named, let more): BadRecord.message(named, more: more, in: t)
        case .noProfile: t(.importNoProfile)
        case .empty(let source): t(.importEmpty, ("file", source))
        case .tooLarge(let source): t(.importTooLarge, ("file", source), ("mib", JSONReader.maximumBytes >> 20))
        case .noSuchProfile(let name): t(.exportNoSuchProfile, ("name", name.escapedForDisplay))
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

    /// Reads tasks from a JSON array or JSON Lines of `{"title", "notes"?, "done"?, "uuid"?,
    /// "parent"?, "subtasks"?}` (other keys, such as an exported `id`, are ignored).
    /// Records are numbered from 0 in document order, a nested record right after the
    /// one it is nested in; records whose values ``FieldRules`` refuses fail the whole
    /// input, each named (``BadRecords``); the first record that is not a task (its JSON,
    /// its shape) fails it at once, and so does a tree
    /// the records cannot make (a `parent` past the last record, a record under itself,
    /// one deeper than the limit). `source` names the input in errors.
    public static func parseImport(_ data: [UInt8], source: String = "the input") throws(ImportError) -> ImportInput {
        try ImportParser.parse(data, source: source)
    }

    /// Adds tasks at the top of the list, after the profile's existing ones: an input
    /// whose records have no parents.
    public func importTasks(_ records: [ImportRecord], user: String) throws -> Int {
        try importTasks(ImportInput(records), user: user)
    }

    /// Adds an input's tasks after the profile's existing ones, in order, as one
    /// transaction and one change for `undo` and one operation in the log. Creates the
    /// profile if it is missing. A task keeps the uuid its record gives (one the store
    /// has is refused); the others get new ones. A record with a parent goes under it,
    /// after the parent's subtasks; a parent named by uuid must be a task of the profile
    /// or a record. The new tasks' ids are one consecutive range, in record order.
    public func importTasks(_ input: ImportInput, user: String) throws -> Int {
        let records = input.records
        return try writing { db in
            try openProfile(user, sample: false)
            guard !records.isEmpty else { return 0 }
            for (index, record) in records.enumerated() {
                if let uuid = record.uuid { try Self.checkUUIDFree(db, uuid, index: index) }
            }
            guard
                let (profileID, bottom) = try db.first(
                    "SELECT id, bottom FROM profile WHERE name = ?", [user], { ($0.int64(0), $0.int(1)) })
            else { return 0 }
            if input.isTree {
                return try importTree(db, input, user: user, profile: profileID, bottom: bottom)
            }
            // Rows go in batches of 500 a statement (the rest one by one), bound through
            // SQLite's own API: this loop runs a million times for a large import.
            let batch = 500
            let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"
            let insert = "INSERT INTO task (profile_id, position, title, notes, done, uuid, created, modified, completed) VALUES "
            let now = db.now.secondsSinceEpoch
            let many = try db.prepare(insert + Array(repeating: row, count: batch).joined(separator: ", "))
            let one = try db.prepare(insert + row)
            var done = 0
            var first: Int64?
            var index = 0
            // The new uuids of a statement's rows, bound where they are written: SQLite
            // reads them when the statement runs.
            let uuidTexts = KeptBytes(capacity: batch * TaskUUIDSource.textLength)
            while index < records.count {
                let rows = records.count - index >= batch ? batch : 1
                let handle = rows == batch ? many.handle : one.handle
                sqlite3_reset(handle)
                uuidTexts.letGo()
                for offset in 0..<rows {
                    // Each record's fields are read where they are, never copied.
                    let number = index + offset
                    let column = Int32(offset * 9 + 1)
                    sqlite3_bind_int64(handle, column, profileID)
                    sqlite3_bind_int64(handle, column + 1, Int64(bottom + 1 + number))
                    _ = records[number].fields.title.bindCopied(to: handle, at: column + 2)
                    _ = records[number].fields.notes.bindCopied(to: handle, at: column + 3)
                    let isDone = records[number].fields.done
                    sqlite3_bind_int(handle, column + 4, isDone ? 1 : 0)
                    if let uuid = records[number].uuid {
                        _ = uuid.bindCopied(to: handle, at: column + 5)
                    } else {
                        uuidTexts.keep(writing: TaskUUIDSource.textLength, { uuids.write(into: &$0) }) {
                            sqlite3_bind_text(handle, column + 5, $0, Int32($1), nil)
                        }
                    }
                    let stamps = records[number].stamps
                    sqlite3_bind_int64(handle, column + 6, stamps.created?.secondsSinceEpoch ?? now)
                    sqlite3_bind_int64(handle, column + 7, stamps.modified?.secondsSinceEpoch ?? now)
                    if isDone {
                        sqlite3_bind_int64(handle, column + 8, stamps.completed?.secondsSinceEpoch ?? now)
                    } else {
                        sqlite3_bind_null(handle, column + 8)
                    }
                    if isDone { done += 1 }
                }
                try db.check(sqlite3_step(handle), done: true)
                // A multi-row insert reports its last row; the ids before it are consecutive.
                first = first ?? db.lastInsertedRowID - Int64(rows - 1)
                index += rows
            }
            try Self.writeAttributes(db, records, first: Int(first ?? 0))
            // Every record at the top of the list.
            let counts = SubtaskCounts(done: done, total: records.count)
            try recordImport(
                db, user, profile: profileID, all: counts, top: counts, bottom: bottom,
                first: Int(first ?? 0), last: Int(db.lastInsertedRowID))
            return records.count
        }
    }

    /// Writes what the records hold beyond a title, notes and done to the rows just
    /// inserted for them (ids from `first`, in order): few records of most imports have
    /// any, and the rows of the others stay as the fast insert made them.
    private static func writeAttributes(_ db: Connection, _ records: [ImportRecord], first: Int) throws {
        guard records.contains(where: \.hasMore) else { return }
        let update = try db.prepare("UPDATE task SET \(attributeAssignments) WHERE id = ?")
        let now = db.now
        for (index, record) in records.enumerated() where record.hasMore {
            var stamps = record.stamps
            stamps.created = stamps.created ?? now
            stamps.modified = stamps.modified ?? now
            stamps.completed = record.fields.done ? stamps.completed ?? now : nil
            try update.run(attributeArguments(record.fields, stamps) + [first + index])
        }
    }

    /// Counts an import's tasks (`all`, and those at the top of the list, `top`) in the
    /// profile, whose bottom position moves past them, and records it as one change for
    /// `undo` and one operation in the log: the ids `first…last`.
    private func recordImport(
        _ db: Connection, _ user: String, profile: Int64, all: SubtaskCounts, top: SubtaskCounts,
        bottom: Int, first: Int, last: Int
    ) throws {
        try db.run(
            """
            UPDATE profile SET total = total + ?1, done = done + ?2, roots = roots + ?3, roots_done = roots_done + ?4, bottom = ?5
            WHERE id = ?6
            """, [all.total, all.done, top.total, top.done, bottom + all.total, profile])
        var log = try beginChange(db, user, .import)
        try Self.logImport(db, user, first: first, last: last, adding: true, &log)
    }

    /// Adds records that make a tree, one a statement, each with the counts of its
    /// subtasks among the records; the counts of the parents the store has grow by
    /// theirs. Each record's id is the first new id plus its number, so a record may
    /// name a parent that comes after it.
    private func importTree(_ db: Connection, _ given: ImportInput, user: String, profile: Int64, bottom: Int) throws -> Int {
        var input = given
        let tree = try ImportTree(&input)
        let (records, parents) = (input.records, input.parents)
        // The parents the store has: the profile's tasks, each with how deep it is.
        var stored: [String: (id: Int, depth: Int)] = [:]
        for (index, parent) in parents.enumerated() {
            guard case .task(let uuid) = parent, stored[uuid] == nil else { continue }
            guard let id = try db.first("SELECT id FROM task WHERE uuid = ? AND profile_id = ?", [uuid, profile], { $0.int(0) })
            else { throw ImportError.badRecord(index: index, .parentNotFound(uuid)) }
            stored[uuid] = (id, try Self.chain(db, user, id: id).count)
        }
        if !stored.isEmpty {
            for index in records.indices {
                guard case .task(let uuid) = parents[tree.tops[index]], let parent = stored[uuid] else { continue }
                let depth = parent.depth + tree.levels[index] + 1
                guard depth <= TreeLimits.depth else { throw ImportError.badRecord(index: index, .tooDeep(depth: depth)) }
            }
        }
        // The id SQLite would give next: past every id the table has ever had.
        let first =
            try db.first(
                """
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'task'), 0), coalesce((SELECT max(id) FROM task), 0)) + 1
                """
            ) { $0.int(0) } ?? 1
        let insert = try db.prepare(
            """
            INSERT INTO task (id, profile_id, position, title, notes, done, uuid, parent, subtasks, subtasks_done, created, modified, completed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let now = db.now
        var done = 0
        var roots = SubtaskCounts()
        var underStored: [Int: SubtaskCounts] = [:]
        for (index, record) in records.enumerated() {
            let fields = record.fields
            let parent: Int
            switch parents[index] {
            case nil:
                parent = 0
                roots.total += 1
                if fields.done { roots.done += 1 }
            case .record(let number):
                parent = first + number
            case .task(let uuid):
                parent = stored[uuid]!.id
                underStored[parent, default: SubtaskCounts()].total += 1
                if fields.done { underStored[parent]!.done += 1 }
            }
            if fields.done { done += 1 }
            let counts = tree.subtasks[index]
            try insert.run([
                first + index, profile, bottom + 1 + index, fields.title, fields.notes, fields.done,
                record.uuid ?? uuids.make(), parent, counts.total, counts.done,
                (record.stamps.created ?? now).secondsSinceEpoch, (record.stamps.modified ?? now).secondsSinceEpoch,
                fields.done ? (record.stamps.completed ?? now).secondsSinceEpoch : nil,
            ])
        }
        try Self.writeAttributes(db, records, first: first)
        for (parent, counts) in underStored.sorted(by: { $0.key < $1.key }) {
            try Self.countSubtask(db, user, parent: parent, total: counts.total, done: counts.done)
        }
        try recordImport(
            db, user, profile: profile, all: SubtaskCounts(done: done, total: records.count), top: roots,
            bottom: bottom, first: first, last: first + records.count - 1)
        return records.count
    }

    /// The profile's tasks as a JSON array of `id`, `uuid`, `title`, `notes`, `done`,
    /// `parent` (an id, or null at the top): the top of the list in order, each task with
    /// its subtasks in order nested in it (`subtasks`, only when it has some), written in
    /// pieces. A profile without subtasks is read in one query; subtasks are read a
    /// statement a level, all in one snapshot of the store.
    public func exportTasks(user: String, write: (String) throws -> Void) throws {
        try snapshot {
            try reading { db in
                let query = "SELECT \(Self.columns) FROM task WHERE profile_id = \(Self.profileID) AND parent = ? ORDER BY position, uuid"
                var levels: [Statement] = []
                /// Writes the tasks under `parent` (0: the top), each on a line of its own
                /// after a comma but the first; whether there were any.
                func tasks(under parent: Int, level: Int) throws -> Bool {
                    if levels.count == level { levels.append(try db.prepare(query)) }
                    var first = true
                    try levels[level].each([user, parent]) { row in
                        let task = Self.task(row)
                        let nested = task.subtasks.total > 0
                        try write((first ? "\n" : ",\n") + Self.json(task, closed: !nested))
                        first = false
                        if nested {
                            try write(",\"subtasks\":[")
                            try write(try tasks(under: task.id, level: level + 1) ? "\n]}" : "]}")
                        }
                    }
                    return !first
                }
                try write("[")
                try write(try tasks(under: 0, level: 0) ? "\n]\n" : "]\n")
            }
        }
    }

    /// A task's record, without its closing brace unless `closed`: every field, as the
    /// detail's JSON has them.
    private static func json(_ task: TaskItem, closed: Bool) -> String {
        var json = JSONWriter()
        json.object { json in
            TaskJSON.attributes(of: task, into: &json, whole: true)
        }
        let attributes = json.text.dropFirst().dropLast()
        return
            "{\"id\":\(task.id),\"uuid\":\(task.uuid.jsonQuoted),\"title\":\(task.title.jsonQuoted),\"notes\":\(task.notes.jsonQuoted),\"done\":\(task.done),\"parent\":\(task.parent.map(String.init) ?? "null")"
            + "," + attributes + (closed ? "}" : "")
    }
}

extension SQLiteStore {
    /// Fails the import at record `index` when the store knows the uuid: a task of any
    /// profile has it, or one that undo or redo could bring back.
    static func checkUUIDFree(_ db: Connection, _ uuid: String, index: Int) throws {
        if try db.statement(uuidKnown).first({ $0.text(uuid) }, reading: { _ in true }) != nil {
            throw ImportError.badRecord(index: index, .uuidInStore(uuid))
        }
    }

    private static let uuidKnown = SQL("SELECT 1 FROM task WHERE uuid = ?1 UNION ALL SELECT 1 FROM undone_task WHERE uuid = ?1 LIMIT 1")
}
