/// Line diffs: the edits that turn one list of lines into another, and their unified
/// form.
public enum LineDiff {
    public enum Edit: Equatable, Sendable {
        case same(String, String)
        case removed(String)
        case added(String)
    }

    /// A shortest edit script, where `matches(old, new)` says whether two lines are the
    /// same.
    public static func edits(
        from old: [String], to new: [String],
        matches: (String, String) -> Bool = { $0 == $1 }
    ) -> [Edit] {
        edits(from: old, to: new, matching: { matches(old[$0], new[$1]) })
    }

    /// A shortest edit script by Myers' O((N+M)D) algorithm in linear space, where
    /// `matching(i, j)` says whether `old[i]` and `new[j]` are the same line.
    ///
    /// When the two differ in more than `costLimit` lines (by default about 50 million
    /// comparisons' worth), the part between the common head and tail is shown as one
    /// replacement instead of being searched further. Within each run of changes the
    /// removed lines come before the added ones.
    public static func edits(
        from old: [String], to new: [String], matching: (Int, Int) -> Bool,
        costLimit: Int? = nil
    ) -> [Edit] {
        let limit = costLimit ?? max(256, 50_000_000 / max(1, old.count + new.count))
        let steps = withoutActuallyEscaping(matching) { matching in
            var search = Search(matching: matching)
            search.compare(0..<old.count, 0..<new.count, costLimit: limit)
            return search.steps
        }
        var edits: [Edit] = []
        edits.reserveCapacity(max(old.count, new.count))
        var i = 0
        var j = 0
        var removed: [Edit] = []
        var added: [Edit] = []
        func flush() {
            edits += removed
            edits += added
            removed.removeAll()
            added.removeAll()
        }
        for step in steps {
            switch step {
            case .same:
                flush()
                edits.append(.same(old[i], new[j]))
                i += 1
                j += 1
            case .removed:
                removed.append(.removed(old[i]))
                i += 1
            case .added:
                added.append(.added(new[j]))
                j += 1
            }
        }
        flush()
        return edits
    }

    /// Myers' linear-space search: the point where a shortest path's forward and
    /// backward halves meet, then each half the same way (the bisection of Myers' paper
    /// section 4b, as diff-match-patch writes it).
    private struct Search {
        enum Step { case same, removed, added }

        let matching: (Int, Int) -> Bool
        var steps: [Step] = []

        init(matching: @escaping (Int, Int) -> Bool) {
            self.matching = matching
        }

        /// Appends the steps from `a` to `b`. With a `costLimit`, a part that needs more
        /// edits than that becomes one replacement.
        mutating func compare(_ a: Range<Int>, _ b: Range<Int>, costLimit: Int? = nil) {
            var a = a
            var b = b
            while !a.isEmpty, !b.isEmpty, matching(a.lowerBound, b.lowerBound) {
                steps.append(.same)
                a = (a.lowerBound + 1)..<a.upperBound
                b = (b.lowerBound + 1)..<b.upperBound
            }
            var tail = 0
            while !a.isEmpty, !b.isEmpty, matching(a.upperBound - 1, b.upperBound - 1) {
                tail += 1
                a = a.lowerBound..<(a.upperBound - 1)
                b = b.lowerBound..<(b.upperBound - 1)
            }
            defer { steps += repeatElement(.same, count: tail) }
            guard !a.isEmpty, !b.isEmpty, let (x, y) = split(a, b, costLimit: costLimit),
                (x, y) != (a.lowerBound, b.lowerBound), (x, y) != (a.upperBound, b.upperBound)
            else {
                steps += repeatElement(.removed, count: a.count)
                steps += repeatElement(.added, count: b.count)
                return
            }
            compare(a.lowerBound..<x, b.lowerBound..<y)
            compare(x..<a.upperBound, y..<b.upperBound)
        }

