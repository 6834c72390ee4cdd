#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavStackCore
import NavStackHTTP

extension HTTPError {
    /// The message in a catalog's language. (The HTTP client knows no catalog: its own
    /// `description` is the English of these.) A reason the client or the C library
    /// gives in words of its own is passed on as it is.
    func message(in t: Catalog) -> String {
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
        case .system(let call, let code): t(.httpSystem, ("call", call), ("reason", String(cString: strerror(code))))
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
