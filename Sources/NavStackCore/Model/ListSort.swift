import NavStackTime

/// The order `sort KEY` gives the list: a key and its direction (`-due`).
///
/// Each key's plain order runs from what presses most: urgency from the highest, due from
/// the soonest, priority `H`, `M`, `L` then none; created and modified from the oldest;
/// title from A (ignoring the case of ASCII letters, then by bytes). A leading `-` reverses
/// it, with one exception taken from Taskwarrior: tasks with no date (due, created,
/// modified) come last either way. Ties keep the list's own order, so pages are stable.
public struct ListSort: Equatable, Hashable, Sendable {
    public enum Key: String, CaseIterable, Equatable, Hashable, Sendable {
        case urgency, due, priority, created, modified, title
    }

    public var key: Key
    public var reversed: Bool

    public init(_ key: Key, reversed: Bool = false) {
        self.key = key
        self.reversed = reversed
    }

    /// The sort a word names (`due`, `-due`), ignoring case; `nil` for any other word.
    public init?(word: some StringProtocol) {
        let reversed = word.hasPrefix("-")
        guard let key = Key(rawValue: word.dropFirst(reversed ? 1 : 0).lowercased()) else { return nil }
        self.init(key, reversed: reversed)
    }

    /// The word typed, linked and shown: `due`, `-due`.
    public var word: String { (reversed ? "-" : "") + key.rawValue }

    /// The words `sort` takes: each key, then `none`.
    public static let words = Key.allCases.map(\.rawValue) + ["none"]

    /// Whether `a` comes before `b` by this sort, `nil` when they tie (then the list's own
    /// order decides). `urgency` is given for each, as ``Urgency/of(_:now:blocking:blocked:)``
    /// computes it.
    public func precedes(_ a: (task: TaskItem, urgency: Double), _ b: (task: TaskItem, urgency: Double)) -> Bool? {
        func ordered<T: Comparable>(_ x: T, _ y: T) -> Bool? { x == y ? nil : (x < y) != reversed }
        func dated(_ x: Instant?, _ y: Instant?) -> Bool? {
            switch (x, y) {
            case (nil, nil): nil
            case (nil, _): false
            case (_, nil): true
            case (let x?, let y?): ordered(x.secondsSinceEpoch, y.secondsSinceEpoch)
            }
        }
        switch key {
        case .urgency: return precedes(urgency: a.urgency, b.urgency)
        case .due: return dated(a.task.due, b.task.due)
        case .created: return dated(a.task.stamps.created, b.task.stamps.created)
        case .modified: return dated(a.task.stamps.modified, b.task.stamps.modified)
        case .priority: return ordered(Self.rank(a.task.priority), Self.rank(b.task.priority))
        case .title:
            let (x, y) = (Array(a.task.title.utf8), Array(b.task.title.utf8))
            func folded(_ bytes: [UInt8]) -> [UInt8] { bytes.map { (65...90).contains($0) ? $0 | 0x20 : $0 } }
            let (fx, fy) = (folded(x), folded(y))
            if fx != fy { return fx.lexicographicallyPrecedes(fy) != reversed }
            return x == y ? nil : x.lexicographicallyPrecedes(y) != reversed
        }
    }

    /// Whether a task of urgency `a` comes before one of urgency `b` (the higher first, or
    /// the lower when reversed), `nil` when they tie.
    public func precedes(urgency a: Double, _ b: Double) -> Bool? {
        a == b ? nil : (a > b) != reversed
    }

    /// `H` 0, `M` 1, `L` 2, none 3.
    static func rank(_ priority: Priority?) -> Int {
        switch priority {
        case .high?: 0
        case .medium?: 1
        case .low?: 2
        case nil: 3
        }
    }
}
