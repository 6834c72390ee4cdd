/// The methods the sync client sends.
public enum HTTPMethod: String, Equatable, Hashable, Sendable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
}

/// One request: where it goes, its headers (`Authorization`, `Content-Type`, …) and its body.
/// `Host`, `Connection` and `Content-Length` are the client's to write.
public struct HTTPRequest: Equatable, Sendable {
    public var method: HTTPMethod
    public var url: HTTPURL
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: HTTPMethod, url: HTTPURL, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The headers the client writes itself; a request that names one is refused rather
    /// than sent with two values.
    static let reservedHeaders: Set<String> = ["host", "connection", "content-length", "transfer-encoding"]

    /// The request line and headers, ending with the empty line. The caller's headers come
    /// after the client's, sorted by name, so the same request is always the same bytes.
    /// `Connection: close` unless the connection is to be kept for the next request
    /// (HTTP/1.1 keeps it when the header is left out).
    func head(keepingConnection: Bool = false) throws(HTTPError) -> [UInt8] {
        guard url.target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw .invalidURL(url.description, reason: "the path holds a space or a control character")
        }
        var text = "\(method.rawValue) \(url.target) HTTP/1.1\r\nHost: \(url.authority)\r\n"
        if !keepingConnection { text += "Connection: close\r\n" }
        if !body.isEmpty || method == .post || method == .put {
            text += "Content-Length: \(body.count)\r\n"
        }
        for (name, value) in headers.sorted(by: { ($0.key.lowercased(), $0.key) < ($1.key.lowercased(), $1.key) }) {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte),
                !Self.reservedHeaders.contains(name.lowercased()),
                value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7f) })
            else { throw .invalidHeader(name: name) }
            text += "\(name): \(value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }
}

/// An answer: its status, its headers by lowercased name (a header sent more than once has
/// its values joined by ", ", as HTTP allows) and its body, already de-chunked.
public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Whether `byte` may be part of a header name (RFC 9110 `tchar`).
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}
