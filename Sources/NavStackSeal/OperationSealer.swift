import NavStackBytes
import NavStackCore
import NavStackSync

/// Seals the payload (task, field, value, old) of a replica's operations for the server,
/// and opens those of the answers, with the account's key. Each payload's associated data
/// is the account's salt, the replica, the seq and the stamp: a payload cannot be read,
/// forged, nor moved to another operation or account without the key.
public struct OperationSealer: Sendable {
    let key: SealKey
    let salt: [UInt8]

    public init(key: SealKey, record: SyncKeyRecord) {
        self.key = key
        salt = record.salt
    }

    /// `request` with every operation's payload sealed (those sealed already as they are).
    /// The write key goes with it (``SyncRequest/writeKey``).
    public func seal(_ request: SyncRequest) -> SyncRequest {
        var sealed = request
        sealed.writeKey = Base64.encode(key.writeKey)
        let context = key.context()
        sealed.operations = request.operations.map { operation in
            if operation.sealed != nil { return operation }
            let text = context.seal(operation.payloadJSON(), associated: associated(operation, replica: request.replica))
            return .sealed(Base64.encode(text), seq: operation.seq, millis: operation.millis, counter: operation.counter)
        }
        return sealed
    }

    /// `answer` with every operation's payload opened and read; those that do not open, or
    /// open to something that is not a payload, are set aside (``SyncAnswer/setAside``), as
    /// they came: one bad operation never holds back the others (docs/sync.md).
    public func open(_ answer: SyncAnswer) -> SyncAnswer {
        var opened = answer
        opened.operations = []
        opened.operations.reserveCapacity(answer.operations.count)
        let context = key.context()
        for operation in answer.operations {
            guard let text = operation.sealed, let bytes = Base64.decode(text),
                let payload = context.open(bytes, associated: associated(operation, replica: operation.replica)),
                let plain = try? operation.opened(payload: payload)
            else {
                opened.setAside.append(operation)
                continue
            }
            opened.operations.append(plain)
        }
        return opened
    }

    /// A snapshot of `registers` covering the account through `seq`, sealed: bound to the
    /// account and to `seq`, so the server can neither read it nor serve it as another.
    public func seal(_ registers: [SyncRegister], through seq: Int64) -> SyncSnapshot {
        let text = key.context().seal(SyncSnapshot.content(of: registers), associated: associated(snapshot: seq))
        return SyncSnapshot(seq: seq, sealed: Base64.encode(text))
    }

    /// `snapshot` opened and read; `nil` when it does not open with the key (changed, or
    /// served for another seq) or its content cannot be read.
    public func open(_ snapshot: SyncSnapshot) -> SyncSnapshot? {
        guard let bytes = Base64.decode(snapshot.sealed),
            let content = key.context().open(bytes, associated: associated(snapshot: snapshot.seq)),
            let registers = try? SyncSnapshot.registers(from: content)
        else { return nil }
        var opened = snapshot
        opened.registers = registers
        return opened
    }

    /// The associated data of a snapshot.
    private func associated(snapshot seq: Int64) -> [UInt8] {
        var data = Array("navstack snapshot v1".utf8)
        data += salt
        data.appendBigEndian(seq)
        return data
    }

    /// The associated data of an operation: what it is bound to.
    private func associated(_ operation: SyncOperation, replica: String) -> [UInt8] {
        var data = Array("navstack op v1".utf8)
        data.reserveCapacity(data.count + salt.count + replica.utf8.count + 24)
        data += salt
        data += replica.utf8
        for number in [operation.seq, operation.millis, operation.counter] {
            data.appendBigEndian(number)
        }
        return data
    }
}
