import Hummingbird
import NavStackCore

/// What one sync answers: other replicas' operations after the requester's `after`, in
/// `server_seq` order, and where the requester's next pull starts.
public struct PullPage: Equatable, Sendable {
    public var operations: [StoredOperation]
    /// The `server_seq` the requester has seen up to: the last operation sent when
    /// ``more`` is true, otherwise the account's highest (its own included, so it does not
    /// read its own operations again).
    public var last: Int64
    /// Whether more operations are waiting after ``last``.
    public var more: Bool

    public init(operations: [StoredOperation], last: Int64, more: Bool) {
        self.operations = operations
        self.last = last
        self.more = more
    }

    /// An operation as the server keeps it: the request's fields plus who sent it and its
    /// place in the account's log.
    public struct StoredOperation: Equatable, Sendable {
        public var serverSeq: Int64
        public var replica: String
        public var seq: Int64
        public var millis: Int64
        public var counter: Int32
        public var task: String
        public var field: String
        /// JSON text, written into the answer as it is.
        public var value: String
        public var old: String

        public init(
            serverSeq: Int64, replica: String, seq: Int64, millis: Int64, counter: Int32, task: String, field: String,
            value: String, old: String
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
        }
    }

    /// How many of `operations` (in order) one answer carries: at most a page, and no
    /// more than fill ``SyncLimits/maximumAnswerBytes`` (always one).
    static func fitting(_ operations: [StoredOperation]) -> Int {
        var bytes = 0
        for (index, operation) in operations.prefix(SyncLimits.pageSize).enumerated() {
            bytes += 160 + operation.replica.utf8.count + operation.task.utf8.count + operation.field.utf8.count
                + operation.value.utf8.count + operation.old.utf8.count
            if bytes > SyncLimits.maximumAnswerBytes && index > 0 { return index }
        }
        return min(operations.count, SyncLimits.pageSize)
    }

    /// The answer's body: `{"ops":[…],"last":N,"more":B}`, keys in the protocol's order.
    /// `value` and `old` are JSON the server checked when it took them, so they are copied.
    public func json(allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 32 + operations.reduce(0) { $0 + 120 + $1.value.utf8.count + $1.old.utf8.count })
        buffer.writeStaticString("{\"ops\":[")
        for (index, operation) in operations.enumerated() {
            if index > 0 { buffer.writeStaticString(",") }
            buffer.writeStaticString("{\"server_seq\":")
            buffer.writeString(String(operation.serverSeq))
            buffer.writeStaticString(",\"replica\":")
            buffer.writeJSONString(operation.replica)
            buffer.writeStaticString(",\"seq\":")
            buffer.writeString(String(operation.seq))
            buffer.writeStaticString(",\"millis\":")
            buffer.writeString(String(operation.millis))
            buffer.writeStaticString(",\"counter\":")
            buffer.writeString(String(operation.counter))
            buffer.writeStaticString(",\"task\":")
            buffer.writeJSONString(operation.task)
            buffer.writeStaticString(",\"field\":")
            buffer.writeJSONString(operation.field)
            buffer.writeStaticString(",\"value\":")
            buffer.writeString(operation.value)
            buffer.writeStaticString(",\"old\":")
            buffer.writeString(operation.old)
            buffer.writeStaticString("}")
        }
        buffer.writeStaticString("],\"last\":")
        buffer.writeString(String(last))
        buffer.writeStaticString(more ? ",\"more\":true}" : ",\"more\":false}")
        return buffer
    }
}

extension ByteBuffer {
    /// `text` as a JSON string literal. Replicas, fields and uuids need no escape and are
    /// copied as they are; anything else goes through navstack's one JSON string writer.
    fileprivate mutating func writeJSONString(_ text: String) {
        var text = text
        let plain = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
            else { return false }
            writeInteger(UInt8(ascii: "\""))
            writeBytes(bytes)
            writeInteger(UInt8(ascii: "\""))
            return true
        }
        if !plain { writeString(text.jsonQuoted) }
    }
}
