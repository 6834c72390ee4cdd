/// Bytes written as many short pieces, each copied straight into memory of its own,
/// without the checks and the generic copy an array's `append(contentsOf:)` makes each
/// time (a screen's lines are written so). Taken as an array, or kept, at the end.
public struct GrowingBytes: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used: Int

    /// How many bytes are written.
    @inlinable public var count: Int { used }

    /// Bytes that start with `start`, with `room` more to write before growing.
    public init(after start: [UInt8], room: Int) {
        capacity = start.count + max(room, 16)
        base = .allocate(capacity: capacity)
        used = 0
        append(contentsOf: start)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, kept in the memory they were written in.
    public consuming func finished() -> PrintedBytes {
        let printed = PrintedBytes(taking: base, count: count)
        discard self
        return printed
    }

    /// The bytes written, taken: none are left after.
    public mutating func take() -> [UInt8] {
        let written = [UInt8](UnsafeBufferPointer(start: base, count: count))
        used = 0
        return written
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[used] = byte
        used += 1
    }

    @inlinable
    public mutating func append(_ source: ByteView) {
        guard let start = source.buffer.baseAddress else { return }
        let length = source.buffer.count
        if length > capacity - count { grow(toHold: length) }
        (base + used).update(from: start, count: length)
        used += length
    }

    /// Appends a literal's bytes (kept in the program: nothing to retain).
    @inlinable
    public mutating func append(_ literal: StaticString) {
        append(literal.bytes)
    }

    @inlinable
    public mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withBytes { append($0) }
    }

    /// Appends the text's UTF-8, from its storage at once when it has it contiguous (as
    /// native strings do).
    @inlinable @inline(__always)
    public mutating func append(utf8 text: some StringProtocol) {
        if text.withContiguousUTF8IfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Appends `count` spaces.
    @inlinable
    public mutating func appendSpaces(_ count: Int) {
        for _ in 0..<max(0, count) { append(0x20) }
    }

    /// Appends the decimal digits of `number` (and its sign) as ASCII.
    @inlinable
    public mutating func appendDecimal(_ number: Int) {
        withDecimalDigits(of: number) { append($0) }
    }

    /// Takes back the last `count` bytes written.
    @inlinable
    public mutating func removeLast(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "only what was written is taken back")
        used -= count
    }

    /// Makes room for `length` more bytes at least, doubling what there is.
    @usableFromInline
    mutating func grow(toHold length: Int) {
        let larger = max(capacity * 2, count + length)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}

/// Bytes written once and kept to be used again (a screen printed again): in the memory
/// a ``GrowingBytes`` wrote them in (an array would be a copy of it), or an array made
/// elsewhere.
public final class PrintedBytes {
    private let written: UnsafeMutablePointer<UInt8>?
    private let array: [UInt8]
    public let count: Int

    /// Takes over `count` bytes written at `base`, allocated for them.
    fileprivate init(taking base: UnsafeMutablePointer<UInt8>, count: Int) {
        written = base
        array = []
        self.count = count
    }

    public init(_ bytes: [UInt8]) {
        written = nil
        array = bytes
        count = bytes.count
    }

    deinit {
        written?.deallocate()
    }

    public var isEmpty: Bool { count == 0 }

    /// The bytes, lent to `body`.
    public func withBytes<R>(_ body: (ByteView) -> R) -> R {
        guard let written else { return array.withBytes(body) }
        return body(ByteView(UnsafeBufferPointer(start: written, count: count)))
    }
}

/// Bytes written into room set aside for them (on the stack, or a new string's
/// storage), no more than it holds: each write checks the room left.
public struct ByteWriter: ~Copyable {
    @usableFromInline let room: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline var used: Int

    /// How many bytes are written.
    @inlinable public var count: Int { used }

    @inlinable
    init(_ room: UnsafeMutableBufferPointer<UInt8>) {
        self.room = room
        used = 0
    }

    /// A writer into memory the caller set aside and keeps while it writes (a C API's
    /// buffer: SQLite binds the bytes where they were written).
    @inlinable
    public init(over room: UnsafeMutableRawBufferPointer) {
        self.init(room.bindMemory(to: UInt8.self))
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        precondition(count < room.count, "room for the byte")
        room[used] = byte
        used += 1
    }

    @inlinable
    public mutating func append(_ literal: StaticString) {
        append(literal.bytes)
    }

    @inlinable
    public mutating func append(_ source: ByteView) {
        precondition(source.count <= room.count - used, "room for the bytes")
        for index in 0..<source.count { room[used + index] = source.buffer[index] }
        used += source.count
    }

    /// Appends the decimal digits of `number` (and its sign) as ASCII.
    @inlinable
    public mutating func appendDecimal(_ number: Int) {
        // At most 19 digits and a sign.
        precondition(room.count - used >= 20, "room for the digits")
        if number < 0 {
            room[used] = UInt8(ascii: "-")
            used += 1
        }
        var rest = number.magnitude
        let start = used
        repeat {
            room[used] = UInt8(ascii: "0") + UInt8(rest % 10)
            used += 1
            rest /= 10
        } while rest > 0
        room[start..<used].reverse()
    }

    /// Appends the last `count` decimal digits of a number not below zero, with zeros
    /// before them when it has fewer (`appendDigits(7, count: 2)` writes `07`).
    @inlinable
    public mutating func appendDigits(_ number: Int, count: Int) {
        precondition(number >= 0 && count <= room.count - used, "room for the digits")
        var rest = number
        for place in stride(from: used + count - 1, through: used, by: -1) {
            room[place] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        used += count
    }

    /// The bytes written so far.
    @inlinable
    public var written: ByteView {
        ByteView(UnsafeBufferPointer(rebasing: room[..<count]))
    }
}

/// Room for `capacity` bytes on the stack, written by `write`; what it wrote is lent to
/// `body`.
@inlinable
public func withStackBytes<R>(capacity: Int, write: (inout ByteWriter) -> Void, _ body: (ByteView) -> R) -> R {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { room in
        var writer = ByteWriter(room)
        write(&writer)
        return body(writer.written)
    }
}

extension String {
    /// A string of the UTF-8 `write` writes, in room for `capacity` bytes made in the
    /// string itself (no array between). The bytes are checked as UTF-8 and repaired.
    @inlinable
    public init(capacity: Int, writingUTF8 write: (inout ByteWriter) -> Void) {
        self.init(unsafeUninitializedCapacity: capacity) { room in
            var writer = ByteWriter(room)
            write(&writer)
            return writer.count
        }
    }
}
