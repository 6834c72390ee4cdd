import NavStackBytes

/// Reads an HTTP/1.x answer from the bytes of a connection as they arrive, in any pieces:
/// the head, then a body framed by `Content-Length`, by chunks or by the end of the
/// connection. It does no I/O, so it is tested by feeding it bytes.
struct ResponseReader {
    /// The largest body accepted, in bytes.
    let limit: Int
    /// The longest head (status line and headers, or a chunk's trailers) accepted.
    static let headLimit = 64 << 10
    /// The longest chunk-size line accepted (the size and any extensions).
    static let chunkLineLimit = 4096

    private enum Stage: Equatable {
        case head
        case body(remaining: Int)
        case untilClose
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case done
    }

    private var stage = Stage.head
    /// Bytes received and not yet read; `start` is the first of them.
    private var buffer: [UInt8] = []
    private var start = 0
    private var status = 0
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []
    /// Whether the status line said HTTP/1.1 (not 1.0).
    private var isHTTP11 = false
    /// Whether the body was framed by the end of the connection.
    private var endsWithConnection = false

    init(limit: Int) {
        self.limit = limit
    }

    /// The answer, once its last byte has arrived.
    var response: HTTPResponse? {
        stage == .done ? HTTPResponse(status: status, headers: headers, body: body) : nil
    }

    /// Whether the connection may carry another request once this answer is read: the
    /// answer is complete, framed by its length or chunks (not by the connection's end),
    /// HTTP/1.1 without `Connection: close`, and nothing arrived after it.
    var connectionMayBeKept: Bool {
        guard stage == .done, isHTTP11, !endsWithConnection, available == 0 else { return false }
        let tokens = (headers["connection"] ?? "").split(separator: ",").map { String($0).trimmingSpaces.lowercased() }
        return !tokens.contains("close")
    }

    /// Takes the next bytes of the connection.
    mutating func feed(_ bytes: ByteView) throws(HTTPError) {
        guard stage != .done else { return }
        buffer.append(contentsOf: bytes)
        try advance()
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096 && start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// The server closed the connection: the answer if it is complete, else why not.
    mutating func finish() throws(HTTPError) -> HTTPResponse {
        if stage == .untilClose {
            stage = .done
            endsWithConnection = true
        }
        guard let response else { throw .connectionClosed }
        return response
    }

    private var available: Int { buffer.count - start }

    /// Reads as far as the bytes received allow.
    private mutating func advance() throws(HTTPError) {
        while true {
            switch stage {
            case .head:
                guard let end = try find(crlfcrlf, limit: Self.headLimit, tooLong: "the headers are longer than 64 KiB") else { return }
                try readHead(buffer[start..<end])
                start = end + 4
            case .body(let remaining):
                let count = min(remaining, available)
                body.append(contentsOf: buffer[start..<start + count])
                start += count
                guard count == remaining else {
                    stage = .body(remaining: remaining - count)
                    return
                }
                stage = .done
            case .untilClose:
                guard body.count + available <= limit else { throw .responseTooLarge(limit: limit) }
                body.append(contentsOf: buffer[start...])
                start = buffer.count
                return
            case .chunkSize:
                guard let end = try find(crlf, limit: Self.chunkLineLimit, tooLong: "a chunk size line is longer than 4 KiB") else {
                    return
                }
                let line = buffer[start..<end]
                start = end + 2
                let size = try chunkSize(line)
                guard size <= limit - body.count else { throw .responseTooLarge(limit: limit) }
                stage = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, available)
                body.append(contentsOf: buffer[start..<start + count])
                start += count
                guard count == remaining else {
                    stage = .chunkData(remaining: remaining - count)
                    return
                }
                stage = .chunkEnd
            case .chunkEnd:
                guard available >= 2 else { return }
                guard buffer[start] == 13, buffer[start + 1] == 10 else {
                    throw .malformedResponse("a chunk does not end with CRLF")
                }
                start += 2
                stage = .chunkSize
            case .trailers:
                // Trailer fields are read past, not kept: the sync protocol sends none.
                guard let end = try find(crlf, limit: Self.headLimit, tooLong: "the trailers are longer than 64 KiB") else { return }
                let empty = end == start
                start = end + 2
                if empty { stage = .done }
            case .done:
                return
            }
        }
    }