        /// A point on a shortest path from the start of `a` and `b` to their ends, about
        /// half its cost from each; `nil` when the path costs more than `costLimit` (or,
        /// which cannot happen, no path is found).
        private func split(_ a: Range<Int>, _ b: Range<Int>, costLimit: Int?) -> (Int, Int)? {
            let n = a.count
            let m = b.count
            let most = (n + m + 1) / 2
            let rounds = min(most, costLimit.map { $0 / 2 + 1 } ?? most)
            // The furthest x reached on each diagonal k = x - y, stored at most + k;
            // backward, x and y count from the ends. -1: not reached.
            var forward = [Int](repeating: -1, count: 2 * most + 2)
            var backward = forward
            forward[most + 1] = 0
            backward[most + 1] = 0
            let delta = n - m
            // With an odd delta the paths meet during a forward round, else a backward one.
            let front = delta & 1 != 0
            // Diagonals trimmed off each end once their paths left the grid.
            var forwardStart = 0, forwardEnd = 0, backwardStart = 0, backwardEnd = 0
            /// Takes diagonal k one round further: from the better neighbour, then along
            /// the lines that are equal (`equal(x, y)`, counted from this direction's
            /// start); keeps and answers where it ends.
            func reach(_ reached: inout [Int], _ k: Int, _ d: Int, _ equal: (Int, Int) -> Bool) -> (x: Int, y: Int) {
                let index = most + k
                var x =
                    k == -d || (k != d && reached[index - 1] < reached[index + 1])
                    ? reached[index + 1] : reached[index - 1] + 1
                var y = x - k
                while x < n, y < m, equal(x, y) {
                    x += 1
                    y += 1
                }
                reached[index] = x
                return (x, y)
            }
            for d in 0..<rounds {
                for k in stride(from: -d + forwardStart, through: d - forwardEnd, by: 2) {
                    let (x, y) = reach(&forward, k, d) { matching(a.lowerBound + $0, b.lowerBound + $1) }
                    if x > n {
                        forwardEnd += 2
                    } else if y > m {
                        forwardStart += 2
                    } else if front {
                        let other = most + delta - k
                        if other >= 0, other < backward.count, backward[other] != -1, x >= n - backward[other] {
                            return (a.lowerBound + x, b.lowerBound + y)
                        }
                    }
                }
                for k in stride(from: -d + backwardStart, through: d - backwardEnd, by: 2) {
                    let (x, y) = reach(&backward, k, d) { matching(a.upperBound - 1 - $0, b.upperBound - 1 - $1) }
                    if x > n {
                        backwardEnd += 2
                    } else if y > m {
                        backwardStart += 2
                    } else if !front {
                        let other = most + delta - k
                        if other >= 0, other < forward.count, forward[other] != -1 {
                            let forwardX = forward[other]
                            let forwardY = forwardX - (other - most)
                            if forwardX >= n - x {
                                return (a.lowerBound + forwardX, b.lowerBound + forwardY)
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// The edits as a unified diff with `context` lines around each change; empty when
    /// nothing changed. Lines are numbered from `firstLine` (the line of a file where
    /// both texts start). Names and lines are escaped for display (a control character
    /// shows as `\u{1B}`, never reaching the terminal).
    public static func unified(
        _ edits: [Edit], oldName: String, newName: String, context: Int = 3,
        firstLine: Int = 1
    ) -> String {
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
        var out = "--- \(oldName.escapedForDisplay)\n+++ \(newName.escapedForDisplay)\n"
        for hunk in hunks {
            let oldCount = oldLine[hunk.upperBound + 1] - oldLine[hunk.lowerBound]
            let newCount = newLine[hunk.upperBound + 1] - newLine[hunk.lowerBound]
            let oldStart = oldLine[hunk.lowerBound] + (oldCount == 0 ? firstLine - 1 : firstLine)
            let newStart = newLine[hunk.lowerBound] + (newCount == 0 ? firstLine - 1 : firstLine)
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for edit in edits[hunk] {
                switch edit {
                case .same(let line, _): out += " " + line.escapedForDisplay + "\n"
                case .removed(let line): out += "-" + line.escapedForDisplay + "\n"
                case .added(let line): out += "+" + line.escapedForDisplay + "\n"
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
