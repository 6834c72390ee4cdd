import NavStackCore

/// Why a body is not a sync request or answer. `path` names the member, as `after` or
/// `ops[3].seq`.
public enum SyncWireError: CatalogError, Equatable, Sendable {
    /// Not JSON at all, as navstack's one JSON reader reads it.
    case notJSON(JSONError)
    case notAnObject(path: String)
    case notAnArray(path: String)
    case notABoolean(path: String)
    case missing(path: String)
    case repeated(path: String)
    case badReplica(path: String)
    case notAWholeNumber(path: String, range: ClosedRange<Int64>)
    case badTask(path: String)
    case badField(path: String)
    case tooManyOperations
    /// An operation stamped `millis` ahead of the server's clock, past what it allows.
    case stampAhead(path: String, millis: Int)
    /// An operation whose task id or value the app would refuse.
    case refusedValue(path: String, field: SyncField)
    /// An operation whose (replica, seq) the account already holds with other content: a
    /// store restored from a backup or copied, whose replica must take a new id.
    case replicaTaken(path: String, replica: String, seq: Int64)
    /// A sealed payload that is not base64 text of a sensible length.
    case badSealed(path: String)
    /// An operation with a sealed payload and clear fields beside it.
    case sealedAndClear(path: String)
    /// A key record that is not printable text of a sensible length.
    case badKey
    /// An operation in clear for an account whose operations are sealed.
    case notSealed(path: String)
    /// A sealed operation for an account that has no key yet (its key goes first).
    case sealedWithoutKey(path: String)
    /// `drop_clear` for an account that has no key.
    case dropWithoutKey
    /// A snapshot and operations in one request.
    case snapshotWithOperations
    /// A snapshot for an account that has no key (only sealed accounts keep one).
    case snapshotWithoutKey
    /// A pull from before the account's snapshot by a replica that does not take one.
    case snapshotNeeded
    /// A key offered that is not a key record (``SyncKeyShape``).
    case notAKeyRecord
    /// A `write_key` that is not base64 text of 32 bytes.
    case badWriteKey
    /// An `epoch` that is not 1 to 64 letters, digits, `-` or `_`.
    case badEpoch
    /// A `format` past the newest this navstack knows (``SyncFormat/current``).
    case unknownFormat(format: Int)
    /// A snapshot or `drop_clear` for an account whose key record has no write check
    /// (made before write keys): it drops operations, and such an account cannot tell who
    /// sends it.
    case dropWithoutWriteCheck
    /// A list of replicas (`aside`, `gone`) longer than the protocol allows.
    case tooManyReplicas(path: String, limit: Int)

    /// The words, in a catalog's language: the server answers in English.
    public func message(in t: Catalog) -> String {
        switch self {
        case .notJSON(let failure): t(.syncWireNotJSON, ("reason", failure.message(in: t)))
        case .notAnObject(let path): t(.syncWireNotAnObject, ("path", path))
        case .notAnArray(let path): t(.syncWireNotAnArray, ("path", path))
        case .notABoolean(let path): t(.syncWireNotABoolean, ("path", path))
        case .missing(let path): t(.syncWireMissing, ("path", path))
        case .repeated(let path): t(.syncWireRepeated, ("path", path))
        case .badReplica(let path): t(.syncWireBadReplica, ("path", path))
        case .notAWholeNumber(let path, let range):
            t(.syncWireNotAWholeNumber, ("path", path), ("low", range.lowerBound), ("high", range.upperBound))
        case .badTask(let path): t(.syncWireBadTask, ("path", path), ("limit", SyncLimits.maximumTaskLength))
        case .badField(let path):
            t(.syncWireBadField, ("path", path), ("fields", SyncField.allCases.map(\.rawValue).joined(separator: ", ")))
        case .tooManyOperations: t(.syncWireTooManyOperations, ("limit", SyncLimits.maximumOperationsPerRequest))
        case .stampAhead(let path, let millis):
            t(
                .syncWireStampAhead, ("path", path), ("ahead", SyncDrift.words(millis: millis)),
                ("limit", SyncDrift.words(millis: SyncDrift.maximumMillis)))
        case .refusedValue(let path, let field): t(.syncWireRefusedValue, ("path", path), ("field", field.rawValue))
        case .replicaTaken(let path, let replica, let seq):
            t(.syncWireReplicaTaken, ("path", path), ("seq", seq), ("replica", replica))
        case .badSealed(let path): t(.syncWireBadSealed, ("path", path))
        case .sealedAndClear(let path): t(.syncWireSealedAndClear, ("path", path))
        case .badKey: t(.syncWireBadKey, ("limit", SyncLimits.maximumKeyBytes))
        case .notSealed(let path): t(.syncWireNotSealed, ("path", path))
        case .sealedWithoutKey(let path): t(.syncWireSealedWithoutKey, ("path", path))
        case .dropWithoutKey: t(.syncWireDropWithoutKey)
        case .snapshotWithOperations: t(.syncWireSnapshotWithOperations)
        case .snapshotWithoutKey: t(.syncWireSnapshotWithoutKey)
        case .snapshotNeeded: t(.syncWireSnapshotNeeded)
        case .notAKeyRecord: t(.syncWireNotAKeyRecord, ("limit", SyncLimits.maximumKeyBytes))
        case .badWriteKey: t(.syncWireBadWriteKey)
        case .badEpoch: t(.syncWireBadEpoch)
        case .unknownFormat(let format): t(.syncWireUnknownFormat, ("format", format), ("current", SyncFormat.current))
        case .dropWithoutWriteCheck: t(.syncWireDropWithoutWriteCheck)
        case .tooManyReplicas(let path, let limit): t(.syncWireTooManyReplicas, ("path", path), ("limit", limit))
        }
    }
}
