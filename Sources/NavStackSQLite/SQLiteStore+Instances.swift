import NavStackCore
import NavStackSync
import NavStackTime

// The instances of recurring tasks: the next one made when one is done, taken back when
// it is reopened, and their uuids.
extension SQLiteStore {
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
    static let uuidTaken = SQL("SELECT 1 FROM task WHERE uuid = ?")

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
}
