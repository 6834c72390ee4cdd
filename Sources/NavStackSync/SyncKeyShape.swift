import NavStackCore

/// What anyone can read of an account's key record (``SyncRequest/key``) without the
/// passphrase: that it is one (its JSON, its kdf, the bounds of each member), and the hash
/// a writer's key must have (`write_check`). The server reads this much before it keeps a
/// record, so a token holder cannot give an account a record no device can use; replicas
/// read the rest (NavStackSeal's `SyncKeyRecord`).
///
/// `{"kdf":"pbkdf2-hmac-sha256","iterations":N,"salt":B64,"check":B64,"write_check":B64}`;
/// `write_check` is absent from records made before write keys (those accounts take
/// writes from any of their tokens, docs/sync.md).
public struct SyncKeyShape: Equatable, Sendable {
    /// The only key-derivation function records name.
    public static let kdf = "pbkdf2-hmac-sha256"
    /// The iterations a record may ask for: a server cannot make a replica work for
    /// minutes, nor settle for a key that is cheap to guess.
    public static let iterationRange = 100_000...10_000_000
    /// The members a record may hold; any other makes it not one.
    static let members: Set<String> = ["kdf", "iterations", "salt", "check", "write_check"]

    public let iterations: Int
    /// The account's random salt, 16 to 64 bytes.
    public let salt: [UInt8]
    /// The passphrase's check, sealed with the key: 16 to 256 bytes here (a replica knows
    /// its exact length).
    public let check: [UInt8]
    /// SHA-256 of the account's write key (``SyncRequest/writeKey``), 32 bytes; `nil` in a
    /// record from before write keys.
    public let writeCheck: [UInt8]?

    /// Reads a record; `nil` when it is not one: not a JSON object of the members above,
    /// each once and of its type and bounds, within ``SyncLimits/maximumKeyBytes``.
    public init?(text: String) {
        guard text.utf8.count <= SyncLimits.maximumKeyBytes, let json = JSONValue(parsing: text),
            case .object(let members) = json, members.count == Set(members.map(\.0)).count,
            members.allSatisfy({ Self.members.contains($0.0) }), json["kdf"]?.string == Self.kdf,
            let iterations = json["iterations"]?.number, Self.iterationRange.contains(iterations),
            let salt = json["salt"]?.string.flatMap(Base64.decode), (16...64).contains(salt.count),
            let check = json["check"]?.string.flatMap(Base64.decode), (16...256).contains(check.count)
        else { return nil }
        var writeCheck: [UInt8]?
        if let member = json["write_check"] {
            guard let bytes = member.string.flatMap(Base64.decode), bytes.count == 32 else { return nil }
            writeCheck = bytes
        }
        self.iterations = iterations
        self.salt = salt
        self.check = check
        self.writeCheck = writeCheck
    }

    /// Whether `writeKey` (base64, as a request carries it) is this account's write key.
    /// A record without a check takes any (and none).
    public func admits(writeKey: String?) -> Bool {
        guard let writeCheck else { return true }
        guard let key = writeKey.flatMap(Base64.decode), key.count == 32 else { return false }
        return SHA256.hash(key) == writeCheck
    }
}
