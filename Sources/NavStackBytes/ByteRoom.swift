/// Room of a fixed size for bytes a C call writes (`recv`, `SSL_read`): allocated once,
/// lent to each call in turn, and what the last one wrote read back as a view. The HTTP
/// client receives every answer through one.
public struct ByteRoom: ~Copyable {
    @usableFromInline let storage: UnsafeMutableRawBufferPointer

    /// Room for `capacity` bytes.
    public init(capacity: Int) {
        precondition(capacity > 0, "room for a byte at least")
        storage = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit {
        storage.deallocate()
    }

    /// How many bytes the room holds.
    @inlinable public var capacity: Int { storage.count }

    /// Lends the room to a C call that writes into it: `call` gets where to write and how
    /// much room there is, and returns how many bytes it wrote (or a negative number for a
    /// failure, as the C library's calls do), which is returned.
    @inlinable
    public func fill<E: Error>(by call: (_ start: UnsafeMutableRawPointer, _ room: Int) throws(E) -> Int) throws(E) -> Int {
        try call(storage.baseAddress!, storage.count)
    }

    /// The first `count` bytes, lent to `body` as a view.
    @inlinable
    public func withBytes<R, E: Error>(_ count: Int, _ body: (ByteView) throws(E) -> R) throws(E) -> R {
        precondition(count >= 0 && count <= storage.count, "bytes of the room")
        return try body(ByteView(UnsafeBufferPointer(start: storage.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)))
    }
}

/// Copies of bytes that stay where they are until they are let go: what a C library keeps
/// a pointer to past the call that gave it (SQLite reads a text bound as static at each
/// step). A copy that does not fit goes to a larger buffer; the buffers outgrown are kept,
/// with the copies in them, until ``letGo()``.
public final class KeptBytes {
    @usableFromInline var buffer: UnsafeMutableRawBufferPointer
    @usableFromInline var used = 0
    @usableFromInline var outgrown: [UnsafeMutableRawBufferPointer] = []

    /// Room for `capacity` bytes of copies before a larger buffer is needed.
    public init(capacity: Int) {
        buffer = .allocate(byteCount: max(1, capacity), alignment: 1)
    }

    deinit {
        buffer.deallocate()
        for old in outgrown { old.deallocate() }
    }

    /// Copies `bytes` and lends the copy, as C characters, to `call` (`sqlite3_bind_text`
    /// with no destructor): it stays where it is until ``letGo()``.
    @inlinable
    public func keep<R>(_ bytes: ByteView, _ call: (_ start: UnsafePointer<CChar>, _ count: Int) -> R) -> R {
        let start = room(for: bytes.count)
        if let base = bytes.buffer.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
        return call(UnsafePointer(start.assumingMemoryBound(to: CChar.self)), bytes.count)
    }

    /// Lends `count` bytes of room to `write`, then the bytes written, as C characters, to
    /// `call`: they stay where they are until ``letGo()``.
    @inlinable
    public func keep<R>(
        writing count: Int, _ write: (inout ByteWriter) -> Void, _ call: (_ start: UnsafePointer<CChar>, _ count: Int) -> R
    ) -> R {
        let start = room(for: count)
        var writer = ByteWriter(UnsafeMutableBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count))
        write(&writer)
        return call(UnsafePointer(start.assumingMemoryBound(to: CChar.self)), writer.count)
    }

    /// Where the next `count` bytes of copies go.
    @inlinable
    func room(for count: Int) -> UnsafeMutableRawPointer {
        if used + count > buffer.count { grow(toHold: count) }
        defer { used += count }
        return buffer.baseAddress! + used
    }

    /// A larger buffer for the copies from now on; the copies before stay in the old one.
    @usableFromInline
    func grow(toHold count: Int) {
        outgrown.append(buffer)
        buffer = .allocate(byteCount: max(count, buffer.count * 2), alignment: 1)
        used = 0
    }

    /// Lets every copy go: their room is written again by the next. True when some were in
    /// buffers outgrown, now freed (a C library holding pointers to them must drop them).
    @discardableResult
    public func letGo() -> Bool {
        used = 0
        guard !outgrown.isEmpty else { return false }
        for old in outgrown { old.deallocate() }
        outgrown = []
        return true
    }
}

/// A value at an address that stays put for the value's whole life: for C state that must
/// never move (pthread's mutex and condition), which Swift's own storage does not promise.
public final class Pinned<Value> {
    /// Where the value is, for C calls on it; valid while this object lives.
    public let address: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        address = .allocate(capacity: 1)
        address.initialize(to: value)
    }

    deinit {
        address.deinitialize(count: 1)
        address.deallocate()
    }
}

/// A C string that stays where it is until it is replaced: for a C callback that returns
/// it from memory of its own (libedit asks for the prompt at each line).
public final class KeptCString {
    /// The characters, NUL-terminated; valid until the next ``set(_:)``.
    public private(set) var characters: UnsafeMutablePointer<CChar>

    public init(_ text: String) {
        characters = Self.copy(text)
    }

    deinit {
        characters.deallocate()
    }

    /// Replaces the text.
    public func set(_ text: String) {
        characters.deallocate()
        characters = Self.copy(text)
    }

    private static func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
        let source = text.utf8CString
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: source.count)
        copy.initialize(from: Array(source), count: source.count)
        return copy
    }
}
