// The C boundary. The other modules' C calls (SQLite, OpenSSL, sockets, files, libedit)
// take and give their bytes here: a pointer is lent to a closure for the length of one
// call, or copied out of C's memory at once, and no module but this one names a pointer
// type or keeps a pointer past the call.

extension ByteView {
    /// The bytes from `offset` lent to a C call that reads them where they are (`write`,
    /// `send`, `SSL_write`, an HMAC): `call` gets where they start, never nil (nil would
    /// mean no bytes at all to some C APIs, NULL to SQLite), and how many there are.
    @inlinable @inline(__always)
    public func lend<R, E: Error>(from offset: Int = 0, to call: (_ start: UnsafeRawPointer, _ count: Int) throws(E) -> R)
        throws(E) -> R
    {
        precondition(offset >= 0 && offset <= buffer.count, "a part of the view")
        guard let base = buffer.baseAddress else { return try call(UnsafeRawPointer(Self.empty.utf8Start), 0) }
        return try call(UnsafeRawPointer(base + offset), buffer.count - offset)
    }

    /// The bytes lent as C characters (`const char *`, as SQLite's bind and PBKDF2 take
    /// them), never nil, with their count.
    @inlinable @inline(__always)
    public func lendChars<R, E: Error>(to call: (_ start: UnsafePointer<CChar>, _ count: Int) throws(E) -> R) throws(E) -> R {
        try lend { (start, count) throws(E) in try call(start.assumingMemoryBound(to: CChar.self), count) }
    }

    /// The bytes lent to a C call that takes them as `unsigned char *` but is told to
    /// read them only (`sqlite3_deserialize` with `SQLITE_DESERIALIZE_READONLY`): the
    /// call must not write through the pointer, nor keep it past its return.
    @inlinable @inline(__always)
    public func lendToRead<R, E: Error>(to call: (_ start: UnsafeMutablePointer<UInt8>, _ count: Int) throws(E) -> R) throws(E) -> R {
        try lend { (start, count) throws(E) in try call(UnsafeMutablePointer(mutating: start.assumingMemoryBound(to: UInt8.self)), count) }
    }

    /// A place for the start of no bytes.
    @usableFromInline static let empty: StaticString = ""
}

extension Array where Element == UInt8 {
    /// `count` bytes that C memory holds at `start` (an address `getaddrinfo` gave, a line
    /// libedit read), copied; none when `start` is nil.
    @inlinable
    public init(copying start: UnsafeRawPointer?, count: Int) {
        guard let start, count > 0 else {
            self = []
            return
        }
        self.init(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// Up to `capacity` bytes a C call writes (`read`, a TLS session's output): `call`
    /// gets where to write and the room there is, and returns how many bytes it wrote; a
    /// negative count, a failure, keeps none.
    @inlinable
    public init(capacity: Int, filledBy call: (_ start: UnsafeMutableRawPointer, _ room: Int) -> Int) {
        self.init(unsafeUninitializedCapacity: capacity) { buffer, initialized in
            initialized = buffer.baseAddress.map { Swift.min(capacity, Swift.max(0, call(UnsafeMutableRawPointer($0), capacity))) } ?? 0
        }
    }

    /// Lends the bytes from `offset` on to a C call that writes into them (`read` into a
    /// block kept for the next), returning what `call` returns: how many it wrote, or a
    /// negative number for a failure.
    @inlinable
    public mutating func fill(from offset: Int = 0, by call: (_ start: UnsafeMutableRawPointer, _ room: Int) -> Int) -> Int {
        precondition(offset >= 0 && offset < count, "room in the array")
        return withUnsafeMutableBytes { call($0.baseAddress! + offset, $0.count - offset) }
    }
}

extension String {
    /// `count` bytes of UTF-8 that C memory holds at `start` (a SQLite column's text),
    /// decoded (an ill-formed sequence becomes U+FFFD); "" when `start` is nil.
    @inlinable
    public init(decodingC start: UnsafeRawPointer?, count: Int) {
        guard let start, count > 0 else {
            self = ""
            return
        }
        // Typed, so that decoding takes its path for contiguous bytes.
        self = String(decoding: UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count), as: UTF8.self)
    }

    /// The text of a C string kept in a fixed array of C characters (a `dirent`'s name),
    /// to its first NUL or the array's end.
    @inlinable
    public init<Characters>(cCharactersOf characters: Characters) {
        self = withUnsafeBytes(of: characters) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The text a C call writes as characters (`readlink`): `call` gets room for up to
    /// `capacity` of them and returns how many it wrote; nil when it wrote none (or failed).
    @inlinable
    public init?(capacity: Int, writtenByC call: (_ start: UnsafeMutablePointer<CChar>, _ room: Int) -> Int) {
        let bytes = [UInt8](capacity: capacity) { start, room in
            call(start.assumingMemoryBound(to: CChar.self), room)
        }
        guard !bytes.isEmpty else { return nil }
        self = String(decoding: bytes, as: UTF8.self)
    }

    /// The text lent as a C string that a C call may change in place (`mkstemp` and
    /// `mkdtemp` fill in a template's `X`s): what `call` returns, and the text after it.
    @inlinable
    public func withMutableCString<R>(_ call: (_ text: UnsafeMutablePointer<CChar>) throws -> R) rethrows -> (result: R, text: String) {
        var characters = Array(utf8CString)
        let result = try characters.withUnsafeMutableBufferPointer { try call($0.baseAddress!) }
        return (result, String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

extension Collection where Element == UInt8 {
    /// The collection's bytes lent to `body` as a view: where they are when the collection
    /// keeps them in one piece (NIO's `ByteBufferView` does), else a copy of them.
    @inlinable
    public func withByteView<R, E: Error>(_ body: (ByteView) throws(E) -> R) throws(E) -> R {
        // The standard library's lending rethrows untyped: the error is carried out.
        var result: Result<R, E>?
        _ = withContiguousStorageIfAvailable { buffer in
            result = Result { () throws(E) -> R in try body(ByteView(buffer)) }
        }
        if result == nil {
            Array(self).withUnsafeBufferPointer { buffer in
                result = Result { () throws(E) -> R in try body(ByteView(buffer)) }
            }
        }
        return try result!.get()
    }
}
