/// An account's token: 32 random bytes as 64 lowercase hexadecimal digits, sent as
/// `Authorization: Bearer TOKEN`. Anything else is refused before an operation log is asked.
public enum BearerToken {
    /// The form every token has.
    public static func isWellFormed(_ token: some StringProtocol) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A new token from the system's random numbers.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
