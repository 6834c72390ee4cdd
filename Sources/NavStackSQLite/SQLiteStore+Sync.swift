#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavStackCore

/// Where a profile syncs: the server, the token, and this store's replica id.
public struct SyncSettings: Equatable, Sendable {
    public var server: String
    public var token: String
    public var replica: String
}

/// One sync request: this replica's operations it carries, the last of them, and the
/// last server sequence number applied when it was made.
public struct SyncRequest: Sendable {
    /// The replica id.
    public var replica: String
    /// The last server sequence number applied when the request was made.
    public var after: Int
    /// Its operations, a JSON array.
    public var ops: [UInt8]
    /// The replica's own sequence number of the last operation sent (or of the last
    /// one the server already had, when there is none new).
    public var through: Int
    /// How many operations it carries.
    public var count: Int
    /// Operations wait in the outbox after these.
    public var more: Bool

    /// The body as the server reads it.
    public var body: [UInt8] { body(after: after) }

    /// The body asking for the operations after `after`: an answer read while this
    /// request was being made may have moved it on.
    public func body(after: Int) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { json in
            json.key("replica"); json.string(replica)
            json.key("after"); json.number(after)
            json.key("ops"); json.raw(ops)
        }
        return writer.bytes
    }
}

/// An answer of the server, read: other replicas' operations and where the next pull
/// starts.
public struct SyncAnswer {
    var ops: [JSONValue]
    /// The last server sequence number this answer brings the replica to.
    public var last: Int
    /// The server has more to send.
    public var more: Bool

    static let expected = "expected {\"ops\": […], \"last\": N, \"more\": true|false}"

    public init(_ bytes: [UInt8]) throws(SyncFailure) {
        let value = bytes.withUnsafeBufferPointer { bytes -> JSONValue? in
            JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
        }
        guard let value, let ops = value["ops"]?.array, let last = value["last"]?.number, let more = value["more"]?.bool else {
            throw .malformedAnswer(Self.expected)
        }
        self.ops = ops
        self.last = last
        self.more = more
    }
}

/// What applying one answer of the server did.
public struct SyncRound: Equatable, Sendable {
    /// Operations of other replicas received.
    public var received: Int
    /// Local values another replica's later change replaced (shown, and undoable).
    public var conflicts: Int
}

/// Why an answer of the server could not be applied.
public enum SyncFailure: Error, Equatable, Sendable {
    case malformedAnswer(String)
    case notConfigured(user: String)
    case noProfile(user: String)

    public var message: String {
        switch self {
        case .malformedAnswer(let reason): "the server's answer is not a sync answer (\(reason))"
        case .notConfigured(let user): "profile '\(user)' has no sync server: give --server URL and --token TOKEN once"
        case .noProfile(let user): "there is no profile '\(user)' in this store"
        }
    }
}

/// A hybrid logical clock: wall-clock milliseconds, never going back, with a counter for
/// operations within one millisecond and for clocks seen ahead of this one's.
struct SyncClock: Equatable {
    var millis = 0
    var counter = 0

    /// The stamp of a new local operation made at `wall`.
    mutating func tick(_ wall: Int) -> (millis: Int, counter: Int) {
        if wall > millis {
            millis = wall
            counter = 0
        } else {
            counter += 1
        }
        return (millis, counter)
    }

    /// Moves past a stamp seen from another replica.
    mutating func observe(millis seen: Int, counter seenCounter: Int) {
        if seen > millis || (seen == millis && seenCounter > counter) {
            millis = seen
            counter = seenCounter
        }
    }
}

/// A stamp as sortable text: millis (15 digits), counter (10 digits), replica id. Text
/// order is stamp order: millis, then counter, then replica. `""` is older than any.
struct Stamp {
    static func text(millis: Int, counter: Int, replica: String) -> String {
        padded(millis, 15) + padded(counter, 10) + replica
    }

    /// ``text(millis:counter:replica:)`` in SQL, of the SQL expressions given.
    static func sql(millis: String, counter: String, replica: String) -> String {
        "printf('%015d%010d%s', max(0, \(millis)), max(0, \(counter)), \(replica))"
    }

    static func replica(of text: String) -> Substring {
        text.utf8.count > 25 ? text.dropFirst(25) : ""
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(max(0, value))
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// A task as operations carry it: its fields, its parent by uuid, its position.
struct SyncTask: Equatable {
    var fields: DraftFields
    var parent: String?
    var position: Int

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("title"); json.string(fields.title)
            json.key("notes"); json.string(fields.notes)
            json.key("done"); json.bool(fields.done)
            json.key("parent"); json.string(parent)
            json.key("position"); json.number(position)
        }
    }

