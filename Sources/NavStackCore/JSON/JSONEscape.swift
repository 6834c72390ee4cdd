import NavStackBytes

/// The escapes of JSON strings, decoded the same way by every reader of JSON here.
///
/// A `\u` escape that is half a surrogate pair without its other half is refused: a lone
/// surrogate is not a character, and no text typed at the prompt can hold one.
enum JSONEscape {
    /// Why an escape could not be read.
    enum EscapeError: Error, Equatable, Sendable {
        /// `\` followed by something JSON does not escape.
        case unknown
        /// `\u` not followed by four hexadecimal digits.
        case badHex
        /// Half a surrogate pair without its other half.
        case loneSurrogate
    }

    /// Decodes the escape whose backslash is just before `index`, appending its UTF-8 to
    /// `utf8` and moving `index` past it.
    static func decode(_ bytes: ByteView, at index: inout Int, into utf8: inout [UInt8])
        throws(EscapeError)
    {
        guard index < bytes.count else { throw .unknown }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(bytes, at: &index)
            if (0xD800..<0xDC00).contains(scalar) {
                // The low half follows as another \u escape, or the high half is alone.
                var next = index + 2
                guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                    let low = try? hex4(bytes, at: &next), (0xDC00..<0xE000).contains(low)
                else { throw .loneSurrogate }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                index = next
            }
            guard let character = Unicode.Scalar(scalar) else { throw .loneSurrogate }
            utf8.append(contentsOf: String(character).utf8)
        default:
            throw .unknown
        }
    }

    /// Four hexadecimal digits.
    private static func hex4(_ bytes: ByteView, at index: inout Int) throws(EscapeError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .badHex }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .badHex
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
