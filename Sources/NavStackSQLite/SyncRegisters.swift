import NavStackCore
import NavStackSync
import NavStackTime

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
        position_at, more
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
        register.fieldsAt[0] = stamp(4)
        register.fieldsAt[1] = stamp(6)
        register.fieldsAt[2] = stamp(8)
        readMore(row.text(14), into: &register)
        register.parent = row.optionalText(9)
        register.parentOld = row.optionalText(10)
        register.parentAt = stamp(11)
        register.position = row.int(12)
        register.positionAt = stamp(13)
        return register
    }

    /// The fields of format 2 that operations set, as `more` keeps them: a JSON array of
    /// `[field, stamp, value]`, a set's value as its elements `[item, present, stamp]`
    /// (removed ones too), then format 3's stamps alike (`["created", stamp, instant]`,
    /// the stamp `""` for a value this replica holds but no operation set), "" for none.
    static func more(of register: SyncRegister) -> String {
        let set = TaskField.allCases.dropFirst(3).filter { !register.fieldsAt[SyncRegister.index($0)].isEmpty }
        let stamps = StampField.allCases.filter {
            !register.taskStampsAt[$0.index].isEmpty || register.taskStamps[$0] != nil
        }
        guard !set.isEmpty || !stamps.isEmpty else { return "" }
        var items: [String] = []
        for field in set {
            var value = register.fields[field].json
            if field.isSet {
                let elements = (register.elements[field] ?? [:]).sorted { $0.key < $1.key }.map { _, element in
                    "[" + element.item + "," + (element.present ? "true" : "false") + "," + element.at.jsonQuoted + "]"
                }
                value = "[" + elements.joined(separator: ",") + "]"
            }
            items.append(
                "[" + field.rawValue.jsonQuoted + "," + register.fieldsAt[SyncRegister.index(field)].jsonQuoted + "," + value + "]")
        }
        for field in stamps {
            let value = register.taskStamps[field]?.iso8601.jsonQuoted ?? "null"
            items.append("[" + field.rawValue.jsonQuoted + "," + register.taskStampsAt[field.index].jsonQuoted + "," + value + "]")
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// Reads ``more(of:)`` back into `register`; what does not read is left unset.
    static func readMore(_ text: String, into register: inout SyncRegister) {
        guard !text.isEmpty, let items = JSONValue(parsing: text)?.array else { return }
        for item in items {
            guard let parts = item.array, parts.count == 3, let name = parts[0].string, let stamp = parts[1].string else { continue }
            if let field = StampField(rawValue: name) {
                register.taskStampsAt[field.index] = stamp
                register.taskStamps[field] = parts[2].string.flatMap(Instant.init(iso8601:))
                continue
            }
            guard let field = TaskField(rawValue: name) else { continue }
            register.fieldsAt[SyncRegister.index(field)] = stamp
            if field.isSet {
                var known: [String: SetElement] = [:]
                for element in parts[2].array ?? [] {
                    guard let element = element.array, element.count == 3, let present = element[1].bool, let at = element[2].string
                    else { continue }
                    var item = JSONWriter()
                    element[0].write(to: &item)
                    guard let key = FieldValue.set(field, items: [item.text])?.setItems.first?.key else { continue }
                    known[key] = SetElement(item: item.text, present: present, at: at)
                }
                register.elements[field] = known
                register.settle(field)
            } else if let value = FieldValue(field, json: parts[2]) {
                register.fields[field] = value
            }
        }
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
                parent, parent_old, parent_at, position, position_at, more) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
                register.position, stamp(register.positionAt), Self.more(of: register),
            ])
        }
        changed.removeAll()
        isChanged.removeAll()
    }
}