    var json: String {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.text
    }

    init(fields: DraftFields, parent: String?, position: Int) {
        self.fields = fields
        self.parent = parent
        self.position = position
    }

    init?(_ value: JSONValue) {
        guard let title = value["title"]?.string, let notes = value["notes"]?.string, let done = value["done"]?.bool,
              let position = value["position"]?.number else { return nil }
        let parent = value["parent"]
        guard parent == nil || parent == .null || parent?.string != nil else { return nil }
        self.init(fields: DraftFields(title: title, notes: notes, done: done), parent: parent?.string, position: position)
    }
}

/// One operation: what it does to one task.
enum SyncChange: Equatable {
    case create(SyncTask)
    /// `old`: the task as the deleting replica knew it.
    case delete(old: SyncTask?)
    case field(TaskField, FieldValue, old: FieldValue?)
    case parent(String?, old: String?)
    case position(Int)

    var fieldName: String {
        switch self {
        case .create, .delete: "task"
        case .field(let field, _, _): field.rawValue
        case .parent: "parent"
        case .position: "position"
        }
    }

    /// The operation's `value` and `old` as JSON.
    var json: (value: String, old: String) {
        switch self {
        case .create(let task): (task.json, "null")
        case .delete(let old): ("null", old?.json ?? "null")
        case .field(_, let value, let old): (value.json, old?.json ?? "null")
        case .parent(let parent, let old): (parent?.jsonQuoted ?? "null", old?.jsonQuoted ?? "null")
        case .position(let position): (String(position), "null")
        }
    }

    /// Reads an operation's field, value and old value; `nil` for one this replica
    /// cannot apply (every replica skips it alike).
    init?(field: String, value: JSONValue, old: JSONValue?) {
        let old = old ?? .null
        switch field {
        case "task":
            if value == .null {
                self = .delete(old: SyncTask(old))
            } else {
                guard let task = SyncTask(value) else { return nil }
                self = .create(task)
            }
        case "title", "notes":
            guard let text = value.string else { return nil }
            self = .field(TaskField(rawValue: field)!, .text(text), old: old.string.map(FieldValue.text))
        case "done":
            guard let flag = value.bool else { return nil }
            self = .field(.done, .flag(flag), old: old.bool.map(FieldValue.flag))
        case "parent":
            guard value == .null || value.string != nil else { return nil }
            self = .parent(value.string, old: old.string)
        case "position":
            guard let position = value.number else { return nil }
            self = .position(position)
        default:
            return nil
        }
    }
}

/// What this replica knows of one task: each field's value with the stamp of the
/// operation that set it (last writer wins, field by field). Registers outlive a task's
/// deletion, so a later re-creation or a late field change counts alike everywhere.
struct SyncRegister: Equatable {
    var uuid: String
    var alive = false
    var aliveAt = ""
    var fields = DraftFields()
    var fieldsAt = ["", "", ""]
    var parent: String?
    /// Where the last move took the task from: where it goes if that move makes a cycle.
    var parentOld: String?
    var parentAt = ""
    var position = 0
    var positionAt = ""

    init(uuid: String) {
        self.uuid = uuid
    }

    private static func index(_ field: TaskField) -> Int {
        switch field {
        case .title: 0
        case .notes: 1
        case .done: 2
        }
    }

    /// Applies an operation stamped `at`; returns the fields whose value set by
    /// `replica` (this one) it replaced with another value, without the other writer
    /// having seen it (its `old` differs): the local values that lost.
    mutating func apply(_ change: SyncChange, at stamp: String, replica: String) -> [String] {
        var lost: [String] = []
        func isMine(_ at: String) -> Bool { Stamp.replica(of: at) == replica }
        func setField(_ field: TaskField, _ value: FieldValue, old: FieldValue?) {
            let index = Self.index(field)
            guard stamp > fieldsAt[index] else { return }
            if alive && isMine(fieldsAt[index]) && fields[field] != value && old != fields[field] { lost.append(field.rawValue) }
            fields[field] = value
            fieldsAt[index] = stamp
        }
        func setParent(_ value: String?, old: String?) {
            guard stamp > parentAt else { return }
            if alive && isMine(parentAt) && parent != value && old != parent { lost.append("parent") }
            parent = value
            parentOld = old
            parentAt = stamp
        }
        func setPosition(_ value: Int) {
            guard stamp > positionAt else { return }
            position = value
            positionAt = stamp
        }
        switch change {
        case .create(let task):
            for field in TaskField.allCases { setField(field, task.fields[field], old: nil) }
            setParent(task.parent, old: nil)
            setPosition(task.position)
            if stamp > aliveAt {
                alive = true
                aliveAt = stamp
            }
        case .delete(let old):
            guard stamp > aliveAt else { break }
            if alive, let old, TaskField.allCases.contains(where: { isMine(fieldsAt[Self.index($0)]) && old.fields[$0] != fields[$0] }) {
                lost.append("task")
            }
            alive = false
            aliveAt = stamp
        case .field(let field, let value, let old):
            setField(field, value, old: old)
        case .parent(let value, let old):
            setParent(value, old: old)
        case .position(let value):
            setPosition(value)
        }
        return lost
    }
}

