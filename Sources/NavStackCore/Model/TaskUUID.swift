import NavStackBytes

/// Makes task uuids: time-ordered (version 7, RFC 9562, written as RFC 4122 writes every
/// uuid) lowercase text.
///
/// Time-ordered, so that a store's unique index on uuids grows at its end: an import of a
/// million tasks appends to it rather than writing all over it. Each uuid holds the
/// clock's milliseconds, a 12-bit counter that keeps uuids of one millisecond in order,
/// and 62 random bits from xoshiro256**, seeded once: from the system's random source
/// for a store file, from a fixed seed and a fixed clock for a store in memory (which no
/// one else ever sees), so its output is the same bytes on every run.
public struct TaskUUIDSource: Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)
    private let clock: @Sendable () -> UInt64
    private var lastMillis: UInt64 = 0
    private var counter: UInt64 = 0

    /// A source seeded from the system's random numbers, on a clock of milliseconds
    /// since 1970.
    public init(clock: @escaping @Sendable () -> UInt64) {
        var system = SystemRandomNumberGenerator()
        self.init(seed: (system.next(), system.next(), system.next(), system.next()), clock: clock)
    }

    /// A source that always makes the same uuids, for a store nobody else sees.
    public static var fixed: TaskUUIDSource {
        // The state spread from one number by SplitMix64, as xoshiro's authors advise.
        var seed: UInt64 = 0x6E61_7673_7461_636B
        func spread() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // 2024-01-01, for ever.
        return TaskUUIDSource(seed: (spread(), spread(), spread(), spread()), clock: { 1_704_067_200_000 })
    }

    private init(seed: (UInt64, UInt64, UInt64, UInt64), clock: @escaping @Sendable () -> UInt64) {
        state = seed
        self.clock = clock
        // A state of all zeros would stay zero.
        if state == (0, 0, 0, 0) { state.0 = 1 }
    }

    private mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// A new uuid, `tttttttt-tttt-7ccc-yrrr-rrrrrrrrrrrr`, later than the ones before it.
    public mutating func make() -> String {
        String(capacity: Self.textLength) { write(into: &$0) }
    }

    /// The length of a uuid as text.
    public static let textLength = 36

    /// Writes a new uuid's text, 36 bytes, into `text` (an import writes a batch of them
    /// into one buffer, without making strings).
    public mutating func write(into text: inout ByteWriter) {
        let now = clock() & 0xFFFF_FFFF_FFFF
        if now > lastMillis {
            lastMillis = now
            counter = 0
        } else {
            // The same millisecond (or a clock set back): the counter keeps the order,
            // and a full counter moves on to the next millisecond.
            counter += 1
            if counter > 0xFFF {
                lastMillis += 1
                counter = 0
            }
        }
        let high = (lastMillis << 16) | 0x7000 | counter
        let low = (next() >> 2) | (0x2 << 62)
        for index in 0..<32 {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            let word = index < 16 ? high : low
            let digit = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (index & 15))) & 0xF
            text.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit)
        }
    }
}

extension String {
    /// Whether the text is a uuid as RFC 4122 writes it: 8-4-4-4-12 hex digits, either
    /// case.
    public var isUUID: Bool {
        let bytes = Array(utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
                    break
                default: return false
                }
            }
        }
        return true
    }
}
