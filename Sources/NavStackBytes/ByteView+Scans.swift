#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The scans that look at eight bytes at a time. Each is held equal to its plain
// definition over generated input by NavStackBytesTests (and the app's twin tests).

extension UInt8 {
    /// A printable ASCII character, space included: one column on a terminal, nothing to
    /// escape.
    @inlinable
    public var isPrintableASCII: Bool {
        (0x20...0x7E).contains(self)
    }
}

extension ByteView {
    /// Each byte of a word 1, and each byte's high bit.
    @usableFromInline static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @usableFromInline static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Whether every byte is printable ASCII (0x20–0x7E), looked at eight at a time.
    @inlinable
    public var isPrintableASCII: Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A high bit where a byte is below 0x20 (taking 0x20 from it borrows), is 0x7F
            // (adding one carries) or is 0x80 and above (set already).
            let below = (word &- Self.ones &* 0x20) & ~word
            guard (below | (word &+ Self.ones) | word) & Self.highs == 0 else { return false }
            index += 8
        }
        while index < count {
            guard base[index].isPrintableASCII else { return false }
            index += 1
        }
        return true
    }

    /// Whether the bytes are not empty and have no space at either end nor two together,
    /// eight at a time.
    @inlinable
    public var isOneLine: Bool {
        isOneLine(printableOnly: false)
    }

    /// Whether the bytes are printable ASCII (``isPrintableASCII``) that is its own one
    /// line (``isOneLine``): both looked at in one pass.
    @inlinable
    public var isPlainOneLine: Bool {
        isOneLine(printableOnly: true)
    }

    /// The one-line check eight bytes at a time, and when `printableOnly` the printable
    /// check too (each caller's copy has only its own).
    @inlinable @inline(__always)
    func isOneLine(printableOnly: Bool) -> Bool {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return false }
        let count = buffer.count
        let ones = Self.ones
        let highs = Self.highs
        let lows = ~highs
        // The start counts as a space: a space first fails.
        var spaceBefore = true
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if printableOnly {
                // As `isPrintableASCII`: a high bit where a byte is below 0x20, 0x7F or above.
                let below = (word &- ones &* 0x20) & ~word
                guard (below | (word &+ ones) | word) & highs == 0 else { return false }
            }
            // The high bit of each byte that is a space (zero once spaces are taken out;
            // exact for each byte, as adding 0x7F to at most 0x7F never carries).
            let other = word ^ 0x2020_2020_2020_2020
            let spaces = ~(((other & lows) &+ lows) | other | lows)
            if spaces & (spaces << 8) != 0 || (spaceBefore && spaces & 0x80 != 0) { return false }
            spaceBefore = spaces >> 63 != 0
            index += 8
        }
        while index < count {
            let byte = base[index]
            if printableOnly && !byte.isPrintableASCII { return false }
            let space = byte == 0x20
            if space && spaceBefore { return false }
            spaceBefore = space
            index += 1
        }
        return !spaceBefore
    }

    /// Where `byte` first is among the bytes in `range`; `nil` when it is not there.
    /// Found by the C library's `memchr`, which looks at many bytes at a time.
    @inlinable
    public func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "a part of the view")
        guard !range.isEmpty, let base = buffer.baseAddress else { return nil }
        return memchr(base + range.lowerBound, Int32(byte), range.count).map {
            UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0))
        }
    }

    /// Whether the two hold the same bytes, compared eight at a time (views of the same
    /// memory are found at once).
    @inlinable
    public func hasSameBytes(as other: ByteView) -> Bool {
        guard buffer.count == other.buffer.count else { return false }
        guard let a = buffer.baseAddress, let b = other.buffer.baseAddress, a != b else { return true }
        let count = buffer.count
        var index = 0
        while index + 8 <= count {
            let x = UnsafeRawPointer(a + index).loadUnaligned(as: UInt64.self)
            guard x == UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self) else { return false }
            index += 8
        }
        while index < count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }
}
