import NavStackCore
import NavStackSync

/// The registers one sync step reads and writes (docs/sync.md), held in memory and
/// written once at its end: an answer's operations, then the placing of their tasks,
/// read each register from the store at most once and write it once.
///
/// A stamp equal to the register's `alive_at` is stored as `=`: most registers are a
/// create and nothing since, whose six stamps are one (57 bytes each).
final class SyncRegisters: SyncRegisterLookup {
    private let db: Connection
    private let profile: Int64
    /// What was read or set, by uuid; `.some(nil)`: the store has no register for it.
    private var known: [String: SyncRegister?] = [:]
    /// Whether the store holds no register of the profile but those in `known` (a new
    /// replica's first pull: every look-up would miss); `nil` until a look-up asks.
    private var holdsNoneElse: Bool?
    /// The uuids set since the last ``write()``, in the order first set.
    private var changed: [String] = []
    private var isChanged: Set<String> = []

    /// How a stamp equal to `alive_at` is stored: no stamp is `=`.
    static let sameAsAlive = "="

    init(_ db: Connection, profile: Int64) {
        self.db = db
        self.profile = profile
    }

    /// The register of `uuid`; `nil` when this replica has never known the task.
    func get(_ uuid: String) throws -> SyncRegister? {
        if let register = known[uuid] { return register }
        if holdsNoneElse == nil {
            let any = try db.statement("SELECT 1 FROM sync_register WHERE profile_id = ? LIMIT 1").first([profile]) { _ in true }
            holdsNoneElse = any == nil
        }
        if holdsNoneElse == true {
            known[uuid] = .some(nil)
            return nil
        }
        let register = try db.statement("SELECT \(Self.columns) FROM sync_register WHERE profile_id = ? AND uuid = ?")
            .first([profile, uuid], Self.register)
        known[uuid] = .some(register)
        return register
    }

    func register(_ uuid: String) throws -> SyncRegister? {
        try get(uuid)
    }

    /// Every register the profile holds, in uuid order: what a snapshot of it holds.
    static func all(_ db: Connection, profile: Int64) throws -> [SyncRegister] {
        try db.prepare("SELECT \(columns) FROM sync_register WHERE profile_id = ? ORDER BY uuid").all([profile], register)
    }

    /// The columns ``register(_:)`` reads, the uuid first.
    private static let columns = """
        uuid, alive, alive_at, title, title_at, notes, notes_at, done, done_at, parent, parent_old, parent_at, position,
        position_at
        """

    /// A register from a row of ``columns``.
    private static func register(_ row: Row) -> SyncRegister {
        var register = SyncRegister(uuid: row.text(0))
        register.alive = row.bool(1)
        register.aliveAt = row.text(2)
        func stamp(_ column: Int32) -> String {
            let text = row.text(column)
            return text == sameAsAlive ? register.aliveAt : text
        }
        register.fields = DraftFields(title: row.text(3), notes: row.text(5), done: row.bool(7))
        register.fieldsAt = [stamp(4), stamp(6), stamp(8)]
        register.parent = row.optionalText(9)
        register.parentOld = row.optionalText(10)
        register.parentAt = stamp(11)
        register.position = row.int(12)
        register.positionAt = stamp(13)
        return register
    }

    /// Keeps `register` as its task's, written at the next ``write()``.
    func set(_ register: SyncRegister) {
        known[register.uuid] = .some(register)
        if isChanged.insert(register.uuid).inserted { changed.append(register.uuid) }
    }

    /// Forgets what was read: registers written around this cache are read again.
    func forget() {
        known.removeAll()
        holdsNoneElse = nil
    }

    /// Writes the registers set since the last call.
    func write() throws {
        let statement = try db.statement(
            """
            INSERT OR REPLACE INTO sync_register (profile_id, uuid, alive, alive_at, title, title_at, notes, notes_at, done, done_at,
                parent, parent_old, parent_at, position, position_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for uuid in changed {
            guard let register = known[uuid] ?? nil else { continue }
            func stamp(_ text: String) -> String {
                !text.isEmpty && text == register.aliveAt ? Self.sameAsAlive : text
            }
            try statement.run([
                profile, register.uuid, register.alive, register.aliveAt, register.fields.title,
                stamp(register.fieldsAt[0]), register.fields.notes, stamp(register.fieldsAt[1]), register.fields.done,
                stamp(register.fieldsAt[2]), register.parent, register.parentOld, stamp(register.parentAt),
                register.position, stamp(register.positionAt),
            ])
        }
        changed.removeAll()
        isChanged.removeAll()
    }
}
