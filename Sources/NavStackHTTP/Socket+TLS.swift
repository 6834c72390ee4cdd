import NavStackBytes

/// TLS over the socket: OpenSSL seals and opens, the socket moves the bytes with the
/// request's deadline.
extension Socket {
    /// Runs the TLS handshake with the server at `host`, checking its certificate chain
    /// against `context`'s authorities and its name against `host`; once they pass,
    /// ``send(_:by:)`` and ``receive(into:by:)`` go through TLS. When a check fails, the
    /// error names the host and the reason, and no byte of a request has been sent.
    mutating func secure(with context: TLSContext, host: String, port: Int, by deadline: Deadline) throws(HTTPError) {
        let session = try TLSSession(context: context, host: host, port: port)
        let buffer = ByteRoom(capacity: 16 << 10)
        // The first bytes the server sent, to tell a server that speaks plain HTTP.
        var first: [UInt8] = []
        while true {
            let step = session.handshake()
            // The hello, the last handshake message, or the alert that says why it stopped.
            let delivered = try sendPlain(session.takeOutput(), by: deadline)
            switch step {
            case .done:
                guard delivered else { throw .connectionClosed }
                tls = session
                return
            case .needsInput:
                let count = try receivePlain(into: buffer, by: deadline)
                guard count > 0 else { throw .connectionClosed }
                buffer.withBytes(count) { bytes in
                    if first.count < 5 { first += bytes.prefix(5 - first.count) }
                    session.feed(bytes)
                }
            case .closed, .failed(.connectionClosed):
                throw .connectionClosed
            case .failed(let failure):
                if first.starts(with: Array("HTTP/".utf8)) { throw .notTLS(host: host, port: port) }
                throw failure
            }
        }
    }

    /// Seals `bytes` and sends the records.
    func sendSealed(_ bytes: [UInt8], over session: TLSSession, by deadline: Deadline) throws(HTTPError) -> Bool {
        guard session.write(bytes) else { throw .connectionClosed }
        return try sendPlain(session.takeOutput(), by: deadline)
    }

    /// Opens the next bytes of the answer, receiving records until some arrive: 0 once the
    /// server has closed the TLS connection. A connection cut without TLS's close_notify
    /// is `connectionClosed`, so that an answer read to the end of the connection cannot
    /// be cut short unnoticed.
    func receiveSealed(into buffer: borrowing ByteRoom, over session: TLSSession, by deadline: Deadline)
        throws(HTTPError) -> Int
    {
        var ended = false
        while true {
            switch session.read(into: buffer) {
            case .done(let count):
                return count
            case .closed:
                return 0
            case .failed(let failure):
                throw failure
            case .needsInput:
                guard !ended else { throw .connectionClosed }
                // A message after the handshake (a key update) may want an answer.
                _ = try sendPlain(session.takeOutput(), by: deadline)
                let count = try receivePlain(into: buffer, by: deadline)
                if count == 0 {
                    ended = true
                    session.endOfInput()
                } else {
                    buffer.withBytes(count) { session.feed($0) }
                }
            }
        }
    }
}
