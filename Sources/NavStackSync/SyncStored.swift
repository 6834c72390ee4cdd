import NavStackCore

/// What the server stored of a request, which its answer names (docs/sync.md, "An answer
/// is bound to its request"): the replica that sent it and the range of its seqs (`0` and
/// `0` for a request of none). A replica takes an answer only when it names what its own
/// request sent (``answers(_:)``): an answer that came for another request (a stray one
/// on a kept connection, read after the next request went out) acknowledges nothing.
public struct SyncStored: Equatable, Sendable {
    public var replica: String
    /// The lowest and highest seq of the request's operations.
    public var first: Int64
    public var last: Int64

    public init(replica: String, first: Int64, last: Int64) {
        self.replica = replica
        self.first = first
        self.last = last
    }

    /// What a log stores of `request` when it takes it: each of its operations, once.
    public init(_ request: SyncRequest) {
        replica = request.replica
        first = request.operations.lazy.map(\.seq).min() ?? 0
        last = request.operations.lazy.map(\.seq).max() ?? 0
    }

    /// Whether `answer` is the answer to the request this was made from: it names the
    /// same replica and range.
    public func answers(_ answer: SyncAnswer) -> Bool {
        answer.stored == self
    }

    /// `{"replica":…,"first":N,"last":N}`.
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("replica"); json.string(replica)
            json.key("first"); json.number(Int(first))
            json.key("last"); json.number(Int(last))
        }
    }
}

extension SyncDecoder {
    /// An answer's `stored`.
    mutating func stored() throws -> SyncStored {
        var replica: String?
        var first: Int64?
        var last: Int64?
        try members(of: "stored", depth: 1) { decoder, key throws in
            switch key {
            case "replica":
                guard replica == nil else { throw SyncWireError.repeated(path: "stored.replica") }
                replica = try decoder.replica(path: { "stored.replica" }, depth: 2)
            case "first":
                guard first == nil else { throw SyncWireError.repeated(path: "stored.first") }
                first = try decoder.whole(path: { "stored.first" }, 0...Int64.max, depth: 2)
            case "last":
                guard last == nil else { throw SyncWireError.repeated(path: "stored.last") }
                last = try decoder.whole(path: { "stored.last" }, 0...Int64.max, depth: 2)
            default:
                try decoder.reader.skipValue(depth: 2)
            }
        }
        guard let replica else { throw SyncWireError.missing(path: "stored.replica") }
        guard let first else { throw SyncWireError.missing(path: "stored.first") }
        guard let last else { throw SyncWireError.missing(path: "stored.last") }
        return SyncStored(replica: replica, first: first, last: last)
    }
}
