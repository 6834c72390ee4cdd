/// Text drawn for holding a fast path equal to its plain twin: mostly the printable ASCII
/// a fast path takes, and around it everything that must send text down the plain one.
extension SplitMix64 {
    /// Printable ASCII words, and the bytes at the edges of the checks (space, the first and
    /// last printable, `#`).
    private static let asciiWords = [
        "a", "Buy", "fruit", "milk", "Study", "SwiftUI", "x", "open", "title", "2", "42", "~!@#$%^&*()_+{}", "#", "[x]",
        "a-b", "Z", "tasks/1", "navstack://tasks/3", "...", "`", "~", "'quoted'", "\"double\"", "back!", "OPEN",
    ]

    /// Characters that are not printable ASCII, each sending text down a plain path: letters
    /// with accents, decomposed and stacked combining marks, wide and emoji characters,
    /// joiners, controls (C0, DEL, C1), direction marks and overrides, invisible characters,
    /// and whitespace outside ASCII.
    public static let otherCharacters = [
        "é", "ñ", "ç", "ü", "e\u{301}", "a\u{301}\u{316}", "\u{301}", "\u{20DD}", "漢字", "한", "ｗ", "🙂", "👩\u{200D}💻", "🇵🇹",
        "\u{0}", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9B}",
        "\u{202E}", "\u{200F}", "\u{2066}", "\u{061C}", "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{2028}",
        "\u{A0}", "\u{2003}", "\u{3000}", "—", "…", "›", "·", "─",
    ]

    /// A number drawn from `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// Whether a draw of one in `count` came up.
    public mutating func oneIn(_ count: Int) -> Bool {
        Int.random(in: 0..<count, using: &self) == 0
    }

    /// One of the elements.
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements.randomElement(using: &self)!
    }

    /// Printable ASCII words joined by single spaces: what a fast path takes when it fits.
    public mutating func plainText(words: ClosedRange<Int> = 1...8) -> String {
        (0..<int(in: words)).map { _ in pick(Self.asciiWords) }.joined(separator: " ")
    }

    /// Text of any shape: empty, blank, printable ASCII (alone, long, with spaces at an edge
    /// or two together), or ASCII mixed with ``otherCharacters``.
    public mutating func text() -> String {
        switch int(in: 0...19) {
        case 0: return ""
        case 1: return String(repeating: pick([" ", "\t", " \t", "\u{A0}"]), count: int(in: 1...4))
        case 2...8: return plainText()
        case 9: return String(repeating: plainText(words: 1...3) + " ", count: int(in: 2...30))
        case 10, 11:
            let spaces = String(repeating: " ", count: int(in: 1...3))
            let text = plainText(words: 1...4)
            return pick([spaces + text, text + spaces, text + spaces + plainText(words: 1...2)])
        default:
            var text = ""
            for _ in 0..<int(in: 1...8) {
                text += oneIn(2) ? pick(Self.asciiWords) : pick(Self.otherCharacters)
                if oneIn(2) { text += " " }
            }
            if oneIn(6) { text = String(repeating: text, count: int(in: 2...20)) }
            return text
        }
    }
}
