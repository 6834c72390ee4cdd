import COpenSSL
import Glibc
import Synchronization

/// OpenSSL's client settings for one choice of trusted authorities (an `SSL_CTX`): TLS 1.2
/// or later, the server's certificate checked. Made the first time an `https://` address
/// is used with that trust and kept for the process, so that a command that does not
/// sync never starts OpenSSL and a sync of many requests reads the authorities once.
///
/// Unchecked because it holds a C pointer: OpenSSL makes an `SSL_CTX` safe to share
/// between threads once it is set up, and it is never changed after.
final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    private static let made = Mutex<[TLSTrust: TLSContext]>([:])

    /// The context for `trust`, made on first use, by `deadline`: the authorities are read
    /// on a thread of their own (a file on a mount that hangs would hold the caller past
    /// any deadline), and a request that runs out of time meanwhile gets `timedOut`. A
    /// failure is not kept: the next request tries again (a bundle may have been installed
    /// meanwhile).
    static func shared(for trust: TLSTrust, by deadline: Deadline) throws(HTTPError) -> TLSContext {
        if let context = made.withLock({ $0[trust] }) { return context }
        let result = try TimedWork.run(by: deadline) { () -> Result<TLSContext, HTTPError> in
            Result { () throws(HTTPError) in try TLSContext(trust: trust) }
        }
        let context = try result.get()
        // Two requests that made one each at once keep the first.
        return made.withLock { made in
            if let kept = made[trust] { return kept }
            made[trust] = context
            return context
        }
    }

    private convenience init(trust: TLSTrust) throws(HTTPError) {
        guard ns_tls_init() == 1, let context = ns_tls_client_context() else {
            throw .tlsUnavailable(reason: Self.lastError() ?? "OpenSSL could not be started")
        }
        self.init(context)
        let (files, folders) = trust.locations(
            environment: { getenv($0).map { String(cString: $0) } },
            exists: { access($0, R_OK) == 0 })
        guard !files.isEmpty || !folders.isEmpty else { throw .noSystemAuthorities }
        for file in files {
            if case .authority = trust, access(file, R_OK) != 0 {
                throw .unreadableAuthorities(file: file, reason: systemMessage(errno))
            }
            // A FIFO (or a device) would hold the read, and its thread, for ever: only a
            // regular file is read. (A mount that hangs holds the thread, not the caller.)
            var status = stat()
            if stat(file, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                throw .unreadableAuthorities(file: file, reason: "it is not a regular file")
            }
            ERR_clear_error()
            guard SSL_CTX_load_verify_file(context, file) == 1 else {
                throw .unreadableAuthorities(file: file, reason: Self.lastError() ?? "it holds no PEM certificate")
            }
        }
        for folder in folders {
            ERR_clear_error()
            guard SSL_CTX_load_verify_dir(context, folder) == 1 else {
                throw .unreadableAuthorities(file: folder, reason: Self.lastError() ?? "it cannot be read")
            }
        }
        ERR_clear_error()
    }

    /// OpenSSL's words for the last error of this thread ("no certificate or crl found"),
    /// clearing the queue.
    static func lastError() -> String? {
        let code = ERR_peek_last_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return nil }
        return String(cString: reason)
    }
}
