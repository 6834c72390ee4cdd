import NavStackSQLite
import NavStackSeal
import NavStackSync

/// The sync protocol with the account's key (docs/sync.md, "End-to-end encryption"):
/// what goes out is sealed, what comes back is checked against the account's key record
/// and opened. Nothing the server sends is applied unless it opens with the key.
struct SealedTransport {
    /// An answer being read, checked and opened.
    typealias Answering = Background<Result<SyncAnswer, SyncError>>

    let transport: any SyncTransport
    let seal: SyncSeal
    let sealer: OperationSealer
    /// The server log's restore epoch the profile saw last (empty: none yet).
    let epoch: String
    /// Whether requests take a snapshot in their answer: not once one did not open (the
    /// server then sends the log, while it holds it all).
    let takesSnapshots: Bool

    init(_ transport: any SyncTransport, seal: SyncSeal, epoch: String = "", takesSnapshots: Bool = true) throws(SyncError) {
        guard let record = SyncKeyRecord(text: seal.record), let key = SealKey(bytes: seal.key) else { throw .badKeyRecord }
        self.transport = transport
        self.seal = seal
        self.epoch = epoch
        self.takesSnapshots = takesSnapshots
        sealer = OperationSealer(key: key, record: record)
    }

    /// `batch` with its operations sealed, to be sent later.
    func sealed(_ batch: SyncBatch) -> SyncBatch {
        var sealed = batch
        sealed.request = prepared(batch.request)
        return sealed
    }

    /// Sends `request` with its operations sealed (those sealed already as they are); its
    /// answer is taken only when it names what the request sent (``BoundReply``).
    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        try transport.sendBound(prepared(request), by: end)
    }

    /// `request` sealed, with the write key, asking for a snapshot or not.
    private func prepared(_ request: SyncRequest) -> SyncRequest {
        var sealed = sealer.seal(request)
        if !takesSnapshots { sealed.takesSnapshots = false }
        return sealed
    }

    /// The answer, opened. Once the server holds the account's key, every answer names
    /// it (else ``SyncError/keyMissing``) and every operation that does not open with it
    /// is set aside; an answer from a server whose log went back (another epoch) is
    /// ``SyncError/serverRestored(epoch:)``; while this replica offers its key, an answer
    /// without one carries operations in clear (an account from before encryption), and
    /// one with another key is that key, taken first by another replica.
    func answer(_ reply: any SyncReply) throws(SyncError) -> SyncAnswer {
        try opened(reply.answer())
    }

    /// ``answer(_:)`` on a thread of its own, while the caller applies the answer before.
    func answering(_ reply: any SyncReply) -> Answering {
        Background { Result { () throws(SyncError) in try answer(reply) } }
    }

    /// An answer read before the key was known (the key probe's), checked and opened on a
    /// thread of its own.
    func opening(_ answer: SyncAnswer) -> Answering {
        Background { Result { () throws(SyncError) in try opened(answer) } }
    }

    /// `answer`, checked against the account's key record and opened.
    func opened(_ answer: SyncAnswer) throws(SyncError) -> SyncAnswer {
        if seal.state == .offered {
            guard let key = answer.key else {
                // Only an account with a key keeps a snapshot.
                if let snapshot = answer.snapshot { throw .unopenableSnapshot(seq: snapshot.seq) }
                guard answer.operations.allSatisfy({ $0.sealed == nil }) else {
                    throw .unopenable(replica: answer.operations[0].replica, seq: answer.operations[0].seq)
                }
                return answer
            }
            guard key == seal.record else { throw .keyTaken(record: key) }
        } else {
            guard let key = answer.key else { throw .keyMissing }
            guard key == seal.record else { throw .keyChanged }
        }
        if !epoch.isEmpty, let changed = answer.epoch, changed != epoch { throw .serverRestored(epoch: changed) }
        // What does not open is set aside, and the rest applied.
        var opened = sealer.open(answer)
        if let snapshot = answer.snapshot {
            guard let registers = sealer.open(snapshot) else { throw .unopenableSnapshot(seq: snapshot.seq) }
            opened.snapshot = registers
        }
        return opened
    }
}

/// The key probe of a profile that joined an account with a key: its answer, read before
/// the key was known, is the first page of what the account holds.
struct KeyProbe {
    let batch: SyncBatch
    let answer: SyncAnswer
}
