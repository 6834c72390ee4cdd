import NavStackCore
import NavStackSync

/// How far a profile is in sealing its account's operations (docs/sync.md, "End-to-end
/// encryption"), with the key it keeps: derived from the passphrase, never the passphrase.
public struct SyncSeal: Equatable, Sendable {
    public enum State: Int, Sendable {
        /// No key yet: the next sync asks for the passphrase.
        case none = 0
        /// This replica made the account's key and offers it; the server has not taken it yet.
        case offered = 1
        /// The server took the key this replica made, and the account held operations in
        /// clear: this replica sends every task again sealed, then has the server drop them.
        case resending = 2
        /// The account's key is known and the server holds it.
        case sealed = 3
    }

    public var state: State
    /// The key's 32 bytes (empty with no key).
    public var key: [UInt8]
    /// The account's key record, as the server keeps it.
    public var record: String

    public init(state: State, key: [UInt8], record: String) {
        self.state = state
        self.key = key
        self.record = record
    }

    public static let none = SyncSeal(state: .none, key: [], record: "")
}

extension SQLiteStore {
    /// The profile's key and how far it is in sealing its account.
    public func syncSeal(_ user: String) throws -> SyncSeal {
        try reading { db in
            try db.first(
                "SELECT seal_state, seal_key, seal_record FROM sync WHERE profile_id = \(Self.profileID)", [user]
            ) { row in
                SyncSeal(
                    state: SyncSeal.State(rawValue: row.int(0)) ?? .none, key: Base64.decode(row.text(1)) ?? [],
                    record: row.text(2))
            } ?? .none
        }
    }

    /// Keeps `seal` for the profile, which has sync settings already.
    public func setSyncSeal(_ user: String, _ seal: SyncSeal) throws {
        try writing { db in
            try db.run(
                "UPDATE sync SET seal_state = ?, seal_key = ?, seal_record = ? WHERE profile_id = \(Self.profileID)",
                [seal.state.rawValue, Base64.encode(seal.key), seal.record, user])
        }
    }

    /// A request that sends nothing and pulls from where the profile is, read without
    /// writing the store: what a profile without a key asks first, to learn the account's.
    public func syncProbe(_ user: String) throws -> SyncBatch {
        try reading { db in
            let state = try Self.syncState(db, user)
            return SyncBatch(
                request: SyncRequest(replica: state.replica, after: Int64(state.pulled), operations: []), through: state.sent,
                more: false)
        }
    }

    /// Puts in the outbox every task this replica knows, as its registers hold it, with
    /// the stamps they hold: when an account moves to encryption, its operations kept in
    /// clear are sent again sealed, so that the server can drop them and a replica that
    /// joins later still gets every task. A task that is there is created (with its
    /// fields as they are) at the stamp of its creation, and each field set later is set
    /// again at its own stamp; a deleted task is deleted again at the stamp of its deletion.
    /// Returns how many operations went in.
    @discardableResult
    public func resendEveryTask(_ user: String) throws -> Int {
        try writing { db in
            // Local changes first, so that their registers are written and theirs go out too.
            var (state, registers) = try Self.stampLocalChanges(db, user)
            let uuids = try db.prepare("SELECT uuid FROM sync_register WHERE profile_id = ? ORDER BY uuid")
                .all([state.profile]) { $0.text(0) }
            let insert = try db.prepare(
                """
                INSERT INTO sync_outbox (profile_id, seq, millis, counter, task, field, value, old) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let before = state.outbox
            func put(_ uuid: String, _ change: SyncChange, at stamp: String) throws {
                guard let (millis, counter) = Stamp.parts(of: stamp) else { return }
                state.outbox += 1
                let (value, old) = change.json
                try insert.run([state.profile, state.outbox, millis, counter, uuid, change.field.rawValue, value, old])
            }
            for uuid in uuids {
                guard let register = try registers.get(uuid) else { continue }
                guard register.alive else {
                    try put(uuid, .delete(old: nil), at: register.aliveAt)
                    continue
                }
                // The stamps set at its creation's stamp go with it; the others at their own.
                var stamps = TaskStamps()
                for field in StampField.allCases where register.taskStampsAt[field.index] == register.aliveAt {
                    stamps[field] = register.taskStamps[field]
                }
                let task = SyncTask(fields: register.fields, parent: register.parent, position: register.position, stamps: stamps)
                try put(uuid, .create(task), at: register.aliveAt)
                for field in StampField.allCases {
                    let at = register.taskStampsAt[field.index]
                    guard !at.isEmpty, at != register.aliveAt else { continue }
                    try put(uuid, .stamp(field, register.taskStamps[field]), at: at)
                }
                for (index, field) in TaskField.allCases.enumerated() where !field.isSet && register.fieldsAt[index] > register.aliveAt {
                    try put(uuid, .field(field, register.fields[field], old: nil), at: register.fieldsAt[index])
                }
                // A set element by element, removed ones too, each at its own stamp.
                for (field, elements) in register.elements {
                    for (_, element) in elements.sorted(by: { $0.key < $1.key }) {
                        guard let one = FieldValue.set(field, items: [element.item]), let none = FieldValue.set(field, items: []) else {
                            continue
                        }
                        let change: SyncChange = element.present ? .field(field, one, old: none) : .field(field, none, old: one)
                        try put(uuid, change, at: element.at)
                    }
                }
                if register.parentAt > register.aliveAt {
                    try put(uuid, .parent(register.parent, old: register.parentOld), at: register.parentAt)
                }
                if register.positionAt > register.aliveAt {
                    try put(uuid, .position(register.position), at: register.positionAt)
                }
            }
            try Self.save(db, state)
            return state.outbox - before
        }
    }
}
