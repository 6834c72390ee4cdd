import NavStackCore

extension SyncRequest {
    /// Why the server refuses this request, from what it can see of its operations: a
    /// stamp more than ``SyncDrift/maximumMillis`` ahead of the server's clock (`now`), or
    /// a value the app would refuse in an operation in clear (which every replica would skip
    /// anyway). `nil` when
    /// it takes them all.
    public func refusal(now: Int64) -> SyncWireError? {
        for (index, operation) in operations.enumerated() {
            if operation.millis > now + Int64(SyncDrift.maximumMillis) {
                return .stampAhead(path: "ops[\(index)].millis", millis: Int(operation.millis - now))
            }
            // A sealed payload is checked by the replicas that open it, the same way.
            if operation.sealed == nil, SyncChange(operation) == nil {
                return .refusedValue(path: "ops[\(index)]", field: operation.field)
            }
        }
        return nil
    }
}
