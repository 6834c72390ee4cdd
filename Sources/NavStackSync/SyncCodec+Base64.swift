/// Base64 (RFC 4648, the standard alphabet, with padding): how a sealed payload travels
/// in the protocol's JSON.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Each byte's value in the alphabet, 0xFF for a byte that is not in it.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(index) }
        return values
    }()

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            text.append(alphabet[Int(group >> 18 & 63)])
            text.append(alphabet[Int(group >> 12 & 63)])
            text.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 63)])
            text.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 63)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`; `nil` unless it is whole groups of four characters of the
    /// alphabet, padded with `=` only at the end, with no bits left over set.
    public static func decode(_ text: String) -> [UInt8]? {
        let text = Array(text.utf8)
        guard text.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            let isLast = index + 4 == text.count
            let padding = isLast ? (text[index + 3] == UInt8(ascii: "=") ? (text[index + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
            var group: UInt32 = 0
            for offset in 0..<4 {
                let byte = text[index + offset]
                let value: UInt8
                if offset >= 4 - padding {
                    value = 0
                } else {
                    value = values[Int(byte)]
                    guard value != 0xFF else { return nil }
                }
                group = group << 6 | UInt32(value)
            }
            bytes.append(UInt8(group >> 16 & 0xFF))
            if padding < 2 { bytes.append(UInt8(group >> 8 & 0xFF)) }
            if padding < 1 { bytes.append(UInt8(group & 0xFF)) }
            // The bits the padding leaves over are zero in a canonical text.
            if padding == 1 && group & 0xFF != 0 || padding == 2 && group & 0xFFFF != 0 { return nil }
            index += 4
        }
        return bytes
    }
}