    private let crlf: [UInt8] = [13, 10]
    private let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    /// Where `pattern` starts among the unread bytes, or nil when it has not arrived yet and
    /// the bytes before it are still within `limit`.
    private func find(_ pattern: [UInt8], limit: Int, tooLong: String) throws(HTTPError) -> Int? {
        let last = buffer.count - pattern.count
        if last >= start {
            for index in start...last where buffer[index] == pattern[0] {
                if buffer[index..<index + pattern.count].elementsEqual(pattern) { return index }
            }
        }
        guard available <= limit + pattern.count else { throw .malformedResponse(tooLong) }
        return nil
    }

    /// Reads the status line and headers and decides how the body is framed. An interim
    /// answer (1xx) is read past: the real one follows it.
    private mutating func readHead(_ bytes: ArraySlice<UInt8>) throws(HTTPError) {
        // Lines end with CRLF; a bare LF inside the head is read as an end of line too.
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { $0.last == 13 ? $0.dropLast() : $0 }
        guard let statusLine = lines.first else { throw .malformedResponse("the answer is empty") }
        status = try Self.status(statusLine)
        isHTTP11 = statusLine.starts(with: Array("HTTP/1.1".utf8))
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(isTokenByte)
            else { throw .malformedResponse("a header line is not \"name: value\"") }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        switch status {
        case 101:
            throw .malformedResponse("the server switched protocols")
        case 100...199:
            stage = .head
            return
        case 204, 304:
            stage = .done
            return
        default:
            break
        }
        if let coding = headers["transfer-encoding"] {
            let last = coding.split(separator: ",").last.map { String($0).trimmingSpaces.lowercased() }
            stage = last == "chunked" ? .chunkSize : .untilClose
        } else if let length = headers["content-length"] {
            let values = Set(length.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces })
            guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw .malformedResponse("the Content-Length \"\(length)\" is not one number")
            }
            guard let count = Int(text), count <= limit else { throw .responseTooLarge(limit: limit) }
            body.reserveCapacity(count)
            stage = count == 0 ? .done : .body(remaining: count)
        } else {
            stage = .untilClose
        }
    }

    /// The code of "HTTP/1.1 200 OK".
    private static func status(_ line: ArraySlice<UInt8>) throws(HTTPError) -> Int {
        let prefix = Array("HTTP/1.".utf8)
        let digits = line.dropFirst(prefix.count + 2).prefix(3)
        guard line.starts(with: prefix), line.count >= prefix.count + 5,
            line[line.startIndex + prefix.count + 1] == UInt8(ascii: " "),
            digits.count == 3, digits.allSatisfy({ (48...57).contains($0) }),
            line.count == prefix.count + 5 || line[line.startIndex + prefix.count + 5] == UInt8(ascii: " ")
        else {
            throw .malformedResponse("the status line is \"\(String(decoding: line.prefix(80), as: UTF8.self))\"")
        }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    /// The size of a chunk from its line ("1a" or "1a;name=value"), in hexadecimal.
    private func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPError) -> Int {
        let digits = line.prefix(while: { $0 != UInt8(ascii: ";") })
        let text = String(decoding: digits, as: UTF8.self).trimmingSpaces
        guard !text.isEmpty, text.count <= 15, let size = Int(text, radix: 16), !text.hasPrefix("+"), !text.hasPrefix("-") else {
            throw .malformedResponse("a chunk size is \"\(String(decoding: line.prefix(40), as: UTF8.self))\"")
        }
        return size
    }
}

extension String {
    /// The text without the spaces and tabs HTTP allows around a header value.
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        var low = 0
        var high = bytes.count
        while low < high && (bytes[low] == 32 || bytes[low] == 9) { low += 1 }
        while high > low && (bytes[high - 1] == 32 || bytes[high - 1] == 9) { high -= 1 }
        return String(decoding: bytes[low..<high], as: UTF8.self)
    }
}
