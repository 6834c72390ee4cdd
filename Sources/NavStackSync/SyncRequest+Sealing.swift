extension SyncRequest {
    /// What the account's key is once this request is taken, and whether the request sets
    /// it, or why the request is refused; `accountKey` is the key the account holds,
    /// `clearAfter` whether it holds operations in clear past the request's `after`.
    ///
    /// An account keeps the first key it is offered, unless it holds operations in clear the
    /// offering replica has not pulled yet (it gets them, and offers again); another key is
    /// refused (409, with the account's). Once it has a key, every operation must be sealed;
    /// before, none may be. `drop_clear` and a snapshot need the key. `clearAfter` is looked for only when
    /// ``asksForClearAfter(accountKey:)`` (it is a scan of the account's log), else `false`.
    ///
    /// A key offered must be a key record (``SyncKeyShape``): a token holder cannot give an
    /// account text no device reads. A request that writes (operations, a snapshot, a
    /// drop, a key kept) to an account whose record has a write check must carry the write
    /// key it checks (``SyncLogError/writeKeyNeeded``): a token alone reads and no more.
    public func sealing(accountKey: String?, clearAfter: Bool) throws(SyncLogError) -> (key: String?, setsKey: Bool) {
        var effective = accountKey
        var setsKey = false
        if let offered = key {
            if let accountKey {
                guard accountKey == offered else { throw .keyTaken(accountKey: accountKey) }
            } else {
                guard SyncKeyShape(text: offered) != nil else { throw .malformed(.notAKeyRecord) }
                if !clearAfter {
                    effective = offered
                    setsKey = true
                }
            }
        }
        for (index, operation) in operations.enumerated() {
            if effective != nil, operation.sealed == nil { throw .malformed(.notSealed(path: "ops[\(index)]")) }
            if effective == nil, operation.sealed != nil { throw .malformed(.sealedWithoutKey(path: "ops[\(index)]")) }
        }
        if dropClear, effective == nil { throw .malformed(.dropWithoutKey) }
        if snapshot != nil, effective == nil { throw .malformed(.snapshotWithoutKey) }
        // A record from before write checks cannot tell a device from a token holder: what
        // drops operations (a snapshot trims the log, `drop_clear` empties what is in clear)
        // is refused, so that no token holder can drop an account's log behind garbage.
        if snapshot != nil || dropClear, let effective, SyncKeyShape(text: effective)?.writeCheck == nil {
            throw .malformed(.dropWithoutWriteCheck)
        }
        // Last: an earlier navstack's push in clear is told to update, not to prove a key.
        if setsKey || !operations.isEmpty || dropClear || snapshot != nil, let effective,
            SyncKeyShape(text: effective)?.admits(writeKey: writeKey) == false
        {
            throw .writeKeyNeeded
        }
        return (effective, setsKey)
    }

    /// Whether ``sealing(accountKey:clearAfter:)`` needs to know if operations in clear
    /// wait past `after`: only when the request offers a key to an account without one.
    public func asksForClearAfter(accountKey: String?) -> Bool {
        accountKey == nil && key != nil
    }
}

extension SyncRequest {
    /// Whether this request's pull starts from the account's snapshot (covering through
    /// `seq`; the operations through `trimmed` dropped), as
    /// ``SyncSnapshot/startsPull(after:snapshot:trimmed:)`` says. A replica that does not
    /// take snapshots (one from before them) is refused such a pull (400), which it could
    /// only get wrong.
    ///
    /// A replica that does not take the snapshot (one that could not open it, or one from
    /// before snapshots) pulls the log instead while the log holds everything after its
    /// `after` (nothing it needs was dropped).
    public func startsFromSnapshot(seq: Int64, trimmed: Int64) throws(SyncLogError) -> Bool {
        guard SyncSnapshot.startsPull(after: after, snapshot: seq, trimmed: trimmed) else { return false }
        guard takesSnapshots else {
            if after >= trimmed { return false }
            throw .malformed(.snapshotNeeded)
        }
        return true
    }
}

extension SyncRequest {
    /// Refuses a format this navstack does not know (past ``SyncFormat/current``): no
    /// account's format is ever set to one (a token holder naming format 1,000,000 would
    /// have every device told to update for good). A log checks it first, before it writes
    /// or reads anything.
    public func knownFormat() throws(SyncLogError) {
        guard format <= SyncFormat.current else { throw .malformed(.unknownFormat(format: format)) }
    }

    /// Whether the request writes to the account: operations, a key offered, a snapshot,
    /// or the operations in clear dropped.
    public var writes: Bool {
        !operations.isEmpty || key != nil || dropClear || snapshot != nil
    }

    /// The account's format once this request is taken (`accountFormat` before), or why
    /// it is refused: a request older than the account's format is refused whatever it
    /// asks (``SyncLogError/formatNeeded(format:)``), before it writes or reads anything;
    /// a write in a newer format raises the account's to it.
    public func format(accountFormat: Int) throws(SyncLogError) -> Int {
        try knownFormat()
        guard format >= accountFormat else { throw .formatNeeded(format: accountFormat) }
        return writes ? max(format, accountFormat) : accountFormat
    }
}
