/// One POST /v1/sync body: a replica's new operations (maybe none) and where its pull
/// starts. Only a request that passed every check of the protocol becomes one.
public struct SyncRequest: Equatable, Sendable {
    /// The sending replica: 32 lowercase hexadecimal digits.
    public var replica: String
    /// The highest `server_seq` this replica has applied; the pull starts after it.
    public var after: Int64
    public var operations: [Operation]

    public init(replica: String, after: Int64, operations: [Operation]) {
        self.replica = replica
        self.after = after
        self.operations = operations
    }

    /// One field of one task set to one value, as the replica recorded it.
    public struct Operation: Equatable, Sendable {
        /// Its place in the replica's own log, from 1: `(replica, seq)` names it.
        public var seq: Int64
        public var millis: Int64
        public var counter: Int32
        /// The task's uuid text.
        public var task: String
        public var field: Field
        /// The new value as compact JSON text, kept as sent.
        public var value: String
        /// The value it replaced as compact JSON text; `null` when not sent.
        public var old: String

        public init(seq: Int64, millis: Int64, counter: Int32, task: String, field: Field, value: String, old: String = "null") {
            self.seq = seq
            self.millis = millis
            self.counter = counter
            self.task = task
            self.field = field
            self.value = value
            self.old = old
        }
    }

    /// What an operation sets.
    public enum Field: String, CaseIterable, Sendable {
        case task, title, notes, done, parent, position
    }
}
