import Foundation
import NavStackCore

/// One task before and after a change; `nil` where it did not exist.
struct ChangePair: Codable, Equatable {
    var before: StoredTask?
    var after: StoredTask?
}

/// What a change table row holds: the pairs, or for an import not undone yet only the
/// range of ids it added (copied into pairs when it is undone, so a large import stays
/// cheap to record).
enum ChangeRecord: Codable, Equatable {
    case pairs([ChangePair])
    case imported(first: Int, last: Int)

    private enum CodingKeys: String, CodingKey { case pairs, first, last }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let pairs = try container.decodeIfPresent([ChangePair].self, forKey: .pairs) {
            self = .pairs(pairs)
        } else {
            self = .imported(first: try container.decode(Int.self, forKey: .first),
                             last: try container.decode(Int.self, forKey: .last))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .pairs(let pairs): try container.encode(pairs, forKey: .pairs)
        case .imported(let first, let last):
            try container.encode(first, forKey: .first)
            try container.encode(last, forKey: .last)
        }
    }
}

extension SQLiteStore {
    /// How many changes a profile keeps for `undo`.
    public static let undoLimit = 1000

    /// Records a change: what could be redone is forgotten, and the oldest changes past
    /// the limit.
    func record(_ db: Connection, _ user: String, _ kind: ChangeKind, _ change: ChangeRecord) throws {
        try db.run("DELETE FROM change WHERE profile_id = \(Self.profileID) AND undone = 1", [user])
        try db.run("INSERT INTO change (profile_id, kind, rows) VALUES (\(Self.profileID), ?, ?)",
                   [user, kind.rawValue, try Self.encode(change)])
        let seq = db.lastInsertedRowID
        if seq % 100 == 0 {
            try db.run("""
                DELETE FROM change WHERE profile_id = \(Self.profileID) AND seq <= (
                    SELECT seq FROM change WHERE profile_id = \(Self.profileID) ORDER BY seq DESC LIMIT 1 OFFSET ?)
                """, [user, user, Self.undoLimit])
        }
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
                try db.run("UPDATE change SET rows = ? WHERE seq = ?", [try Self.encode(.pairs(pairs)), seq])
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

    static func encode(_ change: ChangeRecord) throws -> String {
        String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> ChangeRecord {
        try JSONDecoder().decode(ChangeRecord.self, from: Data(text.utf8))
    }
}
