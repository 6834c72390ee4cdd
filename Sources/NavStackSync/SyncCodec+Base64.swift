import NavStackBytes

/// Base64 (RFC 4648, the standard alphabet, with padding): how a sealed payload travels
/// in the protocol's JSON. Every sealed operation goes through it twice, so it works on
/// byte views and writes its text in place, not on generic collections.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Each byte's value in the alphabet, 0xFF for a byte that is not in it.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(index) }
        return values
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        String(capacity: (bytes.count + 2) / 3 * 4) { text in
            bytes.withBytes { bytes in
                var index = 0
                while index + 3 <= bytes.count {
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    text.append(alphabet[Int(group >> 18 & 63)])
                    text.append(alphabet[Int(group >> 12 & 63)])
                    text.append(alphabet[Int(group >> 6 & 63)])
                    text.append(alphabet[Int(group & 63)])
                    index += 3
                }
                let left = bytes.count - index
                if left > 0 {
                    let group = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                    text.append(alphabet[Int(group >> 18 & 63)])
                    text.append(alphabet[Int(group >> 12 & 63)])
                    text.append(left == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
                    text.append(UInt8(ascii: "="))
                }
            }
        }
    }

    /// The bytes of `text`; `nil` unless it is whole groups of four characters of the
    /// alphabet, padded with `=` only at the end, with no bits left over set.
    public static func decode(_ text: String) -> [UInt8]? {
        text.withUTF8Bytes { decode($0) }
    }

    /// Whether `text` is base64 that ``decode(_:)`` reads, without keeping what it reads.
    public static func isValid(_ text: String) -> Bool {
        text.withUTF8Bytes { decode($0, keeping: false) } != nil
    }

    private static func decode(_ text: ByteView, keeping: Bool = true) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        let padding =
            text.count == 0 ? 0 : (text[text.count - 1] == UInt8(ascii: "=") ? 1 : 0) + (text[text.count - 2] == UInt8(ascii: "=") ? 1 : 0)
        // One `=` before another character, as in `Zg=a`, is not padding.
        if padding == 1, text.count >= 2, text[text.count - 2] == UInt8(ascii: "="), text[text.count - 1] != UInt8(ascii: "=") {
            return nil
        }
        let count = text.count / 4 * 3 - padding
        var bytes = [UInt8](repeating: 0, count: keeping ? count : 0)
        var out = 0
        var index = 0
        while index < text.count {
            let isLast = index + 4 == text.count
            let used = isLast ? 4 - padding : 4
            var group: UInt32 = 0
            for offset in 0..<4 {
                let value = offset < used ? values[Int(text[index + offset])] : 0
                if value == 0xFF { return nil }
                group = group << 6 | UInt32(value)
            }
            // The bits the padding leaves over are zero in a canonical text.
            if padding == 1 && isLast && group & 0xFF != 0 || padding == 2 && isLast && group & 0xFFFF != 0 {
                return nil
            }
            if keeping {
                bytes[out] = UInt8(group >> 16 & 0xFF)
                if out + 1 < count { bytes[out + 1] = UInt8(group >> 8 & 0xFF) }
                if out + 2 < count { bytes[out + 2] = UInt8(group & 0xFF) }
            }
            out += 3
            index += 4
        }
        return bytes
    }
}
