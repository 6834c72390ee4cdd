import NavStackCore

extension SyncDecoder {
    mutating func operations(inAnswer: Bool) throws -> [SyncOperation] {
        guard reader.peek == UInt8(ascii: "[") else {
            try reader.skipValue(depth: 1)
            throw SyncWireError.notAnArray(path: "ops")
        }
        reader.index += 1
        var operations: [SyncOperation] = []
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "]") {
            reader.index += 1
            return operations
        }
        // About 150 bytes an operation: enough room, usually, without growing.
        operations.reserveCapacity(min(SyncLimits.maximumOperationsPerRequest, reader.end / 150 + 1))
        while true {
            // A request carries at most so many; an answer, a page of at most as many.
            guard operations.count < SyncLimits.maximumOperationsPerRequest else { throw SyncWireError.tooManyOperations }
            operations.append(try operation(at: operations.count, inAnswer: inAnswer))
            reader.skipBlanks()
            if reader.peek == UInt8(ascii: ",") {
                reader.index += 1
                reader.skipBlanks()
                continue
            }
            try reader.expect(UInt8(ascii: "]"))
            return operations
        }
    }

    mutating func operation(at index: Int, inAnswer: Bool) throws -> SyncOperation {
        var serverSeq: Int64?
        var replica: String?
        var seq: Int64?
        var millis: Int64?
        var counter: Int64?
        var task: String?
        var field: SyncField?
        var value: String?
        var old: String?
        var sealed: String?
        func path(_ key: String) -> String { "ops[\(index)].\(key)" }
        func once<T>(_ slot: T?, _ key: String) throws {
            guard slot == nil else { throw SyncWireError.repeated(path: path(key)) }
        }
        try members(of: "ops[\(index)]", depth: 2) { decoder, key throws in
            switch key {
            case "server_seq" where inAnswer:
                try once(serverSeq, key)
                serverSeq = try decoder.whole(path: { path(key) }, 1...Int64.max, depth: 3)
            case "replica" where inAnswer:
                try once(replica, key)
                replica = try decoder.replica(path: { path(key) }, depth: 3)
            case "seq":
                try once(seq, key)
                seq = try decoder.whole(path: { path(key) }, 1...Int64.max, depth: 3)
            case "millis":
                try once(millis, key)
                millis = try decoder.whole(path: { path(key) }, 0...Int64.max, depth: 3)
            case "counter":
                try once(counter, key)
                counter = try decoder.whole(path: { path(key) }, 0...Int64(Int32.max), depth: 3)
            case "task":
                try once(task, key)
                task = try decoder.task(path: { path(key) })
            case "field":
                try once(field, key)
                field = try decoder.field(path: { path(key) })
            case "value":
                try once(value, key)
                value = try decoder.jsonText()
            case "old":
                try once(old, key)
                old = try decoder.jsonText()
            case "sealed":
                try once(sealed, key)
                sealed = try decoder.sealed(path: { path(key) })
            default:
                try decoder.reader.skipValue(depth: 3)
            }
        }
        if inAnswer {
            guard serverSeq != nil else { throw SyncWireError.missing(path: path("server_seq")) }
            guard replica != nil else { throw SyncWireError.missing(path: path("replica")) }
        }
        guard let seq else { throw SyncWireError.missing(path: path("seq")) }
        guard let millis else { throw SyncWireError.missing(path: path("millis")) }
        guard let counter else { throw SyncWireError.missing(path: path("counter")) }
        if let sealed {
            // A sealed payload hides what an operation in clear shows: never both.
            guard task == nil, field == nil, value == nil, old == nil else {
                throw SyncWireError.sealedAndClear(path: "ops[\(index)]")
            }
            return .sealed(sealed, serverSeq: serverSeq ?? 0, replica: replica ?? "", seq: seq, millis: millis, counter: counter)
        }
        guard let task else { throw SyncWireError.missing(path: path("task")) }
        guard let field else { throw SyncWireError.missing(path: path("field")) }
        guard let value else { throw SyncWireError.missing(path: path("value")) }
        return SyncOperation(
            serverSeq: serverSeq ?? 0, replica: replica ?? "", seq: seq, millis: millis,
            counter: counter, task: task, field: field, value: value, old: old ?? "null")
    }

    /// A sealed payload's members: the task, the field, the value and the old value (the
    /// last may be left out), as strictly as an operation in clear.
    mutating func payload() throws -> (task: String, field: SyncField, value: String, old: String) {
        var task: String?
        var field: SyncField?
        var value: String?
        var old: String?
        try members(of: "the payload", depth: 0) { decoder, key throws in
            switch key {
            case "task":
                guard task == nil else { throw SyncWireError.repeated(path: key) }
                task = try decoder.task(path: { key })
            case "field":
                guard field == nil else { throw SyncWireError.repeated(path: key) }
                field = try decoder.field(path: { key })
            case "value":
                guard value == nil else { throw SyncWireError.repeated(path: key) }
                value = try decoder.jsonText()
            case "old":
                guard old == nil else { throw SyncWireError.repeated(path: key) }
                old = try decoder.jsonText()
            default:
                try decoder.reader.skipValue(depth: 1)
            }
        }
        try end()
        guard let task else { throw SyncWireError.missing(path: "task") }
        guard let field else { throw SyncWireError.missing(path: "field") }
        guard let value else { throw SyncWireError.missing(path: "value") }
        return (task, field, value, old ?? "null")
    }
}
