import COpenSSL
import NavStackBytes

/// The few primitives sealing needs, from OpenSSL's libcrypto: random bytes, PBKDF2 and
/// HMAC with SHA-256, and ChaCha20-Poly1305.
enum Crypto {
    /// libcrypto started once, without reading openssl.cnf (see `ns_crypto_init`).
    private static let started: Bool = ns_crypto_init() == 1

    /// Starts libcrypto, once.
    static func start() {
        precondition(started, "libcrypto could not start")
    }

    /// `count` bytes from the system's random numbers (OpenSSL's generator, seeded by it).
    static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(started, "libcrypto could not start")
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { fatalError("no random numbers from the system") }
        return bytes
    }

    /// PBKDF2-HMAC-SHA256 of `secret` and `salt`: 32 bytes, from OpenSSL's
    /// `PKCS5_PBKDF2_HMAC` (RFC 8018).
    static func pbkdf2(_ secret: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        precondition(started, "libcrypto could not start")
        precondition((1...Int(Int32.max)).contains(iterations), "PBKDF2 needs an iteration")
        var key = [UInt8](repeating: 0, count: 32)
        let done = secret.withBytes { secret in
            secret.lendChars { PKCS5_PBKDF2_HMAC($0, Int32($1), salt, Int32(salt.count), Int32(iterations), EVP_sha256(), 32, &key) }
        }
        precondition(done == 1, "PBKDF2 failed")
        return key
    }

    /// HMAC-SHA256 of `parts`, one after the other, under `key`: 32 bytes.
    static func hmac(_ key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        precondition(started, "libcrypto could not start")
        let data = parts.flatMap { $0 }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = HMAC(EVP_sha256(), key, Int32(key.count), data, data.count, &digest, &length)
        precondition(done != nil && length == 32, "HMAC failed")
        return digest
    }

    static let nonceBytes = 12
    static let tagBytes = 16
}

/// ChaCha20-Poly1305 under one key, its nonces made with another (`ns_sealer`): one for
/// a request's or an answer's operations, so that the cipher and the HMAC are set up once.
final class SealingContext {
    /// OpenSSL's state, behind a handle Swift cannot look into.
    private let sealer: OpaquePointer

    /// `key` seals; `nonces` keys the HMAC that makes each nonce. Both 32 bytes.
    init(key: [UInt8], nonces: [UInt8]) {
        precondition(key.count == 32 && nonces.count == 32, "32-byte keys")
        Crypto.start()
        guard let sealer = ns_sealer_new(key, nonces) else {
            fatalError("libcrypto has no ChaCha20-Poly1305 or HMAC")
        }
        self.sealer = sealer
    }

    deinit { ns_sealer_free(sealer) }

    /// The nonce, the ciphertext and the tag of `plaintext`; the nonce is the first 12
    /// bytes of an HMAC of the associated data and the plaintext, unless one is given.
    func seal(_ plaintext: [UInt8], associated: [UInt8], nonce: [UInt8]? = nil) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Crypto.nonceBytes + plaintext.count + Crypto.tagBytes)
        let done =
            if let nonce {
                ns_sealer_seal_with_nonce(sealer, nonce, associated, associated.count, plaintext, plaintext.count, &out)
            } else {
                ns_sealer_seal(sealer, associated, associated.count, plaintext, plaintext.count, &out)
            }
        precondition(done == 1, "ChaCha20-Poly1305 failed")
        return out
    }

    /// The plaintext of what ``seal(_:associated:nonce:)`` made; `nil` when its tag does not
    /// hold for this key and associated data.
    func open(_ sealed: [UInt8], associated: [UInt8]) -> [UInt8]? {
        guard sealed.count >= Crypto.nonceBytes + Crypto.tagBytes else { return nil }
        var out = [UInt8](repeating: 0, count: max(1, sealed.count - Crypto.nonceBytes - Crypto.tagBytes))
        let count = ns_sealer_open(sealer, associated, associated.count, sealed, sealed.count, &out)
        guard count >= 0 else { return nil }
        return Array(out.prefix(count))
    }
}
