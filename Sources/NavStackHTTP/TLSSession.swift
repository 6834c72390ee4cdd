import COpenSSL
import Glibc
import NavStackBytes

/// One TLS connection's state (OpenSSL's `SSL`), over two memory buffers rather than the
/// socket: the ``Socket`` moves every byte, so every wait keeps the request's deadline and
/// a peer that closed is `EPIPE`, never the `SIGPIPE` a write by OpenSSL would raise.
final class TLSSession {
    private let ssl: OpaquePointer
    let host: String
    let port: Int

    /// What a step of the handshake or a read asks for next.
    enum Step: Equatable {
        /// The handshake is done, or a read gave this many bytes of the answer.
        case done(Int)
        /// More bytes from the server are needed.
        case needsInput
        /// The server closed the TLS connection properly (close_notify).
        case closed
        case failed(HTTPError)
    }

    init(context: TLSContext, host: String, port: Int) throws(HTTPError) {
        self.host = host
        self.port = port
        ERR_clear_error()
        let isAddress = HTTPURL.isIPv6(host) || Resolver.isIPv4(host)
        guard let ssl = ns_tls_client(context.pointer, host, isAddress ? 1 : 0) else {
            throw .tlsUnavailable(reason: TLSContext.lastError() ?? "a connection could not be set up for \(host)")
        }
        self.ssl = ssl
    }

    deinit {
        ns_tls_free(ssl)
    }

    /// The next step of the handshake. It is done only once the server's certificate has
    /// passed every check: before that, nothing but the handshake's own messages is written.
    func handshake() -> Step {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return .done(0) }
        return step(after: result)
    }

    /// Seals `bytes` into records for the socket to send. False when the session cannot
    /// take them (it has failed or been closed).
    func write(_ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            ERR_clear_error()
            let count = bytes.withBytes { $0.lend(from: written) { SSL_write(ssl, $0, Int32(clamping: $1)) } }
            guard count > 0 else { return false }
            written += Int(count)
        }
        return true
    }

    /// Opens the next bytes of the answer into `buffer`, from what the socket has fed.
    func read(into buffer: borrowing ByteRoom) -> Step {
        ERR_clear_error()
        let count = Int32(buffer.fill { Int(SSL_read(ssl, $0, Int32(clamping: $1))) })
        if count > 0 { return .done(Int(count)) }
        return step(after: count)
    }

    /// Hands over bytes the socket received.
    func feed(_ bytes: ByteView) {
        guard !bytes.isEmpty else { return }
        // A memory buffer grows to take whatever is written to it.
        _ = bytes.lend { ns_tls_feed(ssl, $0, Int32($1)) }
    }

    /// The socket reached its end: no more bytes will come.
    func endOfInput() {
        ns_tls_end_of_input(ssl)
    }

    /// The bytes the session has written for the socket to send (handshake messages,
    /// sealed records, alerts), taken out of it.
    func takeOutput() -> [UInt8] {
        let pending = ns_tls_pending_output(ssl)
        guard pending > 0 else { return [] }
        return [UInt8](capacity: pending) { Int(ns_tls_take_output(ssl, $0, Int32(clamping: $1))) }
    }

    /// What a handshake step or a read that did not succeed (`result` ≤ 0) means.
    private func step(after result: Int32) -> Step {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .needsInput
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            let verdict = SSL_get_verify_result(ssl)
            if verdict != X509_V_OK {
                return .failed(.untrusted(host: host, port: port, reason: refusal(verdict)))
            }
            let code = ERR_peek_last_error()
            if code == 0 || ns_tls_error_is_unexpected_eof(code) != 0 {
                ERR_clear_error()
                return .failed(.connectionClosed)
            }
            return .failed(.tlsFailed(host: host, port: port, reason: TLSContext.lastError() ?? "error \(code)"))
        }
    }

    /// Why the certificate was refused, from OpenSSL's verification result.
    private func refusal(_ verdict: Int) -> TLSRefusal {
        switch Int32(verdict) {
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return .unknownAuthority
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            return .nameMismatch(names: peerNames())
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return .expired(since: peerDate(end: true))
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return .notYetValid(until: peerDate(end: false))
        case let code:
            return .other(X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)")
        }
    }

    /// The names the server's certificate is for: "other.example, 10.0.0.1". They are the
    /// server's words, shown in a terminal: any byte but printable ASCII reads as '?'.
    private func peerNames() -> String {
        var text = [CChar](repeating: 0, count: 512)
        let count = ns_tls_peer_names(ssl, &text, text.count)
        let printable = text.prefix(count).map { (0x20..<0x7f).contains($0) ? UInt8($0) : UInt8(ascii: "?") }
        return String(decoding: printable, as: UTF8.self)
    }

    /// The server's certificate's last (or first) day, "2024-05-31", or nil without one.
    private func peerDate(end: Bool) -> String? {
        var time = tm()
        guard ns_tls_peer_validity(ssl, end ? 1 : 0, &time) == 1 else { return nil }
        let (year, month, day) = (Int(time.tm_year) + 1900, Int(time.tm_mon) + 1, Int(time.tm_mday))
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
