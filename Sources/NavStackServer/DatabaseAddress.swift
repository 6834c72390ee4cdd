import PostgresNIO

/// Where the database is, read from a URL as libpq writes them:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
/// A HOST that is a directory (percent-encoded, as `%2Ftmp`) names the folder of a Unix
/// socket, as does `?host=/dir`.
public struct DatabaseAddress: Equatable, Sendable {
    public enum Endpoint: Equatable, Sendable {
        case tcp(host: String, port: Int)
        /// The socket file itself: `DIR/.s.PGSQL.PORT`.
        case socket(path: String)
    }

    /// TLS to the database. `prefer` and `require` check the certificate against the
    /// system's trusted roots.
    public enum TLSMode: String, CaseIterable, Sendable {
        case disable, prefer, require
    }

    public var endpoint: Endpoint
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    public init(url: String) throws(ServerError) {
        var rest = Substring(url)
        if rest.hasPrefix("postgres://") {
            rest = rest.dropFirst("postgres://".count)
        } else if rest.hasPrefix("postgresql://") {
            rest = rest.dropFirst("postgresql://".count)
        } else {
            throw .address(.notPostgresURL)
        }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var userinfo: Substring = ""
        if let at = rest.lastIndex(of: "@") {
            userinfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        // HOST, HOST:PORT, [IPv6]:PORT
        var host = rest
        var portText: Substring = ""
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw .address(.notPostgresURL) }
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        var port = 5432
        if !portText.isEmpty {
            guard let number = Int(portText), (1...65535).contains(number) else { throw .address(.badPort(String(portText))) }
            port = number
        }
        var user = userinfo
        var password: String?
        if let colon = userinfo.firstIndex(of: ":") {
            user = userinfo[..<colon]
            password = try Self.percentDecoded(userinfo[userinfo.index(after: colon)...])
        }
        var hostName = try Self.percentDecoded(host)
        tls = .disable
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0]
            let value = parts.count > 1 ? try Self.percentDecoded(parts[1]) : ""
            switch key {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else { throw .address(.badSSLMode(value)) }
                tls = mode
            case "host":
                hostName = value
            default:
                continue  // libpq's other parameters do not apply here
            }
        }
        if hostName.isEmpty { hostName = "localhost" }
        endpoint = hostName.hasPrefix("/") ? .socket(path: "\(hostName)/.s.PGSQL.\(port)") : .tcp(host: hostName, port: port)
        username = user.isEmpty ? "postgres" : try Self.percentDecoded(user)
        self.password = password
        database = path.isEmpty ? username : try Self.percentDecoded(path)
    }

    /// The URL without its password, for logs.
    public var description: String {
        let place =
            switch endpoint {
            case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .socket(let path): path
            }
        return "postgres://\(username)@\(place)/\(database)"
    }

    /// `url` with the password of its `USER:PASSWORD@` part, if any, as `***`: for an
    /// error that shows the URL given.
    public static func withoutPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<authority.index(after: colon)]) + "***" + String(url[at...])
    }

    /// For the pool that serves requests.
    public func clientConfiguration() throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS =
                switch self.tls {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        }
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = Self.startupParameters
        configuration.options.connectionIdleTimeout = Self.idleTimeout
        configuration.options.keepAliveBehavior = nil
        return configuration
    }

    /// How long the pool keeps a connection nobody uses. Each time a connection goes back
    /// to the pool, the pool starts a timer for it (the idle timeout, and a keep-alive
    /// query's unless it has none) as a task that sleeps, and cancels it when the
    /// connection is leased again; Swift keeps a cancelled sleep's task until the sleep
    /// would have ended (swiftlang/swift#60441). A busy server leases thousands of times a
    /// second, so the pool's defaults (60 s idle, a keep-alive every 30 s) held tens of
    /// thousands of such tasks: 35 → 242 MB over 40 s of load, given back only once the
    /// connections idled 60 s. With 10 s and no keep-alive (a connection idle that long is
    /// closed before a keep-alive would run), a cancelled timer is kept at most 10 s.
    static let idleTimeout: Duration = .seconds(10)

    /// Settings of every connection of the pool, given when it opens rather than with a
    /// statement of their own in each request. A page of the log is the first rows of the
    /// primary key's order after `after`: read in that order, it stops at the page's end.
    /// Statistics older than a large push (autovacuum analyzes later) make PostgreSQL fetch
    /// every row after `after` as a bitmap and sort them (100,000 rows: 90 ms, not 5, a
    /// page); no statement the server runs wants a bitmap scan. Nor a sequential scan: each
    /// reads rows of one account through an index, but the generic plan of a prepared
    /// statement, for an account that holds most of the table (a server of one user), read
    /// the whole table for every page and sorted it (100,000 rows: 19 ms for an empty page,
    /// 80–115 ms for a full one, against 0.2 and 13–23 ms through the primary key).
    static let startupParameters = [("enable_bitmapscan", "off"), ("enable_seqscan", "off")]

    /// For one connection of its own: migrations and `user add`.
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        switch endpoint {
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS =
                switch self.tls {
                case .disable: .disable
                case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            return .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        case .socket(let path):
            return .init(unixSocketPath: path, username: username, password: password, database: database)
        }
    }

    private static func percentDecoded(_ text: Substring) throws(ServerError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { throw .address(.badEscape) }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
