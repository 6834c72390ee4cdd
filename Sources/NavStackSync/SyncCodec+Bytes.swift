import NavStackBytes

/// The bytes the codec tells apart (the module's own: they are not worth a public name).
extension UInt8 {
    var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    var isLowercaseHexDigit: Bool { isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self) }
    var isJSONBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension Int64 {
    /// The whole number `-`? digits in `bytes[range]`; `nil` past `Int64`'s range.
    init?(ascii bytes: ByteView, _ range: Range<Int>) {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAgain) =
                negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
            index += 1
        }
        self = value
    }
}
