/// Line diffs: the edits that turn one list of lines into another, and their unified
/// form.
public enum LineDiff {
    public enum Edit: Equatable, Sendable {
        case same(String, String)
        case removed(String)
        case added(String)
    }

    /// A shortest edit script by longest common subsequence, with the common head and
    /// tail taken off first (transcripts differ in few places).
    public static func edits(from old: [String], to new: [String],
                             matches: (String, String) -> Bool = { $0 == $1 }) -> [Edit] {
        var head = 0
        while head < old.count, head < new.count, matches(old[head], new[head]) { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head,
              matches(old[old.count - 1 - tail], new[new.count - 1 - tail]) { tail += 1 }
        let a = Array(old[head..<(old.count - tail)])
        let b = Array(new[head..<(new.count - tail)])
        var edits = (0..<head).map { Edit.same(old[$0], new[$0]) }
        // lengths[i][j]: the LCS of a[i...] and b[j...]
        var lengths = [[Int32]](repeating: [Int32](repeating: 0, count: b.count + 1), count: a.count + 1)
        if !a.isEmpty && !b.isEmpty {
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    lengths[i][j] = matches(a[i], b[j]) ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
                }
            }
        }
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, matches(a[i], b[j]) {
                edits.append(.same(a[i], b[j]))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || lengths[i + 1][j] >= lengths[i][j + 1] {
                edits.append(.removed(a[i]))
                i += 1
            } else {
                edits.append(.added(b[j]))
                j += 1
            }
        }
        edits += (0..<tail).map { Edit.same(old[old.count - tail + $0], new[new.count - tail + $0]) }
        return edits
    }

    /// The edits as a unified diff with `context` lines around each change; empty when
    /// nothing changed.
    public static func unified(_ edits: [Edit], oldName: String, newName: String, context: Int = 3) -> String {
        let changed = edits.indices.filter { if case .same = edits[$0] { false } else { true } }
        guard !changed.isEmpty else { return "" }
        // Group the changes into hunks whose context overlaps.
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(edits.count - 1, index + context)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...range.upperBound
            } else {
                hunks.append(range)
            }
        }
        // Line numbers before each edit, in the old and the new text.
        var oldLine = [Int](repeating: 0, count: edits.count + 1)
        var newLine = [Int](repeating: 0, count: edits.count + 1)
        for (index, edit) in edits.enumerated() {
            oldLine[index + 1] = oldLine[index] + (edit.isAdded ? 0 : 1)
            newLine[index + 1] = newLine[index] + (edit.isRemoved ? 0 : 1)
        }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        for hunk in hunks {
            let oldCount = oldLine[hunk.upperBound + 1] - oldLine[hunk.lowerBound]
            let newCount = newLine[hunk.upperBound + 1] - newLine[hunk.lowerBound]
            let oldStart = oldCount == 0 ? oldLine[hunk.lowerBound] : oldLine[hunk.lowerBound] + 1
            let newStart = newCount == 0 ? newLine[hunk.lowerBound] : newLine[hunk.lowerBound] + 1
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for edit in edits[hunk] {
                switch edit {
                case .same(let line, _): out += " " + line + "\n"
                case .removed(let line): out += "-" + line + "\n"
                case .added(let line): out += "+" + line + "\n"
                }
            }
        }
        return out
    }
}

extension LineDiff.Edit {
    var isAdded: Bool { if case .added = self { true } else { false } }
    var isRemoved: Bool { if case .removed = self { true } else { false } }
}
