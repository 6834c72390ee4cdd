import NavStackCore
import NavStackSync

/// An account's key as a replica keeps it: 32 bytes derived from the passphrase (never
/// the passphrase itself), and the two keys made from it, one to seal with and one to
/// make each payload's nonce.
public struct SealKey: Equatable, Sendable {
    /// What the store keeps.
    public let bytes: [UInt8]
    let sealing: [UInt8]
    let nonces: [UInt8]
    /// What proves to the server that a request comes from a replica with the passphrase
    /// (``SyncRequest/writeKey``): the server keeps only its SHA-256, in the key record,
    /// and a token holder, who reads the record, cannot make it.
    public let writeKey: [UInt8]

    /// `nil` unless `bytes` is 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
        sealing = Crypto.hmac(bytes, Array("navstack seal v1".utf8))
        nonces = Crypto.hmac(bytes, Array("navstack nonce v1".utf8))
        writeKey = Crypto.hmac(bytes, Array("navstack write v1".utf8))
    }
}

/// What an account's replicas share about its key, kept by the server as opaque text
/// and handed to each replica: how the key is derived from the passphrase (PBKDF2-HMAC-
/// SHA256, its iterations, the account's random salt) and a check sealed with the key, by
/// which a replica knows a passphrase is the right one before it applies or sends
/// anything, and the SHA-256 of the key's write key (``SealKey/writeKey``), by which the
/// server knows a writer has the passphrase. `{"kdf":"pbkdf2-hmac-sha256","iterations":
/// 600000,"salt":"…","check":"…","write_check":"…"}` (``SyncKeyShape`` reads what the
/// server may; a record from before write keys has no `write_check`).
public struct SyncKeyRecord: Equatable, Sendable {
    /// OWASP's figure for PBKDF2-HMAC-SHA256 (2023), as TaskChampion uses: about a third
    /// of a second on one core here, once per device.
    public static let defaultIterations = 600_000
    public static var iterationRange: ClosedRange<Int> { SyncKeyShape.iterationRange }

    public let text: String
    public let iterations: Int
    /// The account's salt (16 random bytes); it also names the account in every payload's
    /// associated data.
    public let salt: [UInt8]
    let check: [UInt8]
    /// The SHA-256 of the key's write key; `nil` in a record made before write keys.
    let writeCheck: [UInt8]?

    static let checkText = Array("navstack: this passphrase opens this account".utf8)

    /// Reads a record; `nil` when it is not one this version can use.
    public init?(text: String) {
        guard let shape = SyncKeyShape(text: text),
            shape.check.count == Crypto.nonceBytes + Self.checkText.count + Crypto.tagBytes
        else { return nil }
        self.text = text
        iterations = shape.iterations
        salt = shape.salt
        check = shape.check
        writeCheck = shape.writeCheck
    }

    /// A new account's record and its key: a random salt, the key derived from
    /// `passphrase`, the check sealed with it.
    public static func make(passphrase: String, iterations: Int = defaultIterations) -> (SyncKeyRecord, SealKey) {
        let salt = Crypto.randomBytes(16)
        let key = derive(passphrase, salt: salt, iterations: iterations)
        let check = key.context().seal(checkText, associated: checkData(salt))
        let writeCheck = Base64.encode(SHA256.hash(key.writeKey))
        let text =
            #"{"kdf":"pbkdf2-hmac-sha256","iterations":\#(iterations),"salt":"\#(Base64.encode(salt))","check":"\#(Base64.encode(check))","write_check":"\#(writeCheck)"}"#
        guard let record = SyncKeyRecord(text: text) else { preconditionFailure("a record made here reads back") }
        return (record, key)
    }

    /// The key `passphrase` gives, when it opens this record's check; `nil` when it is not
    /// the account's passphrase.
    public func open(passphrase: String) -> SealKey? {
        let key = Self.derive(passphrase, salt: salt, iterations: iterations)
        return opens(with: key) ? key : nil
    }

    /// Whether `key` is this account's.
    public func opens(with key: SealKey) -> Bool {
        key.context().open(check, associated: Self.checkData(salt)) == Self.checkText
            && writeCheck.map { SHA256.hash(key.writeKey) == $0 } != false
    }

    private static func derive(_ passphrase: String, salt: [UInt8], iterations: Int) -> SealKey {
        guard let key = SealKey(bytes: Crypto.pbkdf2(Array(passphrase.utf8), salt: salt, iterations: iterations)) else {
            preconditionFailure("PBKDF2 gives 32 bytes")
        }
        return key
    }

    private static func checkData(_ salt: [UInt8]) -> [UInt8] { Array("navstack check v1".utf8) + salt }
}

/// Sealing with a key: ChaCha20-Poly1305, its nonce the first 12 bytes of an HMAC of the
/// associated data and the plaintext (a synthetic nonce: the same operation sealed twice
/// gives the same text, so a request sent again is the same request, and no two
/// different plaintexts share a nonce). A sealed text is the nonce, the ciphertext and
/// the tag.
extension SealKey {
    /// A context to seal and open with this key.
    func context() -> SealingContext { SealingContext(key: sealing, nonces: nonces) }
}