/// A profile's sync state, as the `sync` table keeps it.
struct SyncState {
    var profile: Int64
    var replica: String
    var server: String
    var token: String
    /// The last local operation (`op.seq`) given a stamp and put in the outbox; -1
    /// before the first request, which takes every task as it is.
    var stamped: Int
    /// The replica's own sequence number of its last operation.
    var outbox: Int
    /// The last of them the server acknowledged.
    var sent: Int
    /// The last server sequence number applied.
    var pulled: Int
    var clock: SyncClock
}

/// A local value replaced by another replica's change, for the next screen to say.
public struct SyncNotice: Equatable, Sendable {
    public var title: String
    /// `title`, `notes`, `done`, `parent` (moved) or `task` (deleted).
    public var fields: [String]
}

extension SQLiteStore {
    /// How many operations one request sends at most (the server takes 10,000).
    public static let syncBatch = 10_000
    /// How many bytes of operations one request sends at most, past the first: the
    /// server takes 8 MiB, and one operation (notes of 2,000 characters and their old
    /// value, escaped) stays far below the difference.
    public static let syncBatchBytes = 4 << 20

    // MARK: - Settings

    /// The profile's sync settings; `nil` when it has no server.
    public func syncSettings(_ user: String) throws -> SyncSettings? {
        try reading { db in
            try db.first("""
                SELECT server, token, replica FROM sync WHERE profile_id = \(Self.profileID) AND server != ''
                """, [user]) { SyncSettings(server: $0.text(0), token: $0.text(1), replica: $0.text(2)) }
        }
    }

    /// Puts back the profile's server and token as they were before `given` was set
    /// (`before`; none when `nil`), unless another process has changed them since: a
    /// token the server refused is not kept, and a later one set elsewhere is not lost.
    public func restoreSync(_ user: String, to before: SyncSettings?, replacing given: SyncSettings) throws {
        try transaction {
            guard try syncSettings(user) == given else { return }
            try configureSync(user, server: before?.server ?? "", token: before?.token ?? "")
        }
    }

    /// Sets the profile's server and token (each kept when `nil`); makes its replica id
    /// the first time. Fails when there is no such profile.
    @discardableResult
    public func configureSync(_ user: String, server: String?, token: String?) throws -> SyncSettings {
        try writing { db in
            var state = try Self.syncState(db, user)
            if let server { state.server = server }
            if let token { state.token = token }
            try Self.save(db, state)
            return SyncSettings(server: state.server, token: state.token, replica: state.replica)
        }
    }

    /// Whether the profile has local changes the server has not acknowledged.
    public func hasUnsentChanges(_ user: String) throws -> Bool {
        try reading { db in
            guard let (stamped, outbox, sent) = try db.first("""
                SELECT stamped, outbox, sent FROM sync WHERE profile_id = \(Self.profileID)
                """, [user], { ($0.int(0), $0.int(1), $0.int(2)) }) else { return false }
            if outbox > sent { return true }
            return try db.first("SELECT 1 FROM op WHERE profile_id = \(Self.profileID) AND seq > ? LIMIT 1",
                                [user, stamped]) { _ in true } ?? false
        }
    }

    /// The notices of local values that lost to another replica's change since they
    /// were last taken, oldest first; taking them clears them.
    public func takeSyncNotices(_ user: String) throws -> [SyncNotice] {
        let text = try reading { db in
            try db.first("SELECT notices FROM sync WHERE profile_id = \(Self.profileID)", [user]) { $0.text(0) } ?? ""
        }
        guard !text.isEmpty else { return [] }
        try writing { db in try db.run("UPDATE sync SET notices = '' WHERE profile_id = \(Self.profileID)", [user]) }
        return text.split(separator: "\n").compactMap { line in
            guard let value = JSONValue(parsing: String(line)), let title = value["title"]?.string,
                  let fields = value["fields"]?.array?.compactMap(\.string) else { return nil }
            return SyncNotice(title: title, fields: fields)
        }
    }

