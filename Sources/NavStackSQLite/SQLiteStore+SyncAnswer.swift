import NavStackCore
import NavStackSync

/// What applying one answer of the server did.
public struct SyncRound: Equatable, Sendable {
    /// Operations of other replicas received.
    public var received: Int
    /// Local values another replica's later change replaced (shown, and undoable).
    public var conflicts: Int
    /// Operations newly set aside (they did not open with the account's key), by replica,
    /// in the order first seen.
    public var setAside: [(replica: String, count: Int)] = []
    /// Whether some were not kept: the store holds as many as it keeps (``SyncAsideBound``).
    public var asideFull = false

    public static func == (lhs: SyncRound, rhs: SyncRound) -> Bool {
        lhs.received == rhs.received && lhs.conflicts == rhs.conflicts && lhs.asideFull == rhs.asideFull
            && lhs.setAside.elementsEqual(rhs.setAside) { $0.replica == $1.replica && $0.count == $1.count }
    }
}

extension SQLiteStore {
    /// Applies the server's answer to `batch`: the server has this replica's
    /// operations through `batch.through`, and sends other replicas' operations,
    /// applied here in one transaction (again harmlessly, if a run before this one was
    /// cut off before it committed).
    public func applySyncAnswer(_ user: String, _ answer: SyncAnswer, to batch: SyncBatch) throws -> SyncRound {
        try writing { db in
            var state = try Self.syncState(db, user)
            let registers = SyncRegisters(db, profile: state.profile)
            // Changes made here since the request count as this replica's, stamped now.
            try Self.stampLocalChanges(db, &state, registers)
            var touched: [String] = []
            // Tasks this replica never knew before this answer: none stands here yet.
            var unknown: Set<String> = []
            var before: [String: StoredTask] = [:]
            var lost: [(String, [String])] = []
            /// Changes the register of `uuid` by `change`, which returns the local values that lost.
            func take(_ uuid: String, _ change: (inout SyncRegister) -> [String]) throws {
                var register: SyncRegister
                if let known = try registers.get(uuid) {
                    register = known
                } else {
                    register = SyncRegister(uuid: uuid)
                    unknown.insert(uuid)
                }
                let fields = change(&register)
                registers.set(register)
                if !fields.isEmpty {
                    if before[uuid] == nil, let task = try Self.stored(db, user, uuid: uuid) { before[uuid] = task }
                    lost.append((uuid, fields))
                }
                touched.append(uuid)
            }
            // A snapshot stands for the operations through its seq; those after it follow.
            for other in answer.snapshot?.registers ?? [] {
                for stamp in other.stamps {
                    if let (millis, counter) = Stamp.parts(of: stamp) { state.clock.observe(millis: millis, counter: counter) }
                }
                try take(other.uuid) { $0.merge(other, replica: state.replica) }
            }
            for operation in answer.operations {
                guard operation.replica != state.replica, let change = SyncChange(operation) else { continue }
                let (millis, counter) = (Int(operation.millis), Int(operation.counter))
                state.clock.observe(millis: millis, counter: counter)
                let stamp = Stamp.text(millis: millis, counter: counter, replica: operation.replica)
                try take(operation.task) { $0.apply(change, at: stamp, replica: state.replica) }
            }
            try Self.place(db, user, state, touched, registers, unknown: unknown)
            try registers.write()
            let conflicts = try recordLosses(db, user, state.profile, lost, before: before)
            if !touched.isEmpty { try Self.settleSeries(db, user, profile: state.profile) }
            // What the server acknowledged, and where the pull goes on, are this replica's
            // only while the store has the replica id the request named: another process
            // on the store may have taken a new one meanwhile, numbered the outbox again and
            // started its pull over (the answer left out the old id's operations).
            if batch.request.replica == state.replica {
                state.sent = max(state.sent, batch.through)
                state.pulled = max(state.pulled, Int(answer.last))
                try db.run("DELETE FROM sync_outbox WHERE profile_id = ? AND seq <= ?", [state.profile, state.sent])
            }
            try Self.save(db, state)
            try Self.letGoAside(db, profile: state.profile, gone: answer.gone, asked: batch.request.aside)
            let setAside = try Self.setAside(db, profile: state.profile, answer.setAside)
            // The server's epoch as first seen; one that changes is the caller's to notice
            // (``restartSync(_:epoch:)``).
            if let epoch = answer.epoch {
                try db.run("UPDATE sync SET epoch = ? WHERE profile_id = ? AND epoch = ''", [epoch, state.profile])
            }
            let received = answer.operations.count + (answer.snapshot?.registers.count ?? 0)
            var round = SyncRound(
                received: received, conflicts: conflicts, setAside: setAside.counts.map { (replica: $0.0, count: $0.1) })
            round.asideFull = setAside.full
            return round
        }
    }

    /// Keeps what other replicas replaced of this one's: one change in the history
    /// (`undo` brings the local values back, as new operations that then win
    /// everywhere) and one notice a task. Returns how many tasks lost a value.
    private func recordLosses(
        _ db: Connection, _ user: String, _ profile: Int64, _ lost: [(String, [String])],
        before: [String: StoredTask]
    ) throws -> Int {
        guard !lost.isEmpty else { return 0 }
        var fieldsByTask: [String: [String]] = [:]
        var order: [String] = []
        for (uuid, fields) in lost {
            if fieldsByTask[uuid] == nil { order.append(uuid) }
            for field in fields where !(fieldsByTask[uuid]?.contains(field) ?? false) { fieldsByTask[uuid, default: []].append(field) }
        }
        var pairs: [ChangePair] = []
        var notices: [SyncNotice] = []
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
            notices.append(SyncNotice(title: old.fields.title, fields: fields))
        }
        if !pairs.isEmpty { try record(db, user, .sync, pairs) }
        let insert = try db.statement("INSERT INTO sync_notice (profile_id, title, fields) VALUES (?, ?, ?)")
        for notice in notices {
            try insert.run([profile, notice.title, notice.fields.joined(separator: " ")])
        }
        return notices.count
    }
}
