import NavStackCore
import NavStackTime

/// Words of a title that todo.txt would read as something else, written so that they read
/// back as the same words.
///
/// todo.txt has no escapes of its own; Simpletask's answer to a `+` that is not a project
/// is a backslash before the word, and that is the escape here: a title word that the
/// reader would take for a `key:value`, a tag the task does not have (`+word`, `@word`),
/// or, first on a line that gives no dates before it, for the mark of a done task (`x`), a
/// priority (`(A)`) or a date (`2026-12-01`), is written with a `\` before it, and the
/// reader takes that `\` away again. A word that starts with backslashes before such a word
/// gets one more, so every title reads back as it was, and a word the reader would not
/// misread (`C:\WINDOWS`, `\n`) is written as it is.
extension TodoTxtWriter {
    /// What the first word after a line's start would be read as.
    struct LineStart: OptionSet {
        let rawValue: Int
        /// `x`: a done task (the first word of a line).
        static let done = LineStart(rawValue: 1)
        /// `(A)`–`(Z)`: a priority.
        static let priority = LineStart(rawValue: 2)
        /// `YYYY-MM-DD`: a completion or a creation date.
        static let date = LineStart(rawValue: 4)
        static let lineStart: LineStart = [.done, .priority, .date]
    }

    /// A title as the words of a line, each misread word escaped; `start` says what its
    /// first word would be read as, and `tags` are the task's (a `+word` of one of them is
    /// the tag it says).
    static func escapedTitle(_ title: String, start: LineStart, tags: [String]) -> String {
        guard title.contains(where: { $0 == ":" || $0 == "+" || $0 == "@" || $0 == "\\" }) || !start.isEmpty else { return title }
        var first = true
        return title.split(separator: " ", omittingEmptySubsequences: false).map { word in
            defer { first = false }
            return escaped(word, start: first ? start : [], tags: tags)
        }.joined(separator: " ")
    }

    /// A title word as written: with a `\` before it when the reader would misread it.
    static func escaped(_ word: Substring, start: LineStart, tags: [String]) -> String {
        let bare = word.drop { $0 == "\\" }
        let misread = bare.count == word.count ? isMisread(word, start: start, tags: tags) : isMisread(bare, start: start, tags: nil)
        return misread ? "\\" + word : String(word)
    }

    /// The title word a line's word is, when it is an escaped one: the word without its
    /// first `\`; nil for any other word.
    static func unescaped(_ word: Substring, start: LineStart) -> Substring? {
        guard word.first == "\\", isMisread(word.drop { $0 == "\\" }, start: start, tags: nil) else { return nil }
        return word.dropFirst()
    }

    /// Whether the reader takes `word` for something other than a word of the title, where
    /// `start` says it stands. A `+word` or `@word` is a title word and a tag: it is
    /// misread when `tags` (the task's, or nil for any) lacks that tag.
    static func isMisread(_ word: Substring, start: LineStart, tags: [String]?) -> Bool {
        if word.count > 1, word.first == "+" || word.first == "@" {
            let tag = String(word.dropFirst())
            guard FieldRules.isTag(tag) else { return false }
            return !(tags?.contains { $0.lowercased() == tag.lowercased() } ?? false)
        }
        if let pair = TodoTxtReader.keyValue(word), !TodoTxtReader.isTitleWord(key: pair.key, value: pair.value) { return true }
        if start.contains(.done), word == "x" { return true }
        if start.contains(.priority), TodoTxtReader.priorityLetter(word) != nil { return true }
        if start.contains(.date), CivilDate(isoText: String(word)) != nil { return true }
        return false
    }
}