    // MARK: - One round

    /// The next request: local changes made since the last one get their stamps and go
    /// to the outbox (the first time, every task as it is), and up to `limit` of those
    /// the server has not acknowledged (and ``syncBatchBytes`` of them) are sent, with
    /// the last server sequence applied. `after`: the last operation of a request sent
    /// already, whose answer is not applied yet (the next request goes on from there).
    public func syncRequest(_ user: String, after sent: Int? = nil, limit: Int = syncBatch) throws -> SyncRequest {
        try writing { db in
            var state = try Self.syncState(db, user)
            let registers = SyncRegisters(db, profile: state.profile)
            try Self.stampLocalChanges(db, &state, registers)
            try registers.write()
            try Self.save(db, state)
            let rows = try db.prepare("""
                SELECT seq, millis, counter, task, field, value, old FROM sync_outbox
                WHERE profile_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """).all([state.profile, sent ?? state.sent, limit + 1]) { row in
                (seq: row.int(0), millis: row.int(1), counter: row.int(2), task: row.text(3), field: row.text(4),
                 value: row.text(5), old: row.text(6))
            }
            var bytes = 0
            var count = 0
            for op in rows.prefix(limit) {
                bytes += 100 + op.task.utf8.count + op.field.utf8.count + op.value.utf8.count + op.old.utf8.count
                if bytes > Self.syncBatchBytes && count > 0 { break }
                count += 1
            }
            let sending = rows.prefix(count)
            var writer = JSONWriter()
            writer.array(sending) { json, op in
                json.object { json in
                    json.key("seq"); json.number(op.seq)
                    json.key("millis"); json.number(op.millis)
                    json.key("counter"); json.number(op.counter)
                    json.key("task"); json.string(op.task)
                    json.key("field"); json.string(op.field)
                    // Values are JSON already.
                    json.key("value"); json.raw(op.value)
                    json.key("old"); json.raw(op.old)
                }
            }
            return SyncRequest(replica: state.replica, after: state.pulled, ops: writer.bytes,
                               through: sending.last?.seq ?? sent ?? state.sent, count: count, more: rows.count > count)
        }
    }

    /// Applies the server's answer to `request`: the server has this replica's
    /// operations through `request.through`, and sends other replicas' operations,
    /// applied here in one transaction (again harmlessly, if a run before this one was
    /// cut off before it committed).
    public func applySyncAnswer(_ user: String, _ answer: SyncAnswer, to request: SyncRequest) throws -> SyncRound {
        let (ops, last) = (answer.ops, answer.last)
        return try writing { db in
            var state = try Self.syncState(db, user)
            let registers = SyncRegisters(db, profile: state.profile)
            // Changes made here since the request count as this replica's, stamped now.
            try Self.stampLocalChanges(db, &state, registers)
            var touched: [String] = []
            // Tasks this replica never knew before this answer: none stands here yet.
            var unknown: Set<String> = []
            var before: [String: StoredTask] = [:]
            var lost: [(String, [String])] = []
            var received = 0
            for op in ops {
                guard let replica = op["replica"]?.string, let millis = op["millis"]?.number, let counter = op["counter"]?.number,
                      let uuid = op["task"]?.string, let field = op["field"]?.string, let opValue = op["value"] else {
                    throw SyncFailure.malformedAnswer("an operation lacks replica, millis, counter, task, field or value")
                }
                received += 1
                guard replica != state.replica, let change = SyncChange(field: field, value: opValue, old: op["old"]) else { continue }
                state.clock.observe(millis: millis, counter: counter)
                var register: SyncRegister
                if let known = try registers.get(uuid) {
                    register = known
                } else {
                    register = SyncRegister(uuid: uuid)
                    unknown.insert(uuid)
                }
                let fields = register.apply(change, at: Stamp.text(millis: millis, counter: counter, replica: replica),
                                            replica: state.replica)
                registers.set(register)
                if !fields.isEmpty {
                    if before[uuid] == nil, let task = try Self.stored(db, user, uuid: uuid) { before[uuid] = task }
                    lost.append((uuid, fields))
                }
                touched.append(uuid)
            }
            try Self.place(db, user, state, touched, registers, unknown: unknown)
            try registers.write()
            let conflicts = try recordLosses(db, user, lost, before: before)
            state.sent = max(state.sent, request.through)
            state.pulled = max(state.pulled, last)
            try db.run("DELETE FROM sync_outbox WHERE profile_id = ? AND seq <= ?", [state.profile, state.sent])
            try Self.save(db, state)
            return SyncRound(received: received, conflicts: conflicts)
        }
    }

