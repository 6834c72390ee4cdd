/// The bytes of a screen as its lines are written: many short pieces, each copied
/// straight into memory of its own, without the checks and the generic copy an
/// array's `append(contentsOf:)` makes each time. Taken as an array at the end.
struct ScreenBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count: Int

    /// Bytes that start with `start`, with `room` more to write before growing.
    init(after start: [UInt8], room: Int) {
        capacity = start.count + max(room, 16)
        base = .allocate(capacity: capacity)
        count = 0
        append(contentsOf: start)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, kept in the memory they were written in.
    consuming func finished() -> PrintedBytes {
        let printed = PrintedBytes(taking: base, count: count)
        discard self
        return printed
    }

    /// The bytes written, taken: none are left after.
    mutating func take() -> [UInt8] {
        let written = [UInt8](UnsafeBufferPointer(start: base, count: count))
        count = 0
        return written
    }

    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[count] = byte
        count += 1
    }

    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress else { return }
        let length = source.count
        if length > capacity - count { grow(toHold: length) }
        (base + count).update(from: start, count: length)
        count += length
    }

    /// Appends a literal's bytes (kept in the program: nothing to retain).
    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the text's UTF-8, from its storage at once when it has it contiguous (as
    /// native strings do).
    mutating func append(utf8 text: some StringProtocol) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) {
        for _ in 0..<max(0, count) { append(0x20) }
    }

    /// Appends the decimal digits of `number` (and its sign) as ASCII.
    mutating func appendDecimal(_ number: Int) {
        withDecimalDigits(of: number) { append($0) }
    }

    /// Takes back the last `count` bytes written.
    mutating func removeLast(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "only what was written is taken back")
        self.count -= count
    }

    /// Makes room for `length` more bytes at least, doubling what there is.
    private mutating func grow(toHold length: Int) {
        let larger = max(capacity * 2, count + length)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}

/// Bytes printed once and kept to be printed again: a screen's text in the memory it was
/// written in (an array would be a copy of it), or an array made elsewhere.
final class PrintedBytes {
    private let written: UnsafeMutablePointer<UInt8>?
    private let array: [UInt8]
    let count: Int

    /// Takes over `count` bytes written at `base`, allocated for them.
    fileprivate init(taking base: UnsafeMutablePointer<UInt8>, count: Int) {
        written = base
        array = []
        self.count = count
    }

    init(_ bytes: [UInt8]) {
        written = nil
        array = bytes
        count = bytes.count
    }

    deinit {
        written?.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The bytes, lent to `body`.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let written else { return array.withUnsafeBufferPointer(body) }
        return body(UnsafeBufferPointer(start: written, count: count))
    }
}
