import COpenSSL

/// The few primitives sealing needs, from OpenSSL's libcrypto: random bytes, PBKDF2 and
/// HMAC with SHA-256, and ChaCha20-Poly1305.
enum Crypto {
    /// libcrypto started once, without reading openssl.cnf (see `ns_crypto_init`).
    private static let started: Bool = ns_crypto_init() == 1

    /// `count` bytes from the system's random numbers (OpenSSL's generator, seeded by it).
    static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(started, "libcrypto could not start")
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { fatalError("no random numbers from the system") }
        return bytes
    }

    /// PBKDF2-HMAC-SHA256 of `secret` and `salt`: 32 bytes.
    static func pbkdf2(_ secret: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        precondition(started, "libcrypto could not start")
        var key = [UInt8](repeating: 0, count: 32)
        let done = secret.withUnsafeBufferPointer { secret in
            secret.withMemoryRebound(to: CChar.self) { secret in
                PKCS5_PBKDF2_HMAC(
                    secret.baseAddress, Int32(secret.count), salt, Int32(salt.count), Int32(iterations), EVP_sha256(), 32,
                    &key)
            }
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

    /// ChaCha20-Poly1305 of `plaintext` with `associated` data: the ciphertext and its
    /// 16-byte tag.
    static func seal(_ plaintext: [UInt8], associated: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(started, "libcrypto could not start")
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("out of memory") }
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var written: Int32 = 0
        var ok = EVP_EncryptInit_ex(context, EVP_chacha20_poly1305(), nil, nil, nil) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceBytes), nil) == 1
        ok = ok && EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1
        ok = ok && EVP_EncryptUpdate(context, nil, &written, associated, Int32(associated.count)) == 1
        ok =
            ok
            && out.withUnsafeMutableBufferPointer { out in
                var total: Int32 = 0
                guard EVP_EncryptUpdate(context, out.baseAddress, &total, plaintext, Int32(plaintext.count)) == 1,
                    EVP_EncryptFinal_ex(context, out.baseAddress! + Int(total), &written) == 1
                else { return false }
                return EVP_CIPHER_CTX_ctrl(
                    context, EVP_CTRL_AEAD_GET_TAG, Int32(tagBytes), out.baseAddress! + plaintext.count) == 1
            }
        precondition(ok, "ChaCha20-Poly1305 failed")
        return out
    }

    /// The plaintext of `sealed` (a ciphertext and its tag); `nil` when the tag does not
    /// hold for this key, nonce and associated data.
    static func open(_ sealed: ArraySlice<UInt8>, associated: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        precondition(started, "libcrypto could not start")
        guard sealed.count >= tagBytes, let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertext = Array(sealed.dropLast(tagBytes))
        var tag = Array(sealed.suffix(tagBytes))
        var out = [UInt8](repeating: 0, count: max(1, ciphertext.count))
        var written: Int32 = 0
        var ok = EVP_DecryptInit_ex(context, EVP_chacha20_poly1305(), nil, nil, nil) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceBytes), nil) == 1
        ok = ok && EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1
        ok = ok && EVP_DecryptUpdate(context, nil, &written, associated, Int32(associated.count)) == 1
        var total: Int32 = 0
        ok = ok && EVP_DecryptUpdate(context, &out, &total, ciphertext, Int32(ciphertext.count)) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagBytes), &tag) == 1
        ok =
            ok
            && out.withUnsafeMutableBufferPointer { out in
                EVP_DecryptFinal_ex(context, out.baseAddress! + Int(total), &written) == 1
            }
        guard ok else { return nil }
        return Array(out.prefix(ciphertext.count))
    }
}