    /// Keeps what other replicas replaced of this one's: one change in the history
    /// (`undo` brings the local values back, as new operations that then win
    /// everywhere) and one notice a task. Returns how many tasks lost a value.
    private func recordLosses(_ db: Connection, _ user: String, _ lost: [(String, [String])],
                              before: [String: StoredTask]) throws -> Int {
        guard !lost.isEmpty else { return 0 }
        var fieldsByTask: [String: [String]] = [:]
        var order: [String] = []
        for (uuid, fields) in lost {
            if fieldsByTask[uuid] == nil { order.append(uuid) }
            for field in fields where !(fieldsByTask[uuid]?.contains(field) ?? false) { fieldsByTask[uuid, default: []].append(field) }
        }
        var pairs: [ChangePair] = []
        var notices: [String] = []
        for uuid in order {
            guard let old = before[uuid] else { continue }
            let fields = fieldsByTask[uuid] ?? []
            let now = try Self.stored(db, user, uuid: uuid)
            // What `undo` goes back to: the task as it is, with the values it lost.
            var restored = now ?? old
            if now != nil {
                for field in TaskField.allCases where fields.contains(field.rawValue) { restored.fields[field] = old.fields[field] }
                // Back where it was, while that place (the top, or a parent) is there.
                if fields.contains("parent"), try old.parent == 0 || Self.stored(db, user, id: old.parent) != nil {
                    restored.parent = old.parent
                    restored.position = old.position
                }
            }
            if restored != now { pairs.append(ChangePair(before: restored, after: now)) }
            var line = JSONWriter()
            line.object { json in
                json.key("title"); json.string(old.fields.title)
                json.key("fields"); json.strings(fields)
            }
            notices.append(line.text)
        }
        if !pairs.isEmpty { try record(db, user, .sync, pairs) }
        try db.run("""
            UPDATE sync SET notices = notices || CASE WHEN notices = '' THEN '' ELSE char(10) END || ? WHERE profile_id = \(Self.profileID)
            """, [notices.joined(separator: "\n"), user])
        return notices.count
    }

    // MARK: - State

    static func syncState(_ db: Connection, _ user: String) throws -> SyncState {
        guard let profile = try db.first("SELECT id FROM profile WHERE name = ?", [user], { $0.int64(0) }) else {
            throw SyncFailure.noProfile(user: user)
        }
        if let state = try db.first("""
            SELECT replica, server, token, stamped, outbox, sent, pulled, millis, counter FROM sync WHERE profile_id = ?
            """, [profile], { row in
                SyncState(profile: profile, replica: row.text(0), server: row.text(1), token: row.text(2), stamped: row.int(3),
                          outbox: row.int(4), sent: row.int(5), pulled: row.int(6),
                          clock: SyncClock(millis: row.int(7), counter: row.int(8)))
            }) {
            return state
        }
        // stamped -1: its tasks have not been taken as they are yet.
        return SyncState(profile: profile, replica: newReplicaID(), server: "", token: "", stamped: -1, outbox: 0, sent: 0,
                         pulled: 0, clock: SyncClock())
    }

    static func save(_ db: Connection, _ state: SyncState) throws {
        try db.run("""
            INSERT OR REPLACE INTO sync (profile_id, replica, server, token, stamped, outbox, sent, pulled, millis, counter, notices)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce((SELECT notices FROM sync WHERE profile_id = ?), ''))
            """, [state.profile, state.replica, state.server, state.token, state.stamped, state.outbox, state.sent, state.pulled,
                  state.clock.millis, state.clock.counter, state.profile])
    }

