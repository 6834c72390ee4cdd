import NavStackCore
import NavStackSync
import NavStackTime

extension SQLiteStore {
    static let columns = "id, uuid, title, notes, done, parent, subtasks, subtasks_done, \(attributeColumns)"

    /// The id of the profile named by the statement's argument, in SQL; SQLite looks it
    /// up once a statement.
    static let profileID = "(SELECT id FROM profile WHERE name = ?)"
    /// The same, named by the statement's first argument again (a subquery after others).
    static let profileOfFirstArgument = "(SELECT id FROM profile WHERE name = ?1)"

    /// The columns a ``StoredTask`` reads, in the order ``storedTask(_:)`` expects.
    static let storedColumns = "id, position, uuid, rev, title, notes, done, parent, subtasks, subtasks_done, \(attributeColumns)"

    /// ``storedColumns`` of the table named `table` in a join.
    static func storedColumns(of table: String) -> String {
        storedColumns.split(separator: ", ").map { table + "." + $0 }.joined(separator: ", ")
    }

    static func task(_ row: Row) -> TaskItem {
        let parent = row.int(5)
        var task = TaskItem(
            id: row.int(0), uuid: row.text(1), title: row.text(2), notes: row.text(3), done: row.bool(4),
            parent: parent == 0 ? nil : parent, subtasks: SubtaskCounts(done: row.int(7), total: row.int(6)))
        var fields = DraftFields()
        task.stamps = readAttributes(row, at: 8, into: &fields)
        task.setAttributes(from: fields)
        return task
    }

    public func openProfile(_ user: String, sample: Bool) throws {
        try writing { db in
            guard try db.first("SELECT 1 FROM profile WHERE name = ?", [user], { _ in true }) == nil else { return }
            try db.run("INSERT INTO profile (name) VALUES (?)", [user])
            if sample {
                // In the log (their creation is a change other stores must see), not in
                // the undo history.
                var log = ChangeLog(outsideHistory: ChangeKind.add.rawValue, of: db.lastInsertedRowID)
                for task in TaskItem.samples {
                    let added = try Self.append(
                        db, user, DraftFields(title: task.title, notes: task.notes, done: task.done),
                        uuid: uuids.make())
                    try Self.log(db, user, ChangePair(before: nil, after: added), &log)
                }
            }
        }
    }

