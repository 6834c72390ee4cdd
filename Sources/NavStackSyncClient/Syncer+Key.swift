import NavStackSQLite
import NavStackSeal
import NavStackSync

extension Syncer {
    /// The protocol with the account's key as `seal` holds it.
    func transport(sealedWith seal: SyncSeal) throws(SyncError) -> SealedTransport {
        try SealedTransport(
            transport, seal: seal, epoch: try make { try store.syncEpoch(user) }, takesSnapshots: takesSnapshots)
    }

    /// A request that sends nothing (``SQLiteStore/syncProbe(_:)``), made by `asking`, and
    /// its answer, applied and counted into `totals`.
    private func probe(
        _ transport: SealedTransport, until end: ContinuousClock.Instant, totals: inout SyncTotals,
        asking: (inout SyncRequest) -> Void
    ) throws(SyncError) -> SyncAnswer {
        var probe = try make { try store.syncProbe(user) }
        asking(&probe.request)
        let answer = try transport.answer(try transport.send(probe.request, by: end))
        let round = try make { try store.applySyncAnswer(user, answer, to: probe) }
        totals.count(round, sent: 0)
        return answer
    }

    /// A profile without a key asks the server for the account's key record (sending
    /// nothing, applying nothing): with one, the passphrase must open it, and the probe's
    /// answer, its first page, is returned to be opened and applied as the first round's;
    /// without, this replica makes the account's key from a new passphrase and will offer
    /// it, stamping the store's changes while the key is derived (the totals say so). An
    /// account without a key that holds anything is one whose tasks travel in clear: it
    /// moves to encryption only when this run was asked to (``migrate``), else nothing in
    /// clear is applied and the sync stops (a server that dropped a key it held looks the
    /// same, and must not make a device take what it serves in clear).
    func learnKey(until end: ContinuousClock.Instant, totals: inout SyncTotals) throws(SyncError) -> (SyncSeal, KeyProbe?) {
        let probe = try make { try store.syncProbe(user) }
        let answer = try transport.sendBound(probe.request, by: end).answer()
        let seal: SyncSeal
        var held: KeyProbe?
        if let text = answer.key {
            seal = try opened(text, forgetting: false)
            held = KeyProbe(batch: probe, answer: answer)
        } else {
            if answer.last > 0 || !answer.operations.isEmpty, !migrate { throw .clearNeedsMigrate }
            totals.madeKey = true
            let passphrase = try passphrase.passphrase(user: user, isNew: true)
            let making = Background { SyncKeyRecord.make(passphrase: passphrase) }
            try make { try store.stampSyncChanges(user) }
            let (record, key) = making.value()
            seal = SyncSeal(state: .offered, key: key.bytes, record: record.text)
        }
        try make { try store.setSyncSeal(user, seal) }
        return (seal, held)
    }

    /// The seal of the account's key record `text`, when the passphrase opens it; else the
    /// sync stops, and with `forgetting` the profile forgets the key it made (the next
    /// sync asks again).
    func opened(_ text: String, forgetting: Bool) throws(SyncError) -> SyncSeal {
        guard let record = SyncKeyRecord(text: text) else { throw .badKeyRecord }
        guard let key = record.open(passphrase: try passphrase.passphrase(user: user, isNew: false)) else {
            if forgetting { try make { try store.setSyncSeal(user, .none) } }
            throw .wrongPassphrase
        }
        return SyncSeal(state: .sealed, key: key.bytes, record: text)
    }

    /// Offers the key this replica made until the server holds it, pulling what the
    /// account holds in clear first (the server takes a key only from a replica that has
    /// everything). An account that held operations is then sent again, sealed.
    func offerKey(_ seal: SyncSeal, until end: ContinuousClock.Instant, totals: inout SyncTotals) throws(SyncError) -> SyncSeal {
        let transport = try transport(sealedWith: seal)
        while true {
            let answer = try probe(transport, until: end, totals: &totals) { $0.key = seal.record }
            guard answer.key == seal.record else {
                // Pages of what the account holds in clear come first; an answer with none
                // and nothing more is a server that does not keep the key (asked again, it
                // would answer the same until the run's time is spent).
                if answer.operations.isEmpty && !answer.more { throw .keyNotKept }
                continue
            }
            var taken = seal
            taken.state = answer.last > 0 ? .resending : .sealed
            // Both or neither: a sync cut short here offers the key again, and the server,
            // which holds it, says so at once.
            try make {
                try store.transaction {
                    if taken.state == .resending { try store.resendEveryTask(user) }
                    try store.setSyncSeal(user, taken)
                }
            }
            return taken
        }
    }

    /// Sends the server a snapshot of the account, sealed, when one is due (the account
    /// took `since` operations since its last) and this replica has everything and nothing
    /// to send: then whoever joins takes it and the operations after it, and the server
    /// drops the operations it covers. A snapshot is a saving, not a change: one that
    /// cannot be made or sent (no time left, too large, the server down) is left for a
    /// later sync, and the sync stands as it is. So is one the server refuses because it
    /// holds operations of this replica's past `ownSeq`: another process on this store
    /// may have sent them meanwhile (a copy of the store, which made them without this
    /// one seeing them, takes a replica id of its own at its next push).
    func offerSnapshot(_ seal: SyncSeal, since: Int64, until end: ContinuousClock.Instant, totals: inout SyncTotals) {
        // An account keyed before write checks takes none (``SyncWireError/dropWithoutWriteCheck``).
        guard SyncKeyShape(text: seal.record)?.writeCheck != nil else { return }
        do {
            guard
                let (seq, ownSeq, registers) = try make({
                    try store.syncSnapshot(user, since: since, least: snapshotsAfter, within: snapshotLimit)
                })
            else { return }
            let transport = try transport(sealedWith: seal)
            let snapshot = transport.sealer.seal(registers, through: seq)
            guard snapshot.sealed.utf8.count <= snapshotLimit else { return }
            _ = try probe(transport, until: end, totals: &totals) { request in
                request.after = seq
                request.snapshot = snapshot
                request.ownSeq = ownSeq
            }
        } catch {
            return
        }
    }

    /// Once every task went again sealed, asks the server to drop the account's
    /// operations kept in clear.
    /// (An account keyed before write checks takes no drop, which it could not tell from a
    /// token holder's: its operations in clear stay, never served once it has a key.)
    func dropClear(_ seal: SyncSeal, until end: ContinuousClock.Instant, totals: inout SyncTotals) throws(SyncError) -> SyncSeal {
        if SyncKeyShape(text: seal.record)?.writeCheck != nil {
            _ = try probe(transport(sealedWith: seal), until: end, totals: &totals) { $0.dropClear = true }
        }
        var sealed = seal
        sealed.state = .sealed
        try make { try store.setSyncSeal(user, sealed) }
        return sealed
    }
}
