/// Bytes lent for the length of a closure (``Swift/String/withUTF8Bytes(_:)``,
/// ``Swift/Array/withBytes(_:)``): their count, each byte by index with its bounds
/// checked, views of parts of them and the scans the app makes eight bytes at a time.
///
/// It is only ever made by this module, from memory that stays put while the closure
/// runs; kept past the closure it would point at memory that may be gone, so it is
/// handed on, never stored (as NIO's `ByteBuffer` keeps its pointers to itself).
@frozen
public struct ByteView: RandomAccessCollection {
    @usableFromInline
    let buffer: UnsafeBufferPointer<UInt8>

    @inlinable
    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { buffer.count }
    @inlinable public var count: Int { buffer.count }
    @inlinable public var isEmpty: Bool { buffer.isEmpty }

    @inlinable
    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < buffer.count, "a byte of the view")
        return buffer[index]
    }

    @inlinable
    public func makeIterator() -> UnsafeBufferPointer<UInt8>.Iterator {
        buffer.makeIterator()
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(buffer)
    }

    /// The bytes in `range`, as a view of their own that counts from 0.
    @inlinable
    public func view(_ range: Range<Int>) -> ByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "a part of the view")
        return ByteView(UnsafeBufferPointer(rebasing: buffer[range]))
    }

    /// The bytes from `start` to the end, as a view of their own.
    @inlinable
    public func view(from start: Int) -> ByteView {
        view(start..<buffer.count)
    }

    /// The bytes decoded as UTF-8 (an ill-formed sequence becomes U+FFFD).
    @inlinable
    public var string: String {
        String(decoding: buffer, as: UTF8.self)
    }

    /// The bytes in `range` decoded as UTF-8.
    @inlinable
    public func string(_ range: Range<Int>) -> String {
        view(range).string
    }

    /// The eight bytes from `index` as one number, the first byte lowest (little
    /// endian, as the machines the app runs on).
    @inlinable
    public func word(at index: Int) -> UInt64 {
        precondition(index >= 0 && index + 8 <= buffer.count, "eight bytes of the view")
        return UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self))
    }

    /// The bytes lent to a C API that reads them where they are (SQLite's bind, a
    /// socket's send): the one way out of the view to a pointer.
    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(buffer)
    }

    /// The bytes as an array of their own.
    @inlinable
    public var array: [UInt8] {
        Array(buffer)
    }
}

// The lending functions below are inlined always: called from another module, the
// compiler kept them as calls, and the closures they lend to as contexts of their own
// (the cycle benchmark, docs/performance.md: 101,912 instructions a cycle outlined,
// 101,001 inlined, against 101,150 when they were the core's own).

extension String {
    /// The text's UTF-8 lent to `body`: a native string's bytes as it keeps them (no
    /// copy), any other's once it is made native.
    @inlinable @inline(__always)
    public func withUTF8Bytes<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable({ try body(ByteView($0)) }) { return result }
        var native = self
        return try native.withUTF8 { try body(ByteView($0)) }
    }
}

extension StringProtocol {
    /// The text's UTF-8 lent to `body` when the text keeps it in one piece (as native
    /// strings and their substrings do); `nil`, without calling `body`, when not.
    @inlinable @inline(__always)
    public func withContiguousUTF8IfAvailable<R>(_ body: (ByteView) throws -> R) rethrows -> R? {
        try utf8.withContiguousStorageIfAvailable { try body(ByteView($0)) }
    }
}

extension Array where Element == UInt8 {
    /// The array's bytes lent to `body`.
    @inlinable @inline(__always)
    public func withBytes<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { try body(ByteView($0)) }
    }

    /// Appends the view's bytes, copied at once.
    @inlinable
    public mutating func append(contentsOf view: ByteView) {
        append(contentsOf: view.buffer)
    }

    /// Appends a literal's bytes.
    @inlinable
    public mutating func append(_ literal: StaticString) {
        append(contentsOf: literal.bytes.buffer)
    }

    /// Appends the text's UTF-8, copied from its storage at once when the text has it
    /// contiguous (as native strings do).
    @inlinable
    public mutating func append(utf8 text: some StringProtocol) {
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            append(contentsOf: text.utf8)
        }
    }

    /// Appends the decimal digits of `number` (and its sign) as ASCII.
    @inlinable
    public mutating func appendDecimal(_ number: Int) {
        withDecimalDigits(of: number) { append(contentsOf: $0) }
    }

    /// Appends the bytes of `number`, the most significant first (network order).
    @inlinable
    public mutating func appendBigEndian<T: FixedWidthInteger>(_ number: T) {
        for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: number >> shift))
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes a C API or NIO lends, as a view: for as long as they are lent.
    @inlinable
    public var byteView: ByteView {
        ByteView(assumingMemoryBound(to: UInt8.self))
    }
}

extension ArraySlice where Element == UInt8 {
    /// The slice's bytes lent to `body` (counted from 0).
    @inlinable
    public func withBytes<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { try body(ByteView($0)) }
    }
}

extension StaticString {
    /// The literal's UTF-8, kept in the program (nothing to retain or free).
    @inlinable
    public var bytes: ByteView {
        ByteView(UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount))
    }
}

/// The decimal digits of `number` (and its sign) as ASCII, lent to `body` from the stack.
@inlinable
public func withDecimalDigits<R>(of number: Int, _ body: (ByteView) -> R) -> R {
    // At most 19 digits and a sign.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var rest = number.magnitude
        var start = digits.count
        repeat {
            start -= 1
            digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if number < 0 {
            start -= 1
            digits[start] = UInt8(ascii: "-")
        }
        return body(ByteView(UnsafeBufferPointer(rebasing: digits[start...])))
    }
}