    public func count(_ user: String, _ query: ListQuery) throws -> Int {
        try cached(cache.counts, ReadCache.Query(user: user, query: query, offset: 0, limit: 0)) { db in
            // The profile's counters answer a list without search or terms, while no task
            // is waiting (when waiting ones are hidden): a look at one index.
            let plain = query.search == nil && query.terms.isEmpty && query.filter != .waiting && !query.scope.isDated
            if try plain && (!query.hidesWaiting || !Self.anyWaiting(db, user, at: query.now)) {
                let counters: (total: Int, done: Int)
                switch query.scope {
                case .top: counters = try Self.counters(db, user, "roots, roots_done")
                case .everywhere, .agenda, .day: counters = try Self.counters(db, user)
                case .children(let id):
                    counters =
                        try db.first(
                            "SELECT subtasks, subtasks_done FROM task WHERE id = ? AND profile_id = \(Self.profileID)",
                            [id, user]
                        ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
                }
                switch query.filter {
                case .all, .every: return counters.total
                case .open: return counters.total - counters.done
                case .done, .waiting: return counters.done
                }
            }
            if let word = Self.listWord(query) {
                // Every task of the word, when none is hidden: its count, kept.
                if try Self.hidesNone(db, user, query) {
                    return try db.first("SELECT tasks FROM word_count WHERE profile = \(Self.profileID) AND word = ?", [user, word]) {
                        $0.int(0)
                    } ?? 0
                }
                let (sql, arguments) = Self.wordQuery(query, user, word: word, select: "COUNT(*)")
                return try db.first(sql, arguments) { $0.int(0) } ?? 0
            }
            if let day = Self.dayHalves(query, user, select: "COUNT(*)") {
                return try db.first("SELECT (\(day.due)) + (\(day.scheduled))", day.arguments) { $0.int(0) } ?? 0
            }
            if let span = Self.dueSpan(query) {
                // The tasks due in the span that the filter keeps: the index of `due` alone,
                // its range alone (no column of each entry read) when the filter hides none.
                let (clause, arguments) = try Self.hidesNone(db, user, query) ? ("", [user]) : Self.filterClause(query, user)
                return try db.first(
                    "SELECT COUNT(*) FROM task INDEXED BY task_by_due WHERE profile_id = \(Self.profileID)\(span.sql)\(clause)",
                    [user] + span.arguments + arguments.dropFirst()
                ) { $0.int(0) } ?? 0
            }
            let (clause, arguments) = Self.whereClause(query, user)
            return try db.first(
                "SELECT COUNT(*) FROM task WHERE \(Self.profileTerm(query))\(clause)",
                arguments
            ) { $0.int(0) } ?? 0
        }
    }

    public func page(_ user: String, _ query: ListQuery, offset: Int, limit: Int) throws -> [TaskItem] {
        try cached(cache.pages, ReadCache.Query(user: user, query: query, offset: offset, limit: limit)) { db in
            if let span = Self.dueSpan(query) {
                // The dated tasks in list order, looked at up to twice as many as the span
                // holds: a first page is found after a few of them, where sorting the span
                // would order all of them. A page not found so goes on to the sort.
                let matches = try count(user, query)
                let walk = Self.dueWalkQuery(query, user, span: span, looking: 2 * matches)
                let found = try db.statement(walk.sql).all(walk.arguments + [limit, offset], Self.task)
                if found.count == min(limit, max(0, matches - offset)) { return found }
            }
            let (sql, arguments) = Self.pageQuery(query, user)
            return try db.statement(sql).all(arguments + [limit, offset], Self.task)
        }
    }

    /// The statement of a page of a list by a due term alone (its `span`: ``dueSpan(_:)``) that walks
    /// the dated tasks in list order (the index `task_dated_in_order`, which holds what the
    /// span and the filter ask) and looks at `looking` of them at most, with its
    /// arguments but the limit and the offset. The tasks that pass are taken in the order
    /// the subquery gives them (SQLite reads a subquery with a `LIMIT` as it yields its
    /// rows), so the walk stops at the page's last: sorting them there would read every
    /// one the subquery may give first.
    static func dueWalkQuery(
        _ query: ListQuery, _ user: String, span: (sql: String, arguments: [any SQLArgument]), looking: Int
    ) -> (sql: String, arguments: [any SQLArgument]) {
        let (clause, arguments) = filterClause(query, user)
        return (
            "SELECT \(columns) FROM task WHERE id IN (SELECT id FROM (SELECT id, parent, position, uuid, due, done, wait"
                + " FROM task INDEXED BY task_dated_in_order WHERE profile_id = \(profileID) AND due IS NOT NULL ORDER BY parent, position, uuid LIMIT ?)"
                + " WHERE 1\(span.sql)\(clause) LIMIT ? OFFSET ?) ORDER BY parent, position, uuid",
            [user, looking] + span.arguments + arguments.dropFirst()
        )
    }

    /// The statement reading a page of a list, with its arguments but the limit and the
    /// offset. Results from every level come the top's first, then each task's subtasks.
    /// Equal positions (given by two replicas) are ordered by uuid, alike everywhere: the
    /// index `task_in_order` gives that order, so no page is sorted.
    static func pageQuery(_ query: ListQuery, _ user: String) -> (String, [any SQLArgument]) {
        if let word = listWord(query) {
            let (sql, arguments) = wordQuery(query, user, word: word, select: columns)
            return (sql + " ORDER BY under, place, tie LIMIT ? OFFSET ?", arguments)
        }
        if let day = dayHalves(query, user, select: "id, \(agendaOrder) AS soonest, uuid") {
            // The page's ids sorted from the two indexes alone, then only those tasks read.
            return (
                "SELECT \(columns) FROM task WHERE id IN (SELECT id FROM (\(day.due) UNION ALL \(day.scheduled))"
                    + " ORDER BY soonest, uuid LIMIT ? OFFSET ?) ORDER BY \(agendaOrder), uuid",
                day.arguments
            )
        }
        if let span = dueSpan(query) {
            let (clause, arguments) = filterClause(query, user)
            // The page's ids sorted from the index alone (it holds the order and the
            // filter's columns), then only those tasks read.
            return (
                "SELECT \(columns) FROM task WHERE id IN (SELECT id FROM task INDEXED BY task_by_due WHERE profile_id = \(profileID)"
                    + "\(span.sql)\(clause) ORDER BY parent, position, uuid LIMIT ? OFFSET ?) ORDER BY parent, position, uuid",
                [user] + span.arguments + arguments.dropFirst()
            )
        }
        let (clause, arguments) = whereClause(query, user)
        let order =
            switch query.scope {
            case .everywhere: "parent, position, uuid"
            case .agenda, .day: agendaOrder + ", uuid"
            case .top, .children: "position, uuid"
            }
        return ("SELECT \(columns) FROM task WHERE \(profileTerm(query))\(clause) ORDER BY \(order) LIMIT ? OFFSET ?", arguments)
    }

    public func task(_ user: String, id: Int) throws -> TaskItem? {
        try cached(cache.tasks, ReadCache.Task(user: user, id: id)) { db in
            try db.first("SELECT \(Self.columns) FROM task WHERE id = ? AND profile_id = \(Self.profileID)", [id, user], Self.task)
        }
    }

    public func chain(_ user: String, id: Int) throws -> [TaskItem] {
        try cached(cache.chains, ReadCache.Task(user: user, id: id)) { db in try Self.chain(db, user, id: id) }
    }

    public func descendantCount(_ user: String, id: Int) throws -> Int {
        try reading { db in try Self.below(db, user, id: id).count }
    }

    public func move(_ user: String, id: Int, under parent: Int?) throws -> TaskItem? {
        try writing { db in
            guard let before = try Self.stored(db, user, id: id) else { return nil }
            var above = 0
            if let parent {
                let chain = try Self.chain(db, user, id: parent).map(\.id)
                guard !chain.isEmpty else { throw NavError.noSuchTask(String(parent)) }
                guard !chain.contains(id) else { throw NavError.moveIntoItself(task: before.fields.title) }
                above = chain.count
            }
            // Already the first of its place: nothing to do (nor to undo).
            if before.parent == parent ?? 0,
                try db.first(
                    """
                    SELECT min(position) FROM task WHERE profile_id = \(Self.profileID) AND parent = ?
                    """, [user, before.parent], { $0.int(0) }) == before.position
            {
                return before.item
            }
            let levels = before.subtasks.total == 0 ? 1 : 1 + (try Self.below(db, user, id: id).map(\.level).max() ?? 0)
            guard above + levels <= TreeLimits.depth else { throw NavError.tooDeep(depth: above + levels) }
            var after = before
            after.parent = parent ?? 0
            after.position = try Self.newTop(db, user)
            after.rev += 1
            var log = try beginChange(db, user, .move)
            let pair = try Self.change(db, user, ChangePair(before: before, after: after), &log)
            return pair.after!.item
        }
    }

    public func task(_ user: String, uuid: String) throws -> TaskItem? {
        try reading { db in
            try db.first("SELECT \(Self.columns) FROM task WHERE uuid = ? AND profile_id = \(Self.profileID)", [uuid, user], Self.task)
        }
    }

    public func counts(_ user: String) throws -> TaskCounts {
        try cached(cache.counters, user) { db in
            let counters = try Self.counters(db, user)
            return TaskCounts(open: counters.total - counters.done, done: counters.done)
        }
    }

    public func insertAtTop(_ user: String, _ fields: DraftFields, under parent: Int?, as kind: ChangeKind) throws -> TaskItem {
        try writing { db in
            if let parent {
                let depth = try Self.chain(db, user, id: parent).count
                guard depth > 0 else { throw NavError.taskVanished(parent) }
                guard depth < TreeLimits.depth else { throw NavError.tooDeep(depth: depth + 1) }
            }
            var task = StoredTask(id: nil, position: try Self.newTop(db, user), uuid: uuids.make(), fields)
            task.parent = parent ?? 0
            var log = try beginChange(db, user, kind)
            let row = try Self.change(db, user, ChangePair(before: nil, after: task), &log)
            return row.after!.item
        }
    }

    public func write(_ user: String, id: Int, _ fields: [TaskField], from values: DraftFields, as kind: ChangeKind) throws -> TaskItem? {
        try update(user, id: id, as: kind) { stored in
            for field in fields { stored[field] = values[field] }
        }
    }

    public func toggle(_ user: String, id: Int) throws -> TaskItem? {
        try update(user, id: id, as: .toggle) { $0.done.toggle() }
    }

    /// Changes a task's fields as stored now, in one transaction; a change that sets
    /// nothing new writes nothing.
    private func update(_ user: String, id: Int, as kind: ChangeKind, _ change: (inout DraftFields) -> Void) throws -> TaskItem? {
        // A task keeps its place, so what was read stays true but for this task: the
        // cache is told what changed and mends it (a toggle then reads nothing again).
        try writing(touching: .oneTask) { db in
            guard let profile = try existingProfileID(db, user) else { return nil }
            // The task as the cache holds it, from the last change of it, when no other
            // write came between.
            let key = ReadCache.Task(user: user, id: id)
            let held = isCaching ? cache.storedTasks[key] : nil
            guard let before = try held ?? Self.stored(db, profile: profile, id: id) else { return nil }
            var after = before
            change(&after.fields)
            guard after.fields != before.fields else { return before.item }
            after.rev += 1
            var log = try beginChange(db, user, kind)
            let pair = try Self.change(db, user, ChangePair(before: before, after: after), &log)
            let item = pair.after?.item ?? after.item
            // An instance of a series marked done makes the next, in the same change
            // (undo takes both back); the store then holds one task more, which the
            // cache is told of too.
            if !before.fields.done, after.fields.done,
                let next = try Self.addNextInstance(db, user, after: pair.after ?? after, zone: clock.zone, &log)
            {
                if isCaching {
                    cache.changed(before.item, to: item, stored: pair.after, of: user)
                    cache.added(next, of: user)
                } else {
                    cache.wrote(.tasks)
                }
            } else if before.fields.done, !after.fields.done, try Self.takeBackNextInstance(db, user, of: after, &log) {
                cache.wrote(.tasks)
            } else if isCaching {
                cache.changed(before.item, to: item, stored: pair.after, of: user)
            }
            return item
        }
    }

    /// Adds the next instance of a recurring task just marked done, in its place (its
    /// parent and position: equal positions are ordered by uuid), unless it has no next
    /// one or the next one is there already: by its uuid, or an instance of the same
    /// series due then (``seriesHolds(_:_:instanceAfter:due:)``: Taskwarrior's own next
    /// instance, imported beside this one).
    ///
    /// The next instance's uuid is derived from the instance done (``nextInstanceUUID(after:)``):
    /// replicas that complete the same instance offline make the same task, which sync
    /// then merges into one, and completing, undoing and completing again makes the same
    /// uuid again. Returns the instance as stored, or nil when it added none.
    static func addNextInstance(
        _ db: Connection, _ user: String, after done: StoredTask, zone: Zone, _ log: inout ChangeLog
    ) throws -> StoredTask? {
        guard done.fields.recur != nil, let fields = Recurrence.nextInstance(of: done.fields, zone: zone) else { return nil }
        let uuid = nextInstanceUUID(after: done.uuid)
        guard try db.statement(uuidTaken).first({ $0.text(uuid) }, reading: { _ in true }) == nil,
            try !seriesHolds(db, user, instanceAfter: done, due: fields.due!.secondsSinceEpoch)
        else { return nil }
        var next = StoredTask(id: nil, position: done.position, uuid: uuid, fields)
        next.parent = done.parent
        return try change(db, user, ChangePair(before: nil, after: next), &log).after
    }

    /// Whether a task has a uuid.
    private static let uuidTaken = SQL("SELECT 1 FROM task WHERE uuid = ?")

    /// Deletes the next instance of a recurring task marked open again, while that one is
    /// open with no subtasks: the series' open instance is this one again (as when the
    /// completion is undone). Returns whether it deleted one.
    static func takeBackNextInstance(_ db: Connection, _ user: String, of reopened: StoredTask, _ log: inout ChangeLog) throws -> Bool {
        guard reopened.fields.recur != nil,
            let next = try stored(db, user, uuid: nextInstanceUUID(after: reopened.uuid)),
            !next.fields.done, next.subtasks.total == 0
        else { return false }
        _ = try change(db, user, ChangePair(before: next, after: nil), &log)
        return true
    }

    /// The uuid of the instance after the one with `uuid`: a version-8 uuid whose first 8
    /// bytes name the series (``seriesKey(of:)``, a SHA-256 of the first instance's uuid,
    /// as RFC 9562's name-based example makes them) and whose last 62 bits count the
    /// instances down from the largest number (``instanceNumber(of:)``). Every instance of
    /// a series after the first shares the first bytes, so instances are grouped without
    /// a field of their own; and as equal positions are ordered by uuid, the instances in
    /// one place (each takes the place of the one done) list the newest first, the open
    /// one above those done.
    static func nextInstanceUUID(after uuid: String) -> String {
        let largest = UInt64(1) << 62 - 1
        var number = instanceNumber(of: uuid)
        var bytes = seriesKey(of: uuid)
        // A version-8 uuid made elsewhere may end its count (its last 62 bits zero): its
        // next instance starts counting again under its own key, as a first instance's.
        if number == largest {
            number = 0
            bytes = firstKey(of: uuid)
        }
        let count = largest - (number + 1)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt64(shift))) }
        return version8UUID(bytes)
    }

    /// A name-based uuid of `name`: version 8, from the first 16 bytes of its SHA-256, as
    /// RFC 9562's example makes them.
    static func nameUUID(_ name: String) -> String {
        version8UUID(Array(SHA256.hash(Array(name.utf8)).prefix(16)))
    }

    /// 16 bytes as a version-8 uuid's text (RFC 9562): the version and variant bits set,
    /// then 8-4-4-4-12 lowercase hexadecimal digits.
    static func version8UUID(_ given: [UInt8]) -> String {
        var bytes = given
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// An instance's place in its series: 0 for the first (a uuid not derived here), else
    /// what its last 62 bits count down from the largest number.
    static func instanceNumber(of uuid: String) -> UInt64 {
        guard let bytes = uuidBytes(uuid), bytes[6] >> 4 == 8, bytes[8] >> 6 == 0b10 else { return 0 }
        let tail = bytes[8...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (UInt64(1) << 62 - 1) - (tail & (UInt64(1) << 62 - 1))
    }

    /// A uuid's 16 bytes from its text (either case, with or without dashes); `nil` for
    /// text that is not one.
    static func uuidBytes(_ uuid: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for character in uuid.utf8 where character != UInt8(ascii: "-") {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes.count == 16 && high == nil ? bytes : nil
    }

    /// The 8 bytes that name the series of the instance with `uuid`, as its bytes alone
    /// tell: the first 8 bytes of a uuid this store may have derived (version 8 in their
    /// version nibble), else (the series' first instance) ``firstKey(of:)``. Any import may
    /// bring a version-8 uuid, so instances alike here may still be of different series:
    /// ``SeriesFinder`` tells which.
    static func seriesKey(of uuid: String) -> [UInt8] {
        if let bytes = uuidBytes(uuid), bytes[6] >> 4 == 8 { return Array(bytes.prefix(8)) }
        return firstKey(of: uuid)
    }

    public func recreate(_ user: String, id: Int, uuid: String?, _ fields: DraftFields, as kind: ChangeKind) throws -> TaskItem {
        try writing { db in
            // Its place and revision as the log last saw it deleted; else the top.
            let deleted = try uuid.flatMap { try Self.lastDeleted(db, uuid: $0) }
            let position = try deleted?.position ?? Self.newTop(db, user)
            var task = StoredTask(id: id, position: position, uuid: uuid ?? uuids.make(), fields)
            task.rev = (deleted?.rev ?? 0) + 1
            // Under its parent, while that is there; else at the top of the list.
            if let parent = deleted?.parent, parent != 0, try Self.isRooted(db, user, id: parent) {
                task.parent = parent
            }
            var log = try beginChange(db, user, kind)
            let pair = try Self.change(db, user, ChangePair(before: nil, after: task), &log)
            return pair.after!.item
        }
    }

    public func delete(_ user: String, id: Int) throws -> Bool {
        try writing { db in
            guard let before = try Self.stored(db, user, id: id) else { return false }
            // The deepest first: every task deleted has no subtasks left, and undo, going
            // the other way, brings each parent back before its subtasks.
            let below = before.subtasks.total == 0 ? [] : try Self.below(db, user, id: id).map(\.task)
            var log = try beginChange(db, user, .delete)
            for task in below + [before] {
                _ = try Self.change(db, user, ChangePair(before: task, after: nil), &log)
            }
            return true
        }
    }

    /// A read, answered from the cache when a store in memory made it before.
    private func cached<Key: Hashable, Value>(
        _ answers: ReadCache.Answers<Key, Value>, _ key: Key,
        _ read: (Connection) throws -> Value
    ) throws -> Value {
        if isCaching, let value = answers[key] { return value }
        let value = try reading(read)
        if isCaching { answers[key] = value }
        return value
    }

    // MARK: - Rows and counters

    /// ` AND parent = ? AND done = ? AND …` for a query, and the arguments that start
    /// with the profile.
    static func whereClause(_ query: ListQuery, _ user: String) -> (String, [any SQLArgument]) {
        var sql = ""
        var arguments: [any SQLArgument] = [user]
        switch query.scope {
        case .top: sql += " AND parent = 0"
        case .children(let id):
            sql += " AND parent = ?"
            arguments.append(id)
        case .everywhere: break
        // As the index `task_on_agenda` is made, so it serves.
        case .agenda: sql += " AND (due IS NOT NULL OR scheduled IS NOT NULL)"
        case .day(let from, let before):
            // Each date's own index answers its half.
            sql += """
                 AND id IN (SELECT id FROM task WHERE profile_id = \(profileOfFirstArgument) AND due >= ? AND due < ?
                    UNION ALL SELECT id FROM task WHERE profile_id = \(profileOfFirstArgument) AND scheduled >= ? AND scheduled < ?)
                 AND (done OR wait IS NULL OR wait < ?)
                """
            arguments += [from.secondsSinceEpoch, before.secondsSinceEpoch, from.secondsSinceEpoch, before.secondsSinceEpoch]
            arguments.append(before.secondsSinceEpoch)
        }
        let now = query.now.secondsSinceEpoch
        switch query.filter {
        case .all:
            sql += " AND (done OR wait IS NULL OR wait <= ?)"
            arguments.append(now)
        case .open:
            sql += " AND done = 0 AND (wait IS NULL OR wait <= ?)"
            arguments.append(now)
        case .done:
            sql += " AND done = 1"
        case .waiting:
            sql += " AND done = 0 AND wait > ?"
            arguments.append(now)
        case .every:
            break
        }
        // A tag or project the words' table answers is looked up there (`profileTerm` then
        // keeps the profile's index out of the plan); any other is matched on each task.
        for (kind, term, match) in [
            (WordKind.tag, query.terms.tag, "tags != '' AND navstack_has_tag(tags, ?)"),
            (.project, query.terms.project, "project IS NOT NULL AND navstack_in_project(project, ?)"),
        ] {
            guard let term else { continue }
            if let word = listWord(kind, term) {
                sql += " AND id IN (SELECT task_id FROM task_word WHERE profile = \(profileOfFirstArgument) AND word = ?)"
                arguments.append(word)
            } else {
                sql += " AND " + match
                arguments.append(term)
            }
        }
        if let priority = query.terms.priority {
            sql += " AND priority = ?"
            arguments.append(priority.rawValue)
        }
        switch query.terms.due {
        case nil: break
        case .none?: sql += " AND due IS NULL"
        case .any?: sql += " AND due IS NOT NULL"
        default:
            // The tasks due in the span, from the index of `due` (see `profileTerm`).
            let bounds = dueBounds(query)
            sql += " AND id IN (SELECT id FROM task WHERE profile_id = \(profileOfFirstArgument)\(bounds.sql))"
            arguments += bounds.arguments
        }
        if let search = query.search {
            // The annotations' texts too (not their instants nor JSON's own words).
            arguments.append(search)
            let text = "?\(arguments.count)"
            sql += """
                 AND (navstack_matches(title, notes, \(text)) OR annotations != '' AND navstack_matches(
                    '', (SELECT group_concat(value ->> 'text', char(10)) FROM json_each(annotations)), \(text)))
                """
        }
        return (sql, arguments)
    }

    /// The word of a list that one tag or one project alone narrows, with no search:
    /// `#home`, `@home.garden` (``listWord(_:_:)``). Such a list is read from `task_word`,
    /// whose key holds a word's tasks in list order.
    static func listWord(_ query: ListQuery) -> String? {
        guard query.scope == .everywhere, query.search == nil, query.terms.priority == nil, query.terms.due == nil else { return nil }
        switch (query.terms.tag, query.terms.project) {
        case (let tag?, nil): return listWord(.tag, tag)
        case (nil, let project?): return listWord(.project, project)
        default: return nil
        }
    }

    /// `SELECT select` of a word's tasks (``listWord(_:)``) that the query's filter keeps,
    /// from `task_word` in list order, each task read by its id; the arguments.
    static func wordQuery(_ query: ListQuery, _ user: String, word: String, select: String) -> (String, [any SQLArgument]) {
        let (clause, arguments) = filterClause(query, user)
        return (
            "SELECT \(select) FROM task_word CROSS JOIN task ON task.id = task_word.task_id WHERE task_word.profile = \(profileID)"
                + "\(clause) AND task_word.word = ?", arguments + [word]
        )
    }

    /// The query's filter alone (its terms left out), as ``whereClause(_:_:)`` writes it.
    static func filterClause(_ query: ListQuery, _ user: String) -> (String, [any SQLArgument]) {
        var filtered = query
        filtered.terms = ListTerms()
        return whereClause(filtered, user)
    }

    /// The span of a list that a due term with dates alone narrows (`due:week`, no search,
    /// tag, project or priority), as SQL after `profile_id = …` and its arguments.
    static func dueSpan(_ query: ListQuery) -> (sql: String, arguments: [any SQLArgument])? {
        guard query.scope == .everywhere, query.search == nil, query.terms.tag == nil, query.terms.project == nil,
            query.terms.priority == nil, query.terms.due != nil, query.dueFrom != nil || query.dueBefore != nil
        else { return nil }
        return dueBounds(query)
    }

    /// A day's tasks that the filter keeps (a day with no search nor terms), as two
    /// statements that `SELECT select`, each from the index of one date alone: those due
    /// that day, and those scheduled that day and not due on it. The arguments are those
    /// of both, in order.
    static func dayHalves(_ query: ListQuery, _ user: String, select: String)
        -> (due: String, scheduled: String, arguments: [any SQLArgument])?
    {
        guard case .day(let from, let before) = query.scope, query.search == nil, query.terms == ListTerms() else { return nil }
        var everywhere = query
        everywhere.scope = .everywhere
        let (clause, filter) = whereClause(everywhere, user)
        let (start, end) = (from.secondsSinceEpoch, before.secondsSinceEpoch)
        // A task waiting past the day is not on it.
        let shown = " AND (done OR wait IS NULL OR wait < ?)\(clause)"
        let due = "SELECT \(select) FROM task INDEXED BY task_by_due WHERE profile_id = \(profileID) AND due >= ? AND due < ?\(shown)"
        let scheduled =
            "SELECT \(select) FROM task INDEXED BY task_by_scheduled WHERE profile_id = \(profileID)"
            + " AND scheduled >= ? AND scheduled < ? AND (due IS NULL OR due < ? OR due >= ?)\(shown)"
        let arguments: [any SQLArgument] = [user, start, end, end] + filter.dropFirst()
        return (due, scheduled, arguments + [user, start, end, start, end, end] + filter.dropFirst())
    }

    /// ` AND due IS NOT NULL AND due >= ? AND due < ?`, with the bounds the query's due
    /// term has, and their arguments.
    private static func dueBounds(_ query: ListQuery) -> (sql: String, arguments: [any SQLArgument]) {
        var sql = " AND due IS NOT NULL"
        var arguments: [any SQLArgument] = []
        if let from = query.dueFrom {
            sql += " AND due >= ?"
            arguments.append(from.secondsSinceEpoch)
        }
        if let before = query.dueBefore {
            sql += " AND due < ?"
            arguments.append(before.secondsSinceEpoch)
        }
        return (sql, arguments)
    }

    /// `profile_id = …`, the first term of a list's statement. A day's tasks, those a due
    /// term bounds and those of a tag or a project are looked up by id from the indexes of
    /// their dates or the words' table: there the
    /// profile's index is kept out of the plan (`+`), which would otherwise walk every
    /// task of the profile.
    static func profileTerm(_ query: ListQuery) -> String {
        if case .day = query.scope { return "+profile_id = \(profileID)" }
        if query.terms.due != nil, query.dueFrom != nil || query.dueBefore != nil { return "+profile_id = \(profileID)" }
        if listWord(.tag, query.terms.tag) != nil || listWord(.project, query.terms.project) != nil {
            return "+profile_id = \(profileID)"
        }
        return "profile_id = \(profileID)"
    }

    /// The agenda's order: the earlier of a task's `due` and `scheduled` dates, as the
    /// index `task_on_agenda` has it.
    static let agendaOrder = "coalesce(min(due, scheduled), due, scheduled)"

    /// Whether the query's filter hides none of the profile's tasks now: `every`, or `all`
    /// while no open task waits.
    static func hidesNone(_ db: Connection, _ user: String, _ query: ListQuery) throws -> Bool {
        try query.filter == .every || (query.filter == .all && !anyWaiting(db, user, at: query.now))
    }

    /// Whether the profile has an open task whose `wait` is after `now`.
    static func anyWaiting(_ db: Connection, _ user: String, at now: Instant) throws -> Bool {
        try db.statement(waitingProbe).first(
            {
                $0.text(user)
                $0.int(now.secondsSinceEpoch)
            }, reading: { _ in true }) ?? false
    }

    /// One look at the index of `wait`.
    private static let waitingProbe = SQL("SELECT 1 FROM task WHERE profile_id = \(profileID) AND wait > ? AND done = 0 LIMIT 1")

    /// A profile's counts of all its tasks (or of the columns named).
    static func counters(_ db: Connection, _ user: String, _ columns: String = "total, done") throws -> (total: Int, done: Int) {
        try db.first("SELECT \(columns) FROM profile WHERE name = ?", [user]) { ($0.int(0), $0.int(1)) } ?? (0, 0)
    }

    /// A task and the tasks above it, from the top of the tree down to it; empty when it
    /// does not exist. In a broken tree the chain stops short: its first task has a parent
    /// (one that is missing), or it runs past the depth limit (a loop).
    static func chain(_ db: Connection, _ user: String, id: Int) throws -> [TaskItem] {
        // Most tasks shown are at the top: their chain is themselves.
        guard
            let task = try db.first(
                "SELECT \(columns) FROM task WHERE id = ? AND profile_id = \(profileID)",
                [id, user], Self.task)
        else { return [] }
        guard task.parent != nil else { return [task] }
        let columns = columns.split(separator: ", ").map { "t." + $0 }.joined(separator: ", ")
        return try db.statement(
            """
            WITH RECURSIVE up(id, level) AS (
                SELECT ?, 0
                UNION ALL
                SELECT t.parent, up.level + 1 FROM up JOIN task AS t ON t.id = up.id
                WHERE t.parent != 0 AND up.level <= \(TreeLimits.depth))
            SELECT \(columns) FROM up JOIN task AS t ON t.id = up.id
            WHERE t.profile_id = \(profileID) ORDER BY up.level DESC
            """
        ).all([id, user], Self.task)
    }

    /// The tasks below a task, at every level, the deepest first, each with how many
    /// levels below it is (1 for its own subtasks).
    static func below(_ db: Connection, _ user: String, id: Int) throws -> [(task: StoredTask, level: Int)] {
        try db.statement(
            """
            WITH RECURSIVE down(id, level) AS (
                SELECT ?, 0
                UNION ALL
                SELECT t.id, down.level + 1 FROM down JOIN task AS t
                ON t.profile_id = (SELECT id FROM profile WHERE name = ?2) AND t.parent = down.id
                WHERE down.level <= \(TreeLimits.depth))
            SELECT \(storedColumns(of: "t")), down.level FROM down JOIN task AS t ON t.id = down.id
            WHERE down.level > 0 ORDER BY down.level DESC, t.position
            """
        ).all([id, user]) { (storedTask($0), $0.int(10 + attributeCount)) }
    }

    /// A task with its place in the list.
    static func stored(_ db: Connection, _ user: String, id: Int) throws -> StoredTask? {
        try db.first("SELECT \(storedColumns) FROM task WHERE id = ? AND profile_id = \(profileID)", [id, user], storedTask)
    }

    /// The task with this id, when the profile has it.
    static func stored(_ db: Connection, profile: Int64, id: Int) throws -> StoredTask? {
        try db.statement(storedByID).first(
            {
                $0.int(id)
                $0.int(profile)
            }, reading: storedTask)
    }

    private static let storedByID = SQL("SELECT \(storedColumns) FROM task WHERE id = ? AND profile_id = ?")

    /// A row of ``storedColumns`` as a task with its place.
    static func storedTask(_ row: Row) -> StoredTask {
        var fields = DraftFields(title: row.text(4), notes: row.text(5), done: row.bool(6))
        let stamps = readAttributes(row, at: 10, into: &fields)
        var task = StoredTask(id: row.int(0), position: row.int(1), uuid: row.text(2), fields)
        task.stamps = stamps
        task.rev = row.int(3)
        task.parent = row.int(7)
        task.subtasks = SubtaskCounts(done: row.int(9), total: row.int(8))
        return task
    }

    /// A position above every task the profile has had: a place at the top of the list.
    static func newTop(_ db: Connection, _ user: String) throws -> Int {
        try db.first("SELECT top - 1 FROM profile WHERE name = ?", [user]) { $0.int(0) } ?? 0
    }

    /// Adds a task at the bottom of the list, unrecorded (sample tasks).
    static func append(_ db: Connection, _ user: String, _ fields: DraftFields, uuid: String) throws -> StoredTask {
        let position = try db.first("SELECT bottom + 1 FROM profile WHERE name = ?", [user]) { $0.int(0) } ?? 0
        return try insert(db, user, StoredTask(id: nil, position: position, uuid: uuid, fields))
    }

    /// Inserts a task (with its id when it had one), keeping the counters and the
    /// positions given so far; `keepingStamps`: with its stamps as they are (sync's).
    static func insert(_ db: Connection, _ user: String, _ task: StoredTask, keepingStamps: Bool = false) throws -> StoredTask {
        let task = keepingStamps ? task : stamped(task, replacing: nil, at: db.now)
        try insertRow(db, user, task)
        // At the top of the list, the profile's counts of its tasks and of the top's at once.
        try db.statement(task.parent == 0 ? countInsertedAtTop : countInserted).run {
            $0.int(task.fields.done ? 1 : 0)
            $0.int(task.position)
            $0.text(user)
        }
        if task.parent != 0 { try countSubtask(db, user, parent: task.parent, total: 1, done: task.fields.done ? 1 : 0) }
        var inserted = task
        inserted.id = task.id ?? Int(db.lastInsertedRowID)
        if task.id != nil {
            // A task brought back finds the subtasks brought back before it.
            try db.run(
                """
                UPDATE task SET subtasks = (SELECT count(*) FROM task AS s WHERE s.profile_id = task.profile_id AND s.parent = task.id),
                    subtasks_done = (SELECT count(*) FROM task AS s WHERE s.profile_id = task.profile_id AND s.parent = task.id AND s.done)
                WHERE id = ?
                """, [task.id])
            inserted.subtasks =
                try db.first("SELECT subtasks_done, subtasks FROM task WHERE id = ?", [task.id]) {
                    SubtaskCounts(done: $0.int(0), total: $0.int(1))
                } ?? SubtaskCounts()
        }
        return inserted
    }

    /// The task's row alone, without the counts of its profile and parent.
    static func insertRow(_ db: Connection, _ user: String, _ task: StoredTask) throws {
        try db.statement(insertTask).run {
            $0.int(task.id)
            $0.text(user)
            $0.int(task.position)
            $0.text(task.fields.title)
            $0.text(task.fields.notes)
            $0.bool(task.fields.done)
            $0.text(task.uuid)
            $0.int(task.rev)
            $0.int(task.parent)
            $0.attributes(task.fields, task.stamps)
        }
    }

    /// The statements of a task inserted: its row, and its profile's counts.
    private static let insertTask = SQL(
        """
        INSERT INTO task (id, profile_id, position, title, notes, done, uuid, rev, parent, \(attributeColumns))
        VALUES (?, \(profileID), ?, ?, ?, ?, ?, ?, ?, \(attributePlaceholders))
        """)
    private static let countInserted = SQL(
        "UPDATE profile SET total = total + 1, done = done + ?1, top = min(top, ?2), bottom = max(bottom, ?2) WHERE name = ?3")
    private static let countInsertedAtTop = SQL(
        """
        UPDATE profile SET total = total + 1, done = done + ?1, top = min(top, ?2), bottom = max(bottom, ?2),
            roots = roots + 1, roots_done = roots_done + ?1 WHERE name = ?3
        """)

    /// Counts tasks joining (positive) or leaving (negative) a parent's subtasks, or the
    /// top of the list (parent 0).
    static func countSubtask(_ db: Connection, _ user: String, parent: Int, total: Int, done: Int) throws {
        guard total != 0 || done != 0 else { return }
        if parent == 0 {
            try db.statement(countRoots).run {
                $0.int(total)
                $0.int(done)
                $0.text(user)
            }
        } else {
            try db.statement(countSubtasks).run {
                $0.int(total)
                $0.int(done)
                $0.int(parent)
            }
        }
    }

    private static let countRoots = SQL("UPDATE profile SET roots = roots + ?, roots_done = roots_done + ? WHERE name = ?")
    private static let countSubtasks = SQL(
        "UPDATE task SET subtasks = subtasks + ?, subtasks_done = subtasks_done + ? WHERE id = ?")

    /// Makes a change of one task and logs its operations with `log`: the pair as made
    /// (an inserted task with its id).
    static func change(_ db: Connection, _ user: String, _ pair: ChangePair, _ log: inout ChangeLog) throws -> ChangePair {
        let made = ChangePair(
            before: pair.before, after: try put(db, user, pair.after, replacing: pair.before, profile: log.profile))
        try Self.log(db, user, made, &log)
        return made
    }

    /// Makes the store hold `task` where it held `old`: an update, an insert (`old` nil)
    /// or a delete (`task` nil). Returns `task` as stored (an inserted one with its id).
    /// `keepingStamps`: with the stamps `task` has (sync's, from the registers), not the
    /// store's.
    static func put(
        _ db: Connection, _ user: String, _ task: StoredTask?, replacing old: StoredTask?, profile: Int64,
        keepingStamps: Bool = false
    ) throws -> StoredTask? {
        switch (old, task) {
        case (nil, nil):
            return nil
        case (nil, let task?):
            return try insert(db, user, task, keepingStamps: keepingStamps)
        case (let old?, nil):
            try db.run("DELETE FROM task WHERE id = ? AND profile_id = \(Self.profileID)", [old.id, user])
            try db.run("UPDATE profile SET total = total - 1, done = done - ? WHERE name = ?", [old.fields.done ? 1 : 0, user])
            try countSubtask(db, user, parent: old.parent, total: -1, done: old.fields.done ? -1 : 0)
            return nil
        case (let old?, let task?):
            let task = keepingStamps ? task : stamped(task, replacing: old, at: db.now)
            let moved = task.position != old.position || task.parent != old.parent
            // A task that keeps its place (most changes) leaves its index entries in list
            // order alone.
            if moved {
                try db.run(
                    """
                    UPDATE task SET title = ?, notes = ?, done = ?, rev = ?, parent = ?, position = ?, \(attributeAssignments)
                    WHERE id = ? AND profile_id = \(Self.profileID)
                    """,
                    [task.fields.title, task.fields.notes, task.fields.done, task.rev, task.parent, task.position]
                        + attributeArguments(task.fields, task.stamps) + [old.id, user])
                try db.run(
                    "UPDATE profile SET top = min(top, ?), bottom = max(bottom, ?) WHERE name = ?",
                    [task.position, task.position, user])
            } else if !task.fields.hasSameAttributes(as: old.fields) || task.stamps.created != old.stamps.created
                || task.stamps.completed != old.stamps.completed && task.fields.done == old.fields.done
            {
                // What the task holds beyond its first fields changed: every column.
                try db.statement(updateAll).run {
                    $0.text(task.fields.title)
                    $0.text(task.fields.notes)
                    $0.bool(task.fields.done)
                    $0.int(task.rev)
                    $0.attributes(task.fields, task.stamps)
                    $0.int(old.id)
                    $0.int(profile)
                }
            } else if task.fields.done != old.fields.done {
                // A toggle: the first fields and the stamps it moves.
                try db.statement(updateInPlace).run {
                    $0.text(task.fields.title)
                    $0.text(task.fields.notes)
                    $0.bool(task.fields.done)
                    $0.int(task.rev)
                    $0.int(task.stamps.modified?.secondsSinceEpoch)
                    $0.int(task.stamps.completed?.secondsSinceEpoch)
                    $0.int(old.id)
                    $0.int(profile)
                }
            } else {
                // `done` is in the list-order index: a statement that sets it rewrites the
                // task's entry there, though its value stays (a sixth of a save's SQL).
                try db.statement(updateText).run {
                    $0.text(task.fields.title)
                    $0.text(task.fields.notes)
                    $0.int(task.rev)
                    $0.int(task.stamps.modified?.secondsSinceEpoch)
                    $0.int(old.id)
                    $0.int(profile)
                }
            }
            let delta = (task.fields.done ? 1 : 0) - (old.fields.done ? 1 : 0)
            if delta != 0 && task.parent == 0 && old.parent == 0 {
                // A task at the top, done or not done: the profile's two counts at once.
                try db.statement(countRootDone).run {
                    $0.int(delta)
                    $0.int(profile)
                }
            } else {
                if delta != 0 {
                    try db.run("UPDATE profile SET done = done + ? WHERE name = ?", [delta, user])
                }
                if task.parent != old.parent {
                    try countSubtask(db, user, parent: old.parent, total: -1, done: old.fields.done ? -1 : 0)
                    try countSubtask(db, user, parent: task.parent, total: 1, done: task.fields.done ? 1 : 0)
                } else if delta != 0 {
                    try countSubtask(db, user, parent: task.parent, total: 0, done: delta)
                }
            }
            var written = task
            written.subtasks = old.subtasks
            return written
        }
    }

    /// The statements of a change that leaves a task in its place (most changes).
    private static let updateInPlace = SQL(
        "UPDATE task SET title = ?, notes = ?, done = ?, rev = ?, modified = ?, completed = ? WHERE id = ? AND profile_id = ?")
    private static let updateText = SQL("UPDATE task SET title = ?, notes = ?, rev = ?, modified = ? WHERE id = ? AND profile_id = ?")
    private static let updateAll = SQL(
        "UPDATE task SET title = ?, notes = ?, done = ?, rev = ?, \(attributeAssignments) WHERE id = ? AND profile_id = ?")
    private static let countRootDone = SQL("UPDATE profile SET done = done + ?1, roots_done = roots_done + ?1 WHERE id = ?2")

    // MARK: - The operation log

    /// The columns an operation is appended with.
    private static let appended = "INSERT INTO op (profile_id, kind, task_uuid, field, old, new, millis, part, writer)"
    static let appendOperation = SQL("\(appended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    /// A parent's uuid as an operation names it (JSON; null: the top of the list), from
    /// its id.
    private static let parentUUID = "coalesce((SELECT json_quote(uuid) FROM task WHERE id = ?), 'null')"

    /// A task as the log last saw it deleted (a `task` operation's old value).
    static func lastDeleted(_ db: Connection, uuid: String) throws -> StoredTask? {
        try db.first(
            "SELECT old FROM op WHERE task_uuid = ? AND field = 'task' AND new IS NULL ORDER BY seq DESC LIMIT 1", [uuid]
        ) { JSONValue(parsing: $0.text(0)).flatMap(StoredTask.init(json:)) } ?? nil
    }

    /// Appends a change's operations to the log: `task` for a task created (`old` null,
    /// `new` the task) or deleted (the other way round), else one operation a field it
    /// set, with the old and new values as JSON. The log is also what `undo` and `redo`
    /// read (``ChangeLog``).
    static func log(_ db: Connection, _ user: String, _ pair: ChangePair, _ log: inout ChangeLog) throws {
        let insert = try db.statement(appendOperation)
        let now = Int(milliseconds())
        func append(_ uuid: String, _ field: String, _ old: String?, _ new: String?) throws {
            let (part, writer) = log.next()
            try insert.run {
                $0.int(log.profile)
                $0.text(log.kind)
                $0.text(uuid)
                $0.text(field)
                $0.text(old)
                $0.text(new)
                $0.int(now)
                $0.int(part)
                $0.text(writer)
            }
        }
        switch (pair.before, pair.after) {
        case (nil, nil):
            return
        case (nil, let after?):
            try append(after.uuid, "task", nil, after.json)
        case (let before?, nil):
            try append(before.uuid, "task", before.json, nil)
        case (let before?, let after?):
            for field in after.fields.changedFields(from: before.fields) {
                try append(after.uuid, field.rawValue, before.fields[field].json, after.fields[field].json)
            }
            if after.parent != before.parent {
                // The parents by uuid (null: the top of the list), as other stores know them.
                let (part, writer) = log.next()
                try db.run(
                    """
                    \(appended) VALUES (?, ?, ?, 'parent', \(parentUUID), \(parentUUID), ?, ?, ?)
                    """, [log.profile, log.kind, after.uuid, before.parent, after.parent, now, part, writer])
            }
            if after.position != before.position {
                if after.parent == before.parent {
                    // For undo alone (never sent): the parent it stayed under, which undoing
                    // the move checks it still is.
                    let (part, writer) = log.next()
                    try db.run(
                        """
                        \(appended) VALUES (?, ?, ?, 'under', NULL, \(parentUUID), ?, ?, ?)
                        """, [log.profile, log.kind, after.uuid, after.parent, now, part, writer])
                }
                // Its place among its new siblings, for another store to order them alike.
                try append(after.uuid, "position", String(before.position), String(after.position))
            }
        }
    }

    /// Logs an import or its undoing: one operation for the range of ids it added
    /// (`new` the range when they come, `old` when they go).
    static func logImport(_ db: Connection, _ user: String, first: Int, last: Int, adding: Bool, _ log: inout ChangeLog) throws {
        let range = "{\"first\":\(first),\"last\":\(last)}"
        let (part, writer) = log.next()
        try db.run(
            "\(appended) VALUES (?, ?, NULL, 'import', ?, ?, ?, ?, ?)",
            [log.profile, log.kind, adding ? nil : range, adding ? range : nil, Int(milliseconds()), part, writer])
    }
}

/// A task as the store keeps it: with its position in the list.
struct StoredTask: Equatable {
    var id: Int?
    var position: Int
    var uuid: String
    var rev = 1
    var fields: DraftFields
    /// The task it is a subtask of; 0 at the top of the list.
    var parent = 0
    /// Its subtasks as last counted (kept by the store, never written from here).
    var subtasks = SubtaskCounts()
    /// When it was made, changed and done (set by the store as it writes).
    var stamps = TaskStamps()

    init(id: Int?, position: Int, uuid: String, _ fields: DraftFields) {
        self.id = id
        self.position = position
        self.uuid = uuid
        self.fields = fields
    }

    var item: TaskItem {
        TaskItem(id: id ?? 0, uuid: uuid, fields: fields, parent: parent == 0 ? nil : parent, subtasks: subtasks, stamps: stamps)
    }

    var json: String {
        var writer = JSONWriter()
        // A task's JSON is a few hundred bytes: one buffer, not several grown.
        writer.reserveCapacity(512)
        write(to: &writer)
        return writer.text
    }

    /// `{"id","position","uuid","rev","title","notes","done","parent"}` (`parent` only
    /// for a subtask).
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("id")
            if let id { json.number(id) } else { json.string(nil) }
            json.key("position"); json.number(position)
            json.key("uuid"); json.string(uuid)
            json.key("rev"); json.number(rev)
            json.key("title"); json.string(fields.title)
            json.key("notes"); json.string(fields.notes)
            json.key("done"); json.bool(fields.done)
            if parent != 0 { json.key("parent"); json.number(parent) }
            fields.writeSetAttributes(to: &json)
            if let created = stamps.created { json.key("created"); json.string(created.iso8601) }
            if let modified = stamps.modified { json.key("modified"); json.string(modified.iso8601) }
            if let completed = stamps.completed { json.key("completed"); json.string(completed.iso8601) }
        }
    }

    /// Reads ``write(to:)``'s JSON back; a record written before tasks had uuids has
    /// none (`""`) and revision 1.
    init?(json value: JSONValue) {
        guard let id = value["id"]?.number, let position = value["position"]?.number, let title = value["title"]?.string,
            let notes = value["notes"]?.string, let done = value["done"]?.bool
        else { return nil }
        self.init(id: id, position: position, uuid: value["uuid"]?.string ?? "", DraftFields(title: title, notes: notes, done: done))
        rev = value["rev"]?.number ?? 1
        parent = value["parent"]?.number ?? 0
        guard fields.readSetAttributes(from: value) else { return nil }
        stamps = TaskStamps(
            created: value["created"]?.string.flatMap(Instant.init(iso8601:)),
            modified: value["modified"]?.string.flatMap(Instant.init(iso8601:)),
            completed: value["completed"]?.string.flatMap(Instant.init(iso8601:)))
    }
}

/// What a store in memory read since it last wrote, by what was asked.
///
/// The one owner of what is read again without asking SQLite: every write tells it what
/// it touched (``wrote(_:)``), and it alone decides what that drops or mends.
final class ReadCache {
    /// What a write touches.
    enum Write {
        /// Where a session is (the session, a profile's navigation state): nothing read
        /// here changes.
        case navigation
        /// Tasks, their counts, places or history: everything read is dropped.
        case tasks
        /// One task's fields, in place: the write tells what changed
        /// (``changed(_:to:stored:of:)``), which mends what was read.
        case oneTask
        /// The store changed in a way no write of this process told (a rollback, another
        /// process once the shared transaction ends): everything read is dropped.
        case elsewhere
    }

    /// Drops what a write of `write` makes wrong.
    func wrote(_ write: Write) {
        switch write {
        case .navigation, .oneTask: break
        case .tasks, .elsewhere: forgetAll()
        }
    }

    /// Mends what was read for a task whose fields changed in place from `before` to
    /// `after` (same id, same place), `stored` as the write left it. A subtask's change
    /// moves its parent's counts too, so then everything goes.
    func changed(_ before: TaskItem, to after: TaskItem, stored: StoredTask?, of user: String) {
        guard before.parent == nil else { return forgetAll() }
        replace(before, with: after, of: user)
        storedTasks[Task(user: user, id: after.id)] = stored
    }

    private func forgetAll() {
        madeCounts?.removeAll()
        madePages?.removeAll()
        madeTasks?.removeAll()
        madeChains?.removeAll()
        madeCounters?.removeAll()
        madeStoredTasks?.removeAll()
        nothingUndone.removeAll()
    }

    struct Query: Hashable {
        var user: String
        var query: ListQuery
        var offset: Int
        var limit: Int
    }

    struct Task: Hashable {
        var user: String
        var id: Int
    }

    /// Answers to one kind of question. The one asked for or given last is kept apart: a
    /// screen asks for the same task, page and count again and again, and a change of a
    /// task gives its answer again; it goes into the table only when another key comes.
    final class Answers<Key: Hashable, Value> {
        private var values: [Key: Value] = [:]
        private var last: (key: Key, value: Value)?
        /// Whether `values` holds `last` too.
        private var lastIsInValues = true

        subscript(key: Key) -> Value? {
            get {
                if let last, last.key == key { return last.value }
                guard let value = values[key] else { return nil }
                keepLast(key, value, inValues: true)
                return value
            }
            set {
                if let last, last.key == key {
                    guard let newValue else {
                        self.last = nil
                        lastIsInValues = true
                        values[key] = nil
                        return
                    }
                    self.last = (key, newValue)
                    lastIsInValues = false
                    return
                }
                guard let newValue else {
                    values[key] = nil
                    return
                }
                keepLast(key, newValue, inValues: false)
            }
        }

        /// Makes `key` the last, putting the one before into the table first.
        private func keepLast(_ key: Key, _ value: Value, inValues: Bool) {
            putLastInValues()
            last = (key, value)
            lastIsInValues = inValues
        }

        /// Puts the last answer into the table, when it is not there yet.
        private func putLastInValues() {
            if let last, !lastIsInValues {
                // A bounded table: a long walk over many tasks (completing a series, day
                // after day) starts it again rather than growing it.
                if values.count >= Self.limit { values.removeAll(keepingCapacity: true) }
                values[last.key] = last.value
            }
            lastIsInValues = true
        }

        /// The most answers kept besides the last.
        static var limit: Int { 256 }

        /// Changes every answer in place, or forgets it (`change` returns false).
        func update(_ change: (Key, inout Value) -> Bool) {
            putLastInValues()
            last = nil
            guard !values.isEmpty else { return }
            var forgotten: [Key] = []
            var index = values.startIndex
            while index != values.endIndex {
                let key = values.keys[index]
                if !change(key, &values.values[index]) { forgotten.append(key) }
                values.formIndex(after: &index)
            }
            for key in forgotten { values[key] = nil }
        }

        /// Changes the answer to `key` in place, when there is one.
        func update(_ key: Key, _ change: (inout Value) -> Void) {
            if var kept = last, kept.key == key {
                // Forgotten while it changes, so the value is not shared.
                last = nil
                change(&kept.value)
                last = kept
                lastIsInValues = false
                return
            }
            guard let index = values.index(forKey: key) else { return }
            change(&values.values[index])
        }

        func removeAll() {
            values.removeAll()
            last = nil
            lastIsInValues = true
        }

        /// Whether an answer's key is one `test` picks.
        func containsKey(where test: (Key) -> Bool) -> Bool {
            if let last, test(last.key) { return true }
            return values.keys.contains(where: test)
        }
    }

    // Each table is made when first asked: making one makes its generic types' metadata
    // (about 65,000 instructions each), which a command that asks no such question, or
    // a start-up, need not pay.
    var counts: Answers<Query, Int> { made(&madeCounts) }
    var pages: Answers<Query, [TaskItem]> { made(&madePages) }
    /// A task, or `nil` for one that does not exist.
    var tasks: Answers<Task, TaskItem?> { made(&madeTasks) }
    /// A task's chain, empty for one that does not exist.
    var chains: Answers<Task, [TaskItem]> { made(&madeChains) }
    var counters: Answers<String, TaskCounts> { made(&madeCounters) }
    /// Tasks with their place and revision, as the last change of each left them.
    var storedTasks: Answers<Task, StoredTask> { made(&madeStoredTasks) }
    private var madeCounts: Answers<Query, Int>?
    private var madePages: Answers<Query, [TaskItem]>?
    private var madeTasks: Answers<Task, TaskItem?>?
    private var madeChains: Answers<Task, [TaskItem]>?
    private var madeCounters: Answers<String, TaskCounts>?
    private var madeStoredTasks: Answers<Task, StoredTask>?

    private func made<Key, Value>(_ answers: inout Answers<Key, Value>?) -> Answers<Key, Value> {
        if let answers { return answers }
        let new = Answers<Key, Value>()
        answers = new
        return new
    }
    /// Profiles known to have nothing undone (nothing `redo` could bring back).
    var nothingUndone: Set<Int64> = []

    /// Mends what was read for a task changed in place (same id, same position): counts
    /// move by what the task left or joined; a page it stays on shows it changed; a page
    /// it left or joined is forgotten, as rows after it move.
    private func replace(_ old: TaskItem, with new: TaskItem, of user: String) {
        precondition(old.parent == nil && new.parent == nil, "a task changed in place at the top of the list")
        tasks[Task(user: user, id: new.id)] = .some(new)
        // Only what holds the task, or counts it, changes: at the top of the list, the
        // task is first in its own chain and in the chains of the tasks below it.
        if new.subtasks.total == 0 {
            chains.update(Task(user: user, id: new.id)) { chain in
                if chain.first?.id == new.id { chain[0] = new }
            }
        } else {
            chains.update { key, chain in
                if key.user == user, chain.first?.id == new.id { chain[0] = new }
                return true
            }
        }
        let moved = (new.done ? 1 : 0) - (old.done ? 1 : 0)
        if moved != 0 {
            counters.update { key, counts in
                if key == user { counts = TaskCounts(open: counts.open - moved, done: counts.done + moved) }
                return true
            }
        }
        // With `done` as it was, only a search can now count the task otherwise.
        // A search, a term, a date of the agenda's or a `wait` (the default list hides
        // what waits) can count it otherwise too.
        if moved != 0 || old.wait != new.wait
            || counts.containsKey(where: { $0.query.search != nil || !$0.query.terms.isEmpty || $0.query.scope.isDated })
        {
            counts.update { key, count in
                if key.user == user { count += (key.query.includes(new) ? 1 : 0) - (key.query.includes(old) ? 1 : 0) }
                return true
            }
        }
        pages.update { key, rows in
            guard key.user == user else { return true }
            // The agenda's rows are in the order of their dates: the task may move.
            if key.query.scope.isDated { return Self.mend(&rows, of: key, from: old, to: new) }
            guard key.query.includes(old) == key.query.includes(new) else { return false }
            if let index = rows.firstIndex(where: { $0.id == new.id }) { rows[index] = new }
            return true
        }
    }

    /// Mends what was read for a task added at the top of the list (the next instance of
    /// a series, which has no subtasks): it is there to be read as it was stored, counts
    /// and pages of the agenda take it in, and other pages that show it are forgotten.
    func added(_ task: StoredTask, of user: String) {
        let item = task.item
        guard item.parent == nil, item.subtasks.total == 0 else { return forgetAll() }
        let key = Task(user: user, id: item.id)
        tasks[key] = .some(item)
        chains[key] = nil
        storedTasks[key] = task
        counters.update { name, counts in
            if name == user { counts = TaskCounts(open: counts.open + (item.done ? 0 : 1), done: counts.done + (item.done ? 1 : 0)) }
            return true
        }
        counts.update { query, count in
            if query.user == user, query.query.includes(item) { count += 1 }
            return true
        }
        pages.update { query, rows in
            guard query.user == user, query.query.includes(item) else { return true }
            // A list's rows are in the order of places, which its rows do not hold.
            return query.query.scope.isDated && Self.mend(&rows, of: query, from: nil, to: item)
        }
    }

    /// Mends a page of the agenda or of a day, in the order of its dates (``agendaKey``),
    /// for a task that was `old` (nil: not there) and is `new` (nil: gone). Returns false
    /// when what the page now holds cannot be known without reading it: a row that
    /// left a full page lets in one from past it, and a row that came or went before a
    /// later page moves its rows along by one.
    static func mend(_ rows: inout [TaskItem], of key: Query, from old: TaskItem?, to new: TaskItem?) -> Bool {
        let full = rows.count == key.limit
        var left = false
        if let old {
            if let index = rows.firstIndex(where: { $0.id == old.id }) {
                rows.remove(at: index)
                left = true
            } else if key.offset > 0, key.query.includes(old), rows.first.map({ agendaKey(old) < agendaKey($0) }) ?? true {
                return false
            }
        }
        guard let new, key.query.includes(new) else { return !(left && full) }
        let place = agendaKey(new)
        if rows.last.map({ agendaKey($0) < place }) ?? true {
            // Past every row kept: on this page only when nothing past them was left out,
            // and, on a later page that held none, never known.
            if left && full || rows.isEmpty && key.offset > 0 { return false }
            if !full { rows.append(new) }
            return true
        }
        if key.offset > 0, let first = rows.first, place < agendaKey(first) { return false }
        rows.insert(new, at: rows.firstIndex { place < agendaKey($0) } ?? rows.endIndex)
        if rows.count > key.limit { rows.removeLast() }
        return true
    }

    /// A task's place on the agenda, as `agendaOrder` and then the uuid order it: the
    /// earlier of its due and scheduled dates, then its uuid's bytes.
    static func agendaKey(_ task: TaskItem) -> AgendaKey {
        let date =
            switch (task.due, task.scheduled) {
            case (let due?, let scheduled?): min(due, scheduled)
            case (let one?, nil), (nil, let one?): one
            case (nil, nil): nil as Instant?
            }
        return AgendaKey(seconds: date?.secondsSinceEpoch ?? .min, uuid: task.uuid)
    }

    struct AgendaKey: Comparable {
        var seconds: Int64
        var uuid: String

        /// Uuids in the order of their bytes, as SQLite orders text.
        static func < (a: AgendaKey, b: AgendaKey) -> Bool {
            a.seconds != b.seconds ? a.seconds < b.seconds : a.uuid.utf8.lexicographicallyPrecedes(b.uuid.utf8)
        }
    }
}
