/// Makes task uuids: random (version 4) RFC 4122 uuids as lowercase text.
///
/// The bits come from xoshiro256**, seeded once: from the system's random source for a
/// store file (uuids unique across stores and machines), from a fixed seed for a store in
/// memory (which no one else ever sees), so its output is the same bytes on every run.
public struct TaskUUIDSource: Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A source seeded from the system's random numbers.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: (system.next(), system.next(), system.next(), system.next()))
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
        return TaskUUIDSource(seed: (spread(), spread(), spread(), spread()))
    }

    private init(seed: (UInt64, UInt64, UInt64, UInt64)) {
        state = seed
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

    /// A new uuid, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
    public mutating func make() -> String {
        let high = (next() & ~0xF000) | 0x4000
        let low = (next() & ~(0xC << 60)) | (0x8 << 60)
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        for (half, word) in [high, low].enumerated() {
            for nibble in 0..<16 {
                let index = half * 16 + nibble
                if index == 8 || index == 12 || index == 16 || index == 20 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(digits[Int((word >> UInt64(60 - 4 * nibble)) & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): break
                default: return false
                }
            }
        }
        return true
    }
}
