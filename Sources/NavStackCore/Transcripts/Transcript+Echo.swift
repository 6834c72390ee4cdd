extension Transcript {
    /// What a run printed, as the lines of a transcript. In JSON Lines each input line
    /// is echoed as an object of its own, `{"echo": LINE, "line": N}`; a transcript shows
    /// it as `> LINE`, the way the text format echoes it, so transcripts read alike in
    /// both formats.
    public static func lines(ofOutput output: String) -> [String] {
        var lines = lines(of: output)
        if output.hasSuffix("\n") { lines.removeLast() }
        return lines.map { line in
            guard line.hasPrefix(#"{"echo":"#), let echo = JSONValue(parsing: line), let text = echo["echo"]?.string
            else { return line }
            return "> " + text.escapedForDisplay
        }
    }
}