    /// 16 random bytes as 32 lowercase hex digits.
    static func newReplicaID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }

    // MARK: - Local changes to operations

    /// Gives the profile's local operations since the last call their stamps, in the
    /// order they were made, puts them in the outbox in the form other replicas read
    /// (tasks by uuid) and in the registers. The first time, every task as it is now
    /// (parents first) stands for the history before it.
    static func stampLocalChanges(_ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters) throws {
        let last = try db.first("SELECT max(seq) FROM op", []) { $0.int(0) } ?? 0
        if state.stamped < 0 {
            try emitCreates(db, &state, registers, madeAt: Int(milliseconds()), of: """
                WITH RECURSIVE down(id, level) AS (
                    SELECT id, 0 FROM task WHERE profile_id = ?1 AND parent = 0
                    UNION ALL SELECT t.id, down.level + 1 FROM task AS t JOIN down ON t.parent = down.id
                    WHERE t.profile_id = ?1 AND down.level < \(TreeLimits.depth))
                SELECT \(createColumns), down.level AS k1, t.id AS k2 FROM down JOIN task AS t ON t.id = down.id LEFT JOIN task AS p ON p.id = t.parent
                """)
            state.stamped = last
            return
        }
        guard last > state.stamped else { return }
        let ops = try db.prepare("""
            SELECT seq, task_uuid, field, old, new, millis FROM op WHERE profile_id = ? AND seq > ? ORDER BY seq
            """).all([state.profile, state.stamped]) { row in
            (row.text(1), row.text(2), row.optionalText(3), row.optionalText(4), row.int(5))
        }
        for (uuid, field, old, new, millis) in ops {
            if field == "import", let (first, last) = importRange(new) {
                // The tasks it added, as they are now.
                try emitCreates(db, &state, registers, madeAt: millis, of: """
                    SELECT \(createColumns), 0 AS k1, t.id AS k2 FROM task AS t LEFT JOIN task AS p ON p.id = t.parent
                    WHERE t.id BETWEEN \(first) AND \(last) AND t.profile_id = ?1
                    """)
                continue
            }
            for (uuid, change) in try changes(db, state.profile, uuid: uuid, field: field, old: old, new: new) {
                try emit(db, &state, registers, uuid, change, madeAt: millis)
            }
        }
        state.stamped = last
    }

    /// The operations one local log entry stands for.
    private static func changes(_ db: Connection, _ profile: Int64, uuid: String, field: String,
                                old: String?, new: String?) throws -> [(String, SyncChange)] {
        func value(_ text: String?) -> JSONValue { text.flatMap { JSONValue(parsing: $0) } ?? .null }
        switch field {
        case "task":
            if let new, let task = StoredTask(json: value(new)) {
                return [(uuid, .create(try syncTask(db, task)))]
            }
            let gone = StoredTask(json: value(old))
            return [(uuid, .delete(old: try gone.map { try syncTask(db, $0) }))]
        case "import":
            // An import's undoing (one adding tasks is stamped set-wise).
            if let (first, last) = importRange(old) {
                return try db.prepare("SELECT DISTINCT uuid FROM undone_task WHERE id BETWEEN ? AND ? ORDER BY id DESC")
                    .all([first, last]) { ($0.text(0), .delete(old: nil)) }
            }
            return []
        default:
            guard let change = SyncChange(field: field, value: value(new), old: value(old)) else { return [] }
            return [(uuid, change)]
        }
    }

    /// The ids an `import` operation's `new` (tasks added) or `old` (tasks taken away) names.
    private static func importRange(_ text: String?) -> (first: Int, last: Int)? {
        guard let range = text.flatMap({ JSONValue(parsing: $0) }), let first = range["first"]?.number,
              let last = range["last"]?.number else { return nil }
        return (first, last)
    }

    /// The columns of a task `t` and its parent `p` that ``emitCreates(_:_:_:madeAt:of:)``
    /// reads, named as its `SyncTask` JSON has them.
    private static let createColumns =
        "t.uuid AS uuid, t.title AS title, t.notes AS notes, t.done AS done, p.uuid AS parent, t.position AS position"

    /// Puts in the outbox, stamped, the operations that create the tasks of `rows` (a
    /// query of ``createColumns`` and two ordering keys `k1`, `k2`; `?1` the profile) as they are,
    /// in the keys' order, and sets their registers: the set-wise form of ``emit`` for
    /// creates. A local stamp is later than any the register holds, so the create sets
    /// every field of it, as ``SyncRegister/apply(_:at:replica:)`` would.
    private static func emitCreates(_ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters,
                                    madeAt millis: Int, of rows: String) throws {
        // Registers set before go in first; the ones written here are read again.
        try registers.write()
        var clock = state.clock
        let stamp = clock.tick(millis)
        let from = state.outbox
        try db.prepare("""
            INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old)
            SELECT ?1, ?2 + n, ?3, ?4 + n - 1, uuid, 'task',
                json_object('title', title, 'notes', notes, 'done', json(iif(done, 'true', 'false')), 'parent', parent,
                            'position', position), 'null'
            FROM (SELECT row_number() OVER (ORDER BY k1, k2) AS n, * FROM (\(rows)))
            """).run([state.profile, from, stamp.millis, stamp.counter])
        let count = Int(db.changes)
        guard count > 0 else { return }
        try db.prepare("""
            INSERT OR REPLACE INTO sync_register (profile_id, uuid, alive, alive_at, title, title_at, notes, notes_at, done, done_at,
                parent, parent_old, parent_at, position, position_at)
            SELECT profile_id, task, 1, \(Stamp.sql(millis: "millis", counter: "counter", replica: "?4")),
                json_extract(value, '$.title'), ?5, json_extract(value, '$.notes'), ?5, json_extract(value, '$.done'), ?5,
                json_extract(value, '$.parent'), NULL, ?5, json_extract(value, '$.position'), ?5
            FROM sync_outbox WHERE profile_id = ?1 AND seq > ?2 AND seq <= ?3
            """).run([state.profile, from, from + count, state.replica, SyncRegisters.sameAsAlive])
        registers.forget()
        state.outbox += count
        state.clock = SyncClock(millis: stamp.millis, counter: stamp.counter + count - 1)
    }

    /// A stored task as operations carry it: its parent by uuid (one brought back by a
    /// later undo may be in `undone_task`).
    private static func syncTask(_ db: Connection, _ task: StoredTask) throws -> SyncTask {
        var parent: String?
        if task.parent != 0 {
            parent = try db.first("SELECT uuid FROM task WHERE id = ?", [task.parent]) { $0.text(0) }
                ?? db.first("SELECT uuid FROM undone_task WHERE id = ?", [task.parent]) { $0.text(0) }
        }
        return SyncTask(fields: task.fields, parent: parent, position: task.position)
    }

    /// Puts one local operation in the outbox, stamped, and in the task's register.
    private static func emit(_ db: Connection, _ state: inout SyncState, _ registers: SyncRegisters, _ uuid: String,
                             _ change: SyncChange, madeAt millis: Int) throws {
        let stamp = state.clock.tick(millis)
        state.outbox += 1
        let (value, old) = change.json
        try db.statement("""
            INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).run([state.profile, state.outbox, stamp.millis, stamp.counter, uuid, change.fieldName, value, old])
        var register = try registers.get(uuid) ?? SyncRegister(uuid: uuid)
        _ = register.apply(change, at: Stamp.text(millis: stamp.millis, counter: stamp.counter, replica: state.replica),
                           replica: state.replica)
        registers.set(register)
    }

    // MARK: - Registers to tasks

    static func stored(_ db: Connection, _ user: String, uuid: String) throws -> StoredTask? {
        try db.first("SELECT \(storedColumns) FROM task WHERE uuid = ? AND profile_id = \(profileID)", [uuid, user], storedTask)
    }

    /// Makes the tasks of the `touched` registers what the registers say: created (with
    /// this store's next id), changed, moved or deleted, parents first. A task whose
    /// parent is gone stands at the top of the list until it comes back; a task of a
    /// cycle of moves whose move is the latest goes back where that move took it from.
    /// None of this is logged as this replica's own operations. `unknown`: tasks this
    /// replica had no register for before (none of them stands here yet).
    static func place(_ db: Connection, _ user: String, _ state: SyncState, _ touched: [String],
                      _ registers: SyncRegisters, unknown: Set<String> = []) throws {
        var queue = touched
        var placed: Set<String> = []
        var unknown = unknown
        var index = 0
        // The tasks kept away from the parent their register names (gone, or a move
        // dropped), written back at the end; a task waiting for its parent is one of them.
        let wasDisplaced = Set(try db.prepare("SELECT uuid FROM sync_displaced WHERE profile_id = ?").all([state.profile]) { $0.text(0) })
        var displaced = wasDisplaced
        // New tasks at the top, counted once at the end.
        var atTop = Tally()
        func localID(_ uuid: String) throws -> Int? {
            try db.first("SELECT id FROM task WHERE uuid = ? AND profile_id = ?", [uuid, state.profile]) { $0.int(0) }
        }
        func place(_ uuid: String) throws {
            guard placed.insert(uuid).inserted, let register = try registers.get(uuid) else { return }
            let local = unknown.contains(uuid) ? nil : try stored(db, user, uuid: uuid)
            guard register.alive else {
                displaced.remove(uuid)
                guard let local else { return }
                // Its subtasks here go first: those deleted too, or to the top.
                let children = try db.prepare("SELECT uuid FROM task WHERE parent = ? AND profile_id = ?")
                    .all([local.id ?? 0, state.profile]) { $0.text(0) }
                for child in children {
                    placed.remove(child)
                    try place(child)
                    if try localID(child) != nil, let current = try stored(db, user, uuid: child), current.parent == local.id {
                        var top = current
                        top.parent = 0
                        top.rev += 1
                        _ = try put(db, user, top, replacing: current)
                    }
                }
                _ = try put(db, user, nil, replacing: local)
                return
            }
            var task = StoredTask(id: local?.id, position: register.position, uuid: uuid, register.fields)
            if local == nil && register.parent == nil {
                // A new task at the top: its row now, the counts once for all of them.
                try insertRow(db, user, task)
                atTop.add(task)
                unknown.remove(uuid)
                displaced.remove(uuid)
                return
            }
            var parentID = 0
            let effective = try effectiveParent(register, registers, &queue)
            if let parent = effective {
                if let id = try localID(parent) {
                    parentID = id
                } else {
                    try place(parent)
                    parentID = try localID(parent) ?? 0
                }
            }
            // Never under itself here, whatever order tasks are placed in: a parent not
            // placed yet may still stand under this task.
            if parentID != 0, let local, try chain(db, user, id: parentID).contains(where: { $0.id == local.id }) {
                parentID = 0
            }
            // A task kept away from its register's parent (gone, or a move dropped) is
            // placed again after each answer: what kept it away may change.
            if parentID == 0 && register.parent != nil || parentID != 0 && register.parent != effective {
                displaced.insert(uuid)
            } else {
                displaced.remove(uuid)
            }
            task.parent = parentID
            if let local {
                if local.fields != task.fields || local.parent != parentID || local.position != task.position {
                    task.rev = local.rev + 1
                    _ = try put(db, user, task, replacing: local)
                }
            } else {
                _ = try put(db, user, task, replacing: nil)
                unknown.remove(uuid)
            }
        }
        // The tasks kept away from their parents are placed again last, when every
        // register of this answer is in (twice: one may wait for another): those waiting
        // for a parent that came or came back go under it.
        for pass in 0..<3 {
            while index < queue.count {
                let uuid = queue[index]
                index += 1
                try place(uuid)
            }
            guard pass < 2 else { break }
            for uuid in displaced.sorted() {
                placed.remove(uuid)
                queue.append(uuid)
            }
        }
        try atTop.write(db, user)
        for uuid in wasDisplaced.subtracting(displaced).sorted() {
            try db.statement("DELETE FROM sync_displaced WHERE profile_id = ? AND uuid = ?").run([state.profile, uuid])
        }
        for uuid in displaced.subtracting(wasDisplaced).sorted() {
            try db.statement("INSERT INTO sync_displaced (profile_id, uuid) VALUES (?, ?)").run([state.profile, uuid])
        }
    }

    /// New tasks at the top of a profile's list, counted in the profile once.
    private struct Tally {
        var total = 0
        var done = 0
        var top = Int.max
        var bottom = Int.min

        mutating func add(_ task: StoredTask) {
            total += 1
            done += task.fields.done ? 1 : 0
            top = min(top, task.position)
            bottom = max(bottom, task.position)
        }

        func write(_ db: Connection, _ user: String) throws {
            guard total > 0 else { return }
            try db.run("""
                UPDATE profile SET total = total + ?1, done = done + ?2, roots = roots + ?1, roots_done = roots_done + ?2,
                    top = min(top, ?3), bottom = max(bottom, ?4) WHERE name = ?5
                """, [total, done, top, bottom, user])
        }
    }

    /// The parent a task's register puts it under, as every replica decides it: `nil`
    /// (the top) when that parent is gone; when the registers' parents make a cycle, the
    /// task of the cycle whose move is the latest goes back where that move took it
    /// from (and if that too makes a cycle, to the top). A cycle met above the task is
    /// left to its latest task, which is queued to be placed.
    static func effectiveParent(_ register: SyncRegister, _ registers: SyncRegisters, _ queue: inout [String]) throws -> String? {
        var candidate = register.parent
        for attempt in 0..<2 {
            guard let parent = candidate else { return nil }
            guard let parentRegister = try registers.get(parent), parentRegister.alive else { return nil }
            var chain = [register]
            var seen = [register.uuid: 0]
            var current: SyncRegister? = parentRegister
            var dropped = false
            while let step = current {
                if let first = seen[step.uuid] {
                    let latest = chain[first...].max { $0.parentAt < $1.parentAt }!
                    if first == 0 && latest.uuid == register.uuid {
                        dropped = true
                    } else {
                        queue.append(latest.uuid)
                    }
                    break
                }
                guard chain.count <= TreeLimits.depth else {
                    dropped = true
                    break
                }
                seen[step.uuid] = chain.count
                chain.append(step)
                guard let next = step.parent, let nextRegister = try registers.get(next), nextRegister.alive else { break }
                current = nextRegister
            }
            guard dropped else { return parent }
            candidate = attempt == 0 ? register.parentOld : nil
        }
        return nil
    }
}
