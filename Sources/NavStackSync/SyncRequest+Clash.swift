extension SyncRequest {
    /// The first operation that names the seq of an earlier operation of the request, or of
    /// one the account holds (`held`), with other content; `nil` when none does. An
    /// operation sent again as it was is no clash: a request sent twice is taken twice.
    public func clash(held: (Int64) -> SyncOperation?) -> SyncWireError? {
        var earlier: [Int64: Int] = [:]
        for (index, operation) in operations.enumerated() {
            let other = earlier[operation.seq].map { operations[$0] } ?? held(operation.seq)
            if let other, !other.hasContent(of: operation) {
                return .replicaTaken(path: "ops[\(index)]", replica: replica, seq: operation.seq)
            }
            if earlier[operation.seq] == nil { earlier[operation.seq] = index }
        }
        return nil
    }
}

extension SyncOperation {
    /// Whether `other` says the same as this one: its stamp, and its sealed payload or its
    /// task, field, value and old value (not where a log keeps it).
    public func hasContent(of other: SyncOperation) -> Bool {
        millis == other.millis && counter == other.counter && sealed == other.sealed && task == other.task
            && field == other.field && value == other.value && old == other.old
    }
}
