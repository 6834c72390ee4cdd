/// What an operation sets: a whole task (`task`: its creation, or with `null` its
/// deletion) or one of its fields.
public enum SyncField: String, CaseIterable, Sendable {
    case task, title, notes, done, parent, position
    /// Format 2: what a task holds beyond its title, notes and done.
    case due, scheduled, wait, until, priority, project, recur, tags, annotations, depends, fields
    /// Format 3: the stamps a store keeps on a task (``StampField``).
    case created, modified, completed
}

/// One operation as it travels between a replica, the server and the other replicas
/// (docs/sync.md): one field of one task set to one value, stamped by the replica that
/// made it. `(replica, seq)` names it.
///
/// On the wire, an account's operations are end-to-end encrypted: their payload (task,
/// field, value, old) travels in ``sealed``, which only the account's replicas can open;
/// the server sees the replica, seq and stamp alone. An operation of an account that has
/// no key yet (one that synced before encryption) travels in clear.
public struct SyncOperation: Equatable, Sendable {
    /// Its place in the account's log: in an answer, from 1; 0 in a request.
    public var serverSeq: Int64
    /// The replica that made it: 32 lowercase hexadecimal digits in an answer; in a
    /// request the request names it, and this is empty.
    public var replica: String
    /// Its place in the replica's own log, from 1.
    public var seq: Int64
    /// The stamp: the replica's hybrid clock when it made the operation.
    public var millis: Int64
    public var counter: Int64
    /// The task's uuid text.
    public var task: String
    public var field: SyncField
    /// The new value as compact JSON text, kept as sent.
    public var value: String
    /// The value it replaced as compact JSON text; `null` when not sent.
    public var old: String
    /// The payload sealed for the account (base64 text), in place of ``task``, ``field``,
    /// ``value`` and ``old``, which hold nothing while it is set.
    public var sealed: String?

    public init(
        serverSeq: Int64 = 0, replica: String = "", seq: Int64, millis: Int64, counter: Int64, task: String,
        field: SyncField, value: String, old: String = "null", sealed: String? = nil
    ) {
        self.serverSeq = serverSeq
        self.replica = replica
        self.seq = seq
        self.millis = millis
        self.counter = counter
        self.task = task
        self.field = field
        self.value = value
        self.old = old
        self.sealed = sealed
    }

    /// The operation with only its name and stamp, its payload sealed in `sealed`.
    public static func sealed(
        _ sealed: String, serverSeq: Int64 = 0, replica: String = "", seq: Int64, millis: Int64, counter: Int64
    ) -> SyncOperation {
        SyncOperation(
            serverSeq: serverSeq, replica: replica, seq: seq, millis: millis, counter: counter, task: "", field: .task,
            value: "null", sealed: sealed)
    }

    /// At least the bytes the operation takes in a request or an answer: its texts, and
    /// room for its keys, punctuation and numbers. Both ends size batches and pages by it.
    public var encodedSizeBound: Int {
        Self.overheadBound + replica.utf8.count + task.utf8.count + field.rawValue.utf8.count + value.utf8.count
            + old.utf8.count + (sealed?.utf8.count ?? 0)
    }

    /// The keys and punctuation of an answer's operation (78 bytes) and five numbers of up
    /// to 19 digits, rounded up.
    static let overheadBound = 180
}

/// One POST /v1/sync body: a replica's new operations (maybe none) and where its pull
/// starts.
public struct SyncRequest: Equatable, Sendable {
    /// The sending replica: 32 lowercase hexadecimal digits.
    public var replica: String
    /// The highest `server_seq` this replica has applied; the pull starts after it.
    public var after: Int64
    public var operations: [SyncOperation]
    /// The account's key record (``SyncKeyRecord``), offered by a replica that made it:
    /// the server keeps the first one an account is given and refuses another (409).
    public var key: String?
    /// Asks the server to drop the account's operations kept in clear, once a replica has
    /// sent them all again sealed (an account moving to encryption).
    public var dropClear = false
    /// A snapshot of the account this replica made, covering through `after` (which it
    /// has applied, with nothing of its own left to send): sent in a request without
    /// operations, the server keeps it in place of an older one.
    public var snapshot: SyncSnapshot?
    /// With a snapshot, the highest seq of this replica's own operations (all of them
    /// acknowledged): the server refuses the snapshot, as a (replica, seq) held with other
    /// content, when it holds one of the replica's past it, which only a copy of the store
    /// made (and this one never saw).
    public var ownSeq: Int64 = 0
    /// Whether this replica takes a snapshot in an answer: a replica that does not (one
    /// from before snapshots) is refused a pull from before the account's snapshot, where
    /// the operations it would need are no longer kept.
    public var takesSnapshots = true
    /// The account's write key (base64 of 32 bytes, derived from the passphrase): proof
    /// that the request comes from a replica that knows the passphrase, not only a token.
    /// A log takes a write (operations, a snapshot, a drop, a key) to an account whose key
    /// record has a `write_check` only with the key whose SHA-256 that is
    /// (``SyncKeyShape/admits(writeKey:)``). It travels over TLS and is never served.
    public var writeKey: String?
    /// The format of the operations this replica writes and reads (``SyncFormat``): absent
    /// on the wire means 1. A log refuses a request older than the account's format (an
    /// earlier navstack must not read, nor snapshot, what it does not understand), and a
    /// write raises the account's format to its own.
    public var format = SyncFormat.current
    /// The replicas whose operations this replica keeps set aside (they did not open with
    /// the account's key): the answer names those the account no longer holds any of
    /// (``SyncAnswer/gone``), which it then lets go of. At most
    /// ``SyncLimits/maximumAsideReplicas``; empty, and absent on the wire, for most.
    public var aside: [String] = []

