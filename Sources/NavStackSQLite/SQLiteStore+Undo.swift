import CSQLite
import NavStackCore

/// One task before and after a change; `nil` where it did not exist.
struct ChangePair: Equatable {
    var before: StoredTask?
    var after: StoredTask?
}

/// What a change table row holds: the pairs, or for an import not undone yet only the
/// range of ids it added (copied into pairs when it is undone, so a large import stays
/// cheap to record).
///
/// As JSON: `{"pairs":[{"before":TASK,"after":TASK}]}` (a missing side is absent) or
/// `{"first":N,"last":N}`.
enum ChangeRecord: Equatable {
    case pairs([ChangePair])
    case imported(first: Int, last: Int)

    var json: String {
        var writer = JSONWriter()
        writer.object { json in
            switch self {
            case .pairs(let pairs):
                json.key("pairs")
                json.array(pairs) { json, pair in
                    json.object { json in
                        if let before = pair.before { json.key("before"); before.write(to: &json) }
                        if let after = pair.after { json.key("after"); after.write(to: &json) }
                    }
                }
            case .imported(let first, let last):
                json.key("first"); json.number(first)
                json.key("last"); json.number(last)
            }
        }
        return writer.text
    }

    init?(json text: String) {
        guard let value = JSONValue(parsing: text) else { return nil }
        if let pairs = value["pairs"]?.array {
            var read: [ChangePair] = []
            for pair in pairs {
                let before = pair["before"].map(StoredTask.init(json:))
                let after = pair["after"].map(StoredTask.init(json:))
                // A side that is there must read back.
                if before == .some(nil) || after == .some(nil) { return nil }
                read.append(ChangePair(before: before ?? nil, after: after ?? nil))
            }
            self = .pairs(read)
        } else if let first = value["first"]?.number, let last = value["last"]?.number {
            self = .imported(first: first, last: last)
        } else {
            return nil
        }
    }
}

extension SQLiteStore {
    /// How many changes a profile keeps for `undo`.
    public static let undoLimit = 1000

    /// Records a change: what could be redone is forgotten, and the profile's oldest
    /// changes past the limit (the profile counts its changes, so none are counted here).
    func record(_ db: Connection, _ user: String, _ kind: ChangeKind, _ change: ChangeRecord) throws {
        try db.run("DELETE FROM change WHERE profile_id = \(Self.profileID) AND undone = 1", [user])
        let forgotten = Int(sqlite3_changes(db.handle))
        try db.run("INSERT INTO change (profile_id, kind, rows) VALUES (\(Self.profileID), ?, ?)",
                   [user, kind.rawValue, Self.encode(change)])
        let count = try db.first("UPDATE profile SET changes = changes + ? WHERE name = ? RETURNING changes",
                                 [1 - forgotten, user]) { $0.int(0) } ?? 0
        guard count > Self.undoLimit else { return }
        try db.run("""
            DELETE FROM change WHERE seq IN (
                SELECT seq FROM change WHERE profile_id = \(Self.profileID) AND undone = 0 ORDER BY seq LIMIT ?)
            """, [user, count - Self.undoLimit])
        try db.run("UPDATE profile SET changes = ? WHERE name = ?", [Self.undoLimit, user])
    }

    func record(_ db: Connection, _ user: String, _ kind: ChangeKind, _ pairs: [ChangePair]) throws {
        try record(db, user, kind, .pairs(pairs))
    }

    public func undo(_ user: String) throws -> ChangeKind? {
        try step(user, undone: false)
    }

    public func redo(_ user: String) throws -> ChangeKind? {
        try step(user, undone: true)
    }

    /// Undoes the newest change not undone, or redoes the oldest undone one.
    private func step(_ user: String, undone: Bool) throws -> ChangeKind? {
        try writing { db in
            let order = undone ? "ASC" : "DESC"
            guard let (seq, kindName, rows) = try db.first(
                "SELECT seq, kind, rows FROM change WHERE profile_id = \(Self.profileID) AND undone = ? ORDER BY seq \(order) LIMIT 1",
                [user, undone], { ($0.int64(0), $0.text(1), $0.text(2)) }) else { return nil }
            guard let kind = ChangeKind(rawValue: kindName) else { return nil }
            var pairs: [ChangePair]
            switch try Self.decode(rows) {
            case .pairs(let recorded):
                pairs = recorded
            case .imported(let first, let last):
                pairs = try db.prepare("""
                    SELECT \(Self.storedColumns) FROM task WHERE profile_id = \(Self.profileID) AND id BETWEEN ? AND ? ORDER BY id
                    """).all([user, first, last]) { ChangePair(before: nil, after: Self.storedTask($0)) }
                try db.run("UPDATE change SET rows = ? WHERE seq = ?", [Self.encode(.pairs(pairs)), seq])
            }
            for pair in undone ? pairs : pairs.reversed() {
                let (from, to) = undone ? (pair.before, pair.after) : (pair.after, pair.before)
                let id = (from ?? to)?.id ?? 0
                try Self.put(db, user, to, replacing: try Self.stored(db, user, id: id))
            }
            try db.run("UPDATE change SET undone = ? WHERE seq = ?", [!undone, seq])
            return kind
        }
    }

    static func encode(_ change: ChangeRecord) -> String {
        change.json
    }

    static func decode(_ text: String) throws -> ChangeRecord {
        guard let change = ChangeRecord(json: text) else {
            throw SQLiteError(code: SQLITE_CORRUPT, message: "a change record does not read back")
        }
        return change
    }
}
