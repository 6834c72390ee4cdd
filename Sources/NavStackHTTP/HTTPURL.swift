import Glibc

/// A server address: `http://host[:port][/path]`. The host is a name, an IPv4 address or an
/// IPv6 address in brackets (`http://[::1]:8080`). Only plain HTTP: navstack links no TLS
/// library, so that it stays one static executable that starts at once.
public struct HTTPURL: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The host as it is resolved: a name in lowercase, or an address without brackets.
    public let host: String
    /// The TCP port, 80 unless the address names one.
    public let port: Int
    /// The path without a trailing slash: "" for the server's root, else "/base".
    public let path: String

    /// Reads `text`, refusing anything but `http://` with an error that says what is wrong.
    public init(_ text: String) throws(HTTPError) {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            throw .invalidURL(text, reason: "it must start with http://")
        }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" else {
            guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
                throw .invalidURL(text, reason: "it must start with http://")
            }
            throw .unsupportedScheme(scheme)
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
        var port = 80
        if let portText {
            guard let number = Int(portText), portText.allSatisfy(\.isASCII), portText.first != "+", (1...65535).contains(number) else {
                throw .invalidURL(text, reason: "the port must be a number from 1 to 65535")
            }
            port = number
        }
        self.host = hostText.lowercased()
        self.port = port
        self.path = path
    }

    private init(host: String, port: Int, path: String) {
        self.host = host
        self.port = port
        self.path = path
    }

    /// This address with `path` added to its own, with exactly one slash between:
    /// `http://h/base` + `/v1/sync` = `http://h/base/v1/sync`.
    public func appending(_ path: String) -> HTTPURL {
        let added = path.drop(while: { $0 == "/" })
        return HTTPURL(host: host, port: port, path: added.isEmpty ? self.path : self.path + "/" + added)
    }

    /// `host:port` as the `Host` header names it: the port left out when it is 80.
    public var authority: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return port == 80 ? host : "\(host):\(port)"
    }

    /// What goes after the method in the request line: the path, or "/" for the root.
    public var target: String { path.isEmpty ? "/" : path }

    public var description: String { "http://\(authority)\(path)" }

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