    public init(
        replica: String, after: Int64, operations: [SyncOperation], key: String? = nil, dropClear: Bool = false,
        snapshot: SyncSnapshot? = nil
    ) {
        self.replica = replica
        self.after = after
        self.operations = operations
        self.key = key
        self.dropClear = dropClear
        self.snapshot = snapshot
    }
}

/// The server's answer to a request: other replicas' operations after the requester's
/// `after`, in `server_seq` order, and where the requester's next pull starts.
public struct SyncAnswer: Equatable, Sendable {
    public var operations: [SyncOperation]
    /// The `server_seq` the requester has seen up to: the last operation sent when
    /// ``more`` is true, otherwise the account's highest (its own included, so it does
    /// not read its own operations again).
    public var last: Int64
    /// Whether more operations are waiting after ``last``.
    public var more: Bool
    /// The account's key record, when it has one: then every operation is sealed with it.
    public var key: String?
    /// The account's snapshot, for a requester whose pull starts before it (a new replica,
    /// or one away since the operations it covers were dropped): it stands for every
    /// operation through its `seq`, and ``operations`` follow it.
    public var snapshot: SyncSnapshot?
    /// How many operations the account took since its snapshot (all of them, when it has
    /// none), for a sealed account: a replica makes a new snapshot when they are many.
    public var sinceSnapshot: Int64?
    /// The server log's restore epoch (docs/sync.md, "When the server's log goes back"):
    /// it changes when the log is restored from a backup, and a replica that sees it
    /// change pulls from the start and sends again what it holds.
    public var epoch: String?
    /// What the server stored of the request this answers: its replica and the range of
    /// its seqs (``SyncStored``). A replica takes no answer that names another.
    public var stored: SyncStored?
    /// Of the request's ``SyncRequest/aside``, the replicas the account holds no operation
    /// of (removed with `navstack-server user drop-replica`).
    public var gone: [String] = []
    /// The operations a replica could not open with the account's key, set aside when the
    /// answer was opened (kept, never applied): the replica's own, never on the wire.
    public var setAside: [SyncOperation] = []

    public init(
        operations: [SyncOperation], last: Int64, more: Bool, key: String? = nil, snapshot: SyncSnapshot? = nil,
        sinceSnapshot: Int64? = nil
    ) {
        self.operations = operations
        self.last = last
        self.more = more
        self.key = key
        self.snapshot = snapshot
        self.sinceSnapshot = sinceSnapshot
    }
}

/// The formats of operations (docs/sync.md, "Formats"): each navstack writes and reads one,
/// and every format before it.
public enum SyncFormat {
    /// This navstack's: 3. Format 1 has the fields `title`, `notes`, `done`, `parent` and
    /// `position`; 2 adds `due`, `scheduled`, `wait`, `until`, `priority`, `project`,
    /// `recur`, `tags`, `annotations`, `depends` and `fields`, and those members of a
    /// created task (a replica of format 1 would drop them); 3 adds the stamps `created`,
    /// `modified` and `completed`, and those members of a created task, and snapshots
    /// that hold them, and takes every value ``FieldRules`` takes: titles of up to 1,000
    /// characters (200 before) and values that hold a bidi control or a zero-width
    /// character (a replica of format 2 would drop them, the task or the change, so it is
    /// refused with "update navstack" instead).
    public static let current = 3
    /// The highest a request may name.
    public static let highest = 1_000_000
}

/// The sizes the protocol fixes (docs/sync.md): one request, one answer.
public enum SyncLimits {
    /// The largest request body: 8 MiB. A bigger one is refused with 413, from its
    /// Content-Length before it is read, or as soon as it streams past this.
    public static let maximumBodyBytes = 8 << 20
    /// The most operations one request may push.
    public static let maximumOperationsPerRequest = 10_000
    /// The most operations one answer carries; `more` says there are others.
    public static let pageSize = 10_000
    /// The most bytes of operations one answer carries (one operation always goes, and
    /// none is larger than a request): clients read answers of up to 64 MiB.
    public static let maximumAnswerBytes = 8 << 20
    /// The most bytes of operations one request carries, past the first: well within
    /// ``maximumBodyBytes``.
    public static let maximumRequestBytes = 4 << 20
    /// The longest task uuid text, in characters.
    public static let maximumTaskLength = 64
    /// The longest sealed payload (base64 text): a request's whole body at most.
    public static let maximumSealedBytes = maximumRequestBytes
    /// The longest key record (``SyncKeyRecord``) text.
    public static let maximumKeyBytes = 1024

    /// How many of `operations` (in order) fit one message: at most `count` of them,
    /// and no more than fill `bytes` (always one, when there is one).
    public static func fitting(_ operations: some Collection<SyncOperation>, count: Int, bytes: Int) -> Int {
        var total = 0
        var fitting = 0
        for operation in operations.prefix(count) {
            total += operation.encodedSizeBound
            if total > bytes && fitting > 0 { break }
            fitting += 1
        }
        return fitting
    }
}
