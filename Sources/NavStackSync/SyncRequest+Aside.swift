import NavStackCore

// What a replica set aside, and what the server no longer holds of it (docs/sync.md,
// "End-to-end encryption"): a request names the replicas whose operations the device keeps
// set aside (`"aside"`, only when it keeps some), and the answer names those of them the
// account holds no operation of (`"gone"`: `navstack-server user drop-replica` removed
// them), which the device then lets go of.

extension SyncLimits {
    /// The most replicas a request's `aside` names.
    public static let maximumAsideReplicas = 64
}

extension SyncRequest {
    /// Of the replicas this request names as set aside, those `holds` says the account
    /// holds no operation of: the answer's `gone`.
    public func gone(holding holds: (String) -> Bool) -> [String] {
        aside.filter { !holds($0) }
    }
}

extension SyncDecoder {
    /// A list of replica ids (`aside`, `gone`): at most ``SyncLimits/maximumAsideReplicas``.
    mutating func replicas(path: String) throws -> [String] {
        guard reader.peek == UInt8(ascii: "[") else {
            try reader.skipValue(depth: 1)
            throw SyncWireError.notAnArray(path: path)
        }
        reader.index += 1
        var replicas: [String] = []
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "]") {
            reader.index += 1
            return replicas
        }
        while true {
            guard replicas.count < SyncLimits.maximumAsideReplicas else {
                throw SyncWireError.tooManyReplicas(path: path, limit: SyncLimits.maximumAsideReplicas)
            }
            let index = replicas.count
            replicas.append(try replica(path: { "\(path)[\(index)]" }, depth: 2))
            reader.skipBlanks()
            if reader.peek == UInt8(ascii: ",") {
                reader.index += 1
                reader.skipBlanks()
                continue
            }
            try reader.expect(UInt8(ascii: "]"))
            return replicas
        }
    }
}
