import Glibc

/// A server address: `https://host[:port][/path]`, or `http://` for a server on this
/// machine. The host is a name, an IPv4 address or an IPv6 address in brackets
/// (`https://[2001:db8::7]:8443`).
public struct HTTPURL: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// How the connection is made.
    public enum Scheme: String, Equatable, Hashable, Sendable {
        /// TLS 1.2 or later, the server's certificate and name checked.
        case https
        /// Plain TCP: only for a host on this machine (``HTTPURL/checkPlainText()``).
        case http

        /// The port an address without one uses.
        public var defaultPort: Int { self == .https ? 443 : 80 }
    }

    public let scheme: Scheme
    /// The host as it is resolved: a name in lowercase, or an address without brackets.
    public let host: String
    /// The TCP port: the address's, else 443 for https and 80 for http.
    public let port: Int
    /// The path without a trailing slash: "" for the server's root, else "/base".
    public let path: String

    /// Reads `text`, refusing anything but `https://` and `http://` with an error that says
    /// what is wrong. Whether plain HTTP may reach the host is ``checkPlainText()``'s to say.
    public init(_ text: String) throws(HTTPError) {
        let start = "it must start with https://"
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            throw .invalidURL(text, reason: start)
        }
        let schemeText = text[..<colon].lowercased()
        guard let scheme = Scheme(rawValue: schemeText) else {
            guard !schemeText.isEmpty, schemeText.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
                throw .invalidURL(text, reason: start)
            }
            throw .unsupportedScheme(schemeText)
        }
        let rest = text[text.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        guard !authority.contains("@") else {
            throw .invalidURL(text, reason: "a user name or password cannot be part of the address")
        }
        guard !path.contains("?"), !path.contains("#") else {
            throw .invalidURL(text, reason: "a query or fragment cannot be part of the address")
        }
        guard path.utf8.allSatisfy(Self.isPathByte) else {
            throw .invalidURL(text, reason: "the path holds a character that must be percent-encoded")
        }
        while path.hasSuffix("/") { path.removeLast() }

        let hostText: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidURL(text, reason: "the IPv6 address has no closing bracket")
            }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw .invalidURL(text, reason: "only a port can follow the IPv6 address")
            }
            portText = after.isEmpty ? nil : after.dropFirst()
            guard Self.isIPv6(String(hostText)) else {
                throw .invalidURL(text, reason: "\(hostText) is not an IPv6 address")
            }
        } else {
            let colon = authority.firstIndex(of: ":")
            hostText = authority[..<(colon ?? authority.endIndex)]
            portText = colon.map { authority[authority.index(after: $0)...] }
            guard !hostText.isEmpty else { throw .invalidURL(text, reason: "the host is missing") }
            guard hostText.utf8.allSatisfy(Self.isHostNameByte), !hostText.hasPrefix("-"), !hostText.hasPrefix(".") else {
                throw .invalidURL(text, reason: "the host may hold only letters, digits, '-' and '.'")
            }
        }
        var port = scheme.defaultPort
        if let portText {
            guard let number = Int(portText), portText.allSatisfy(\.isASCII), portText.first != "+", (1...65535).contains(number) else {
                throw .invalidURL(text, reason: "the port must be a number from 1 to 65535")
            }
            port = number
        }
        self.scheme = scheme
        self.host = hostText.lowercased()
        self.port = port
        self.path = path
    }

    private init(scheme: Scheme, host: String, port: Int, path: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
    }

    /// This address with `path` added to its own, with exactly one slash between:
    /// `https://h/base` + `/v1/sync` = `https://h/base/v1/sync`.
    public func appending(_ path: String) -> HTTPURL {
        let added = path.drop(while: { $0 == "/" })
        return HTTPURL(scheme: scheme, host: host, port: port, path: added.isEmpty ? self.path : self.path + "/" + added)
    }

    /// `host:port` as the `Host` header names it: the port left out when it is the
    /// scheme's own (443, 80).
    public var authority: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return port == scheme.defaultPort ? host : "\(host):\(port)"
    }

    /// What goes after the method in the request line: the path, or "/" for the root.
    public var target: String { path.isEmpty ? "/" : path }

    public var description: String { "\(scheme.rawValue)://\(authority)\(path)" }

    /// Whether the host is this machine: `localhost`, an address in 127.0.0.0/8, or `::1`.
    /// (`localhost` is connected to only at the loopback addresses it resolves to.)
    public var isLoopback: Bool {
        host == "localhost" || Self.isLoopbackAddress(host)
    }

    /// Refuses an `http://` address whose host is not this machine, before anything is
    /// resolved or sent: plain HTTP is for a server on this machine only.
    public func checkPlainText() throws(HTTPError) {
        if scheme == .http && !isLoopback { throw .plainTextRefused(host: host) }
    }

    /// Whether `text` is an address in 127.0.0.0/8 or the IPv6 loopback address, as
    /// `inet_pton` reads it (so "127.1" or "::ffff:127.0.0.1" are not).
    static func isLoopbackAddress(_ text: String) -> Bool {
        var address4 = in_addr()
        if inet_pton(AF_INET, text, &address4) == 1 {
            // The address in network order: its first byte is the highest.
            return UInt32(bigEndian: address4.s_addr) >> 24 == 127
        }
        var address6 = in6_addr()
        guard inet_pton(AF_INET6, text, &address6) == 1 else { return false }
        var loopback = in6addr_loopback
        return memcmp(&address6, &loopback, MemoryLayout<in6_addr>.size) == 0
    }

    /// Whether `text` is an IPv6 address as `inet_pton` reads it.
    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// The bytes RFC 3986 allows in a path as they are: unreserved, sub-delims, ':', '@',
    /// '/' and '%' (of an escape). The rest must be percent-encoded by whoever wrote it.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if isHostNameByte(byte) { return true }
        return "_~!$&'()*+,;=:@/%".utf8.contains(byte)
    }
}
