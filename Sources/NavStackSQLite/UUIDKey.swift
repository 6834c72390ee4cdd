/// A uuid's 128 bits, as a set of the uuids read holds them (a tenth of their texts).
struct UUIDKey: Hashable {
    let high: UInt64
    let low: UInt64

    /// The bits of `text`, a uuid's 8-4-4-4-12 hexadecimal digits.
    init(_ text: String) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for byte in text.utf8 where byte != UInt8(ascii: "-") {
            let value = UInt64(
                byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : (byte | 0x20) &- UInt8(ascii: "a") &+ 10)
            if digits < 16 { high = high << 4 | value } else { low = low << 4 | value }
            digits += 1
        }
        self.high = high
        self.low = low
    }
}
