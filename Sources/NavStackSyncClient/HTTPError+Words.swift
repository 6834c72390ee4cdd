import NavStackCore
import NavStackHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTTPError: CatalogError {
    /// The message in a catalog's language. (The HTTP client knows no catalog: its own
    /// `description` is the English of these.) A reason the client or the C library
    /// gives in words of its own is passed on as it is.
    public func message(in t: Catalog) -> String {
        switch self {
        case .invalidURL(let text, let reason): t(.httpInvalidURL, ("text", text.escapedForDisplay), ("reason", reason))
        case .unsupportedScheme(let scheme): t(.httpUnsupportedScheme, ("scheme", scheme.escapedForDisplay))
        case .invalidHeader(let name): t(.httpInvalidHeader, ("name", name.escapedForDisplay))
        case .cannotResolve(let host): t(.httpCannotResolve, ("host", host.escapedForDisplay))
        case .refused(let host, let port): t(.httpRefused, ("address", Self.address(host, port)))
        case .unreachable(let host, let port, let reason):
            t(.httpUnreachable, ("address", Self.address(host, port)), ("reason", reason))
        case .timedOut(let duration): t(.httpTimedOut, ("time", Self.words(duration)))
        case .connectionClosed: t(.httpConnectionClosed)
        case .malformedResponse(let what): t(.httpMalformedResponse, ("what", what.escapedForDisplay))
        case .responseTooLarge(let limit): t(.httpResponseTooLarge, ("size", Self.words(bytes: limit)))
        case .plainTextRefused(let host): t(.httpPlainTextRefused, ("host", host.escapedForDisplay))
        case .untrusted(let host, let port, let reason):
            t(.httpUntrusted, ("address", Self.address(host, port)), ("reason", Self.words(reason, host: host, in: t)))
        case .tlsFailed(let host, let port, let reason): t(.httpTLSFailed, ("address", Self.address(host, port)), ("reason", reason))
        case .notTLS(let host, let port): t(.httpNotTLS, ("address", Self.address(host, port)))
        case .noSystemAuthorities: t(.httpNoSystemAuthorities)
        case .unreadableAuthorities(let file, let reason):
            t(.httpUnreadableAuthorities, ("file", file.escapedForDisplay), ("reason", reason))
        case .tlsUnavailable(let reason): t(.httpTLSUnavailable, ("reason", reason))
        case .system(let call, let code): t(.httpSystem, ("call", call), ("reason", String(cString: strerror(code))))
        }
    }

    /// Why a server's certificate was refused, for the server at `host`.
    private static func words(_ reason: TLSRefusal, host: String, in t: Catalog) -> String {
        let host = ("host", host.escapedForDisplay)
        return switch reason {
        case .unknownAuthority: t(.tlsUnknownAuthority)
        case .nameMismatch(let names) where names.isEmpty: t(.tlsNotFor, host)
        case .nameMismatch(let names): t(.tlsForOther, ("names", names), host)
        case .expired(let day): day.map { t(.tlsExpiredOn, ("day", $0)) } ?? t(.tlsExpired)
        case .notYetValid(let day): day.map { t(.tlsNotValidUntil, ("day", $0)) } ?? t(.tlsNotYetValid)
        case .other(let words): t(.tlsRefused, ("words", words))
        }
    }

    /// `host:port`, with an IPv6 address in brackets as in a URL.
    private static func address(_ host: String, _ port: Int) -> String {
        (host.contains(":") ? "[\(host)]" : host.escapedForDisplay) + ":\(port)"
    }

    /// "2 s" for whole seconds, else "1500 ms" (rounded up).
    private static func words(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let milliseconds = seconds * 1000 + attoseconds / perMillisecond + (attoseconds % perMillisecond > 0 ? 1 : 0)
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// "64 MiB", "512 KiB" or "1000 bytes": the largest unit that divides the size.
    private static func words(bytes: Int) -> String {
        if bytes > 0 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes > 0 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
