import Glibc

/// Why a request to the sync server failed. Each message is one short line a person can act
/// on; the executable adds what it was doing.
public enum HTTPError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The text is not an `https://host[:port][/path]` address; `reason` says which part.
    case invalidURL(String, reason: String)
    /// The address names another scheme than `https` or `http` (`ftp`, …).
    case unsupportedScheme(String)
    /// An `http://` address whose host is not this machine: plain HTTP would carry the
    /// token and the tasks across the network in clear text.
    case plainTextRefused(host: String)
    /// A request header has a name or value that cannot be sent, or is one the client sets itself.
    case invalidHeader(name: String)
    /// The host name has no address (or the resolver could not be asked).
    case cannotResolve(host: String)
    /// Every address of the host refused the connection.
    case refused(host: String, port: Int)
    /// No address of the host could be reached; `reason` is the system's words for the last one.
    case unreachable(host: String, port: Int, reason: String)
    /// The whole request, from resolving the host to the last byte of the answer, took longer
    /// than the time it was given.
    case timedOut(Duration)
    /// The server closed (or reset) the connection before its answer was complete.
    case connectionClosed
    /// The server's answer is not HTTP/1.x as this client reads it.
    case malformedResponse(String)
    /// The answer's body is longer than the client accepts, in bytes.
    case responseTooLarge(limit: Int)
    /// The server's certificate did not pass a check; nothing was sent.
    case untrusted(host: String, port: Int, reason: TLSRefusal)
    /// The TLS handshake failed for another reason than the certificate (no common
    /// version or cipher, an alert from the server); `reason` is OpenSSL's words.
    case tlsFailed(host: String, port: Int, reason: String)
    /// An `https://` server answered in plain HTTP.
    case notTLS(host: String, port: Int)
    /// No bundle or folder of certificate authorities exists where this system could keep one.
    case noSystemAuthorities
    /// A file (or folder) of certificate authorities could not be read.
    case unreadableAuthorities(file: String, reason: String)
    /// OpenSSL could not set up TLS at all.
    case tlsUnavailable(reason: String)
    /// A system call failed in a way none of the cases above describes.
    case system(call: String, code: Int32)

    public var description: String {
        switch self {
        case .invalidURL(let text, let reason):
            "\"\(text)\" is not a server address (https://host[:port][/path]): \(reason)"
        case .unsupportedScheme(let scheme):
            "only https:// (and http:// on this machine) addresses are supported, not \(scheme)://"
        case .plainTextRefused(let host):
            "http:// would send the token and tasks to \(host) in clear text; use https:// (http:// is only for localhost, 127.0.0.0/8 and ::1)"
        case .invalidHeader(let name):
            "the header \"\(name)\" cannot be sent: its name or value is not valid, or the client sets it itself"
        case .cannotResolve(let host):
            "the host \(host) could not be found"
        case .refused(let host, let port):
            "the server at \(Self.authority(host, port)) refused the connection"
        case .unreachable(let host, let port, let reason):
            "the server at \(Self.authority(host, port)) cannot be reached: \(reason)"
        case .timedOut(let duration):
            "the server did not answer within \(Self.words(duration))"
        case .connectionClosed:
            "the server closed the connection before it finished answering"
        case .malformedResponse(let what):
            "the server's answer is not valid HTTP: \(what)"
        case .responseTooLarge(let limit):
            "the server's answer is larger than \(Self.words(bytes: limit))"
        case .untrusted(let host, let port, let reason):
            "the server at \(Self.authority(host, port)) is not trusted: \(reason.description(host: host))"
        case .tlsFailed(let host, let port, let reason):
            "the TLS handshake with the server at \(Self.authority(host, port)) failed: \(reason)"
        case .notTLS(let host, let port):
            "the server at \(Self.authority(host, port)) answered in plain HTTP, not TLS"
        case .noSystemAuthorities:
            "no certificate authorities were found on this machine: set SSL_CERT_FILE, or give the server's authority with --ca FILE"
        case .unreadableAuthorities(let file, let reason):
            "the certificate authorities in \(file) cannot be read: \(reason)"
        case .tlsUnavailable(let reason):
            "TLS cannot be set up: \(reason)"
        case .system(let call, let code):
            "\(call) failed: \(systemMessage(code))"
        }
    }

    /// `host:port`, with an IPv6 address in brackets as in a URL.
    static func authority(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// "2 s" for whole seconds, else "1500 ms".
    static func words(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// "64 MiB", "512 KiB" or "1000 bytes": the largest unit that divides the size.
    static func words(bytes: Int) -> String {
        if bytes > 0 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes > 0 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

/// Why a server's certificate was refused.
public enum TLSRefusal: Equatable, Sendable {
    /// It does not chain to an authority this machine (or `--ca`) trusts.
    case unknownAuthority
    /// It is for other names than the host; `names` are those it is for ("" if none).
    case nameMismatch(names: String)
    /// It expired; `since` is its last day, "2024-05-31", when known.
    case expired(since: String?)
    /// It is not valid yet; `until` is its first day, when known.
    case notYetValid(until: String?)
    /// Another failure of the chain, in OpenSSL's words.
    case other(String)

    /// The reason, for the server at `host`.
    func description(host: String) -> String {
        switch self {
        case .unknownAuthority:
            "its certificate is signed by an unknown authority"
        case .nameMismatch(let names) where names.isEmpty:
            "its certificate is not for \(host)"
        case .nameMismatch(let names):
            "its certificate is for \(names), not \(host)"
        case .expired(let day):
            day.map { "its certificate expired on \($0)" } ?? "its certificate has expired"
        case .notYetValid(let day):
            day.map { "its certificate is not valid until \($0)" } ?? "its certificate is not valid yet"
        case .other(let words):
            "its certificate was refused: \(words)"
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up so that a wait is never cut short.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (whole, rest) = attoseconds.quotientAndRemainder(dividingBy: perMillisecond)
        return seconds * 1000 + whole + (rest > 0 ? 1 : 0)
    }
}

/// The system's words for an `errno` value ("Connection refused").
func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}
