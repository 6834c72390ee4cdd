extension Transcript {
    /// The info string that marks a fenced block of a Markdown file as a transcript: its
    /// first word.
    public static let markdownTag = "transcript"

    /// A fenced code block of a Markdown file whose info string starts with the word
    /// `transcript`: its content is a transcript, replayed like a `.transcript` file.
    public struct Block: Equatable, Sendable {
        /// The line of the opening fence, from 1.
        public var fenceLine: Int
        /// The content's lines, as indices (from 0) into the file's lines: the lines
        /// between the fences.
        public var lines: Range<Int>
        /// The opening fence's indentation in spaces (at most 3), taken off each line of
        /// the content as far as it goes, and put back when the block is rewritten.
        public var indent: Int
        /// The content, its indentation taken off, each line ending in LF.
        public var text: String
        /// The opening fence's backticks or tildes (```` ``` ````), which a line closing
        /// the block repeats.
        public var fence: String
        /// Whether a closing fence ends the block (else it runs to the end of the file).
        public var isClosed: Bool

        /// The line of the content's first line in the file, from 1.
        public var firstLine: Int { lines.lowerBound + 1 }
    }

    /// The fenced blocks of a Markdown text that hold transcripts, in file order.
    ///
    /// Fences are read as CommonMark reads them: a line of three or more backticks or
    /// tildes, indented by at most three spaces, opens a block, and a line of the same
    /// character, at least as long and with nothing else on it but spaces, closes it.
    /// A block holds a transcript when the first word of its info string is `transcript`
    /// (```` ```transcript ````); every other block is left alone, and no fence inside a
    /// block opens another.
    public static func blocks(inMarkdown text: String) -> [Block] {
        let lines = Self.lines(of: text)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard let fence = Fence(opening: lines[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < lines.count, !fence.isClosed(by: lines[end]) { end += 1 }
            if fence.info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first == Substring(markdownTag) {
                let content = lines[(index + 1)..<end]
                blocks.append(
                    Block(
                        fenceLine: index + 1, lines: (index + 1)..<end, indent: fence.indent,
                        text: content.map { Self.unindented($0, by: fence.indent) + "\n" }.joined(),
                        fence: String(repeating: fence.character, count: fence.length),
                        isClosed: end < lines.count))
            }
            index = end + 1
        }
        return blocks
    }

    /// The Markdown text with each block's content replaced by the new text given for it
    /// (lines ending in LF or CR LF, as `text(with:)` writes them), indented as the block
    /// is; every other byte of the file stays as it was.
    public static func markdown(_ text: String, replacing replacements: [(block: Block, text: String)]) -> String {
        var lines = Self.lines(of: text)
        // From the last block up, so that the earlier blocks' line numbers still hold.
        for (block, new) in replacements.sorted(by: { $0.block.lines.lowerBound > $1.block.lines.lowerBound }) {
            var newLines = Self.lines(of: new)
            if newLines.last == "" { newLines.removeLast() }
            let margin = String(repeating: " ", count: block.indent)
            lines.replaceSubrange(block.lines, with: newLines.map { $0.isEmpty || $0 == "\r" ? $0 : margin + $0 })
        }
        return lines.joined(separator: "\n")
    }

    /// A line with up to `indent` leading spaces taken off.
    private static func unindented(_ line: String, by indent: Int) -> String {
        let spaces = line.prefix(indent).prefix { $0 == " " }.count
        return String(line.dropFirst(spaces))
    }

    /// An opening code fence.
    private struct Fence {
        let character: Character
        let length: Int
        let indent: Int
        let info: Substring

        /// The fence a line opens, if it opens one.
        init?(opening line: String) {
            let line = line.hasSuffix("\r") ? line.dropLast() : Substring(line)
            let indent = line.prefix { $0 == " " }.count
            guard indent <= 3, let first = line.dropFirst(indent).first, first == "`" || first == "~" else { return nil }
            let run = line.dropFirst(indent).prefix { $0 == first }.count
            guard run >= 3 else { return nil }
            let info = line.dropFirst(indent + run)
            // A backtick fence's info string may not hold a backtick (CommonMark).
            guard first == "~" || !info.contains("`") else { return nil }
            self.character = first
            self.length = run
            self.indent = indent
            self.info = info.drop { $0 == " " || $0 == "\t" }
        }

        /// Whether a line closes this fence.
        func isClosed(by line: String) -> Bool {
            let line = line.hasSuffix("\r") ? line.dropLast() : Substring(line)
            let indent = line.prefix { $0 == " " }.count
            guard indent <= 3 else { return false }
            let rest = line.dropFirst(indent)
            let run = rest.prefix { $0 == character }.count
            return run >= length && rest.dropFirst(run).allSatisfy { $0 == " " || $0 == "\t" }
        }
    }
}
