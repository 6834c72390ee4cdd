import NavStackBytes

/// Every command word navstack knows, with its usage (its one-line summary is in the
/// catalogs).
///
/// This table is the one source for parsing, `help`, the actions a screen shows,
/// suggestions for typos and tab completion.
public enum CommandWord: String, CaseIterable, Equatable, Hashable, Sendable {
    case help, `where`, go, back
    case backDiscarding = "back!"
    case root, tab, undo, redo, quit, exit
    case login, logout
    case open, add, new, toggle, delete, modify, move, filter, find, sort, next, prev, page, day
    case edit, title, notes, done, save
    case due, scheduled, wait, until, recur, priority, project, tag, annotate
    case saveKeepingMine = "save!"
    case theirs, cancel
    case settings, about
    case yes, no

    /// How the command is typed.
    public var usage: String {
        switch self {
        case .help: "help [COMMAND]"
        case .where: "where"
        case .go: "go URL"
        case .back: "back [N|to ID|to list]"
        case .backDiscarding: "back! [N|to ID|to list]"
        case .root: "root"
        case .tab: "tab tasks|agenda|account"
        case .undo: "undo"
        case .redo: "redo"
        case .quit: "quit"
        case .exit: "exit"
        case .login: "login NAME"
        case .logout: "logout"
        case .open: "open N"
        case .add: "add [TITLE]"
        case .new: "new"
        case .toggle: "toggle [N]"
        case .delete: "delete [N]"
        case .modify: "modify [N] WORDS…"
        case .move: "move N to ID|top"
        case .filter: "filter all|open|done|waiting [TERM…]"
        case .find: "find [TEXT]"
        case .sort: "sort [-]KEY|none"
        case .next: "next"
        case .prev: "prev"
        case .page: "page N"
        case .day: "day DATE"
        case .edit: "edit"
        case .title: "title TEXT"
        case .notes: "notes [TEXT]"
        case .done: "done on|off"
        case .due: "due DATE|none"
        case .scheduled: "scheduled DATE|none"
        case .wait: "wait DATE|none"
        case .until: "until DATE|none"
        case .recur: "recur RULE|none"
        case .priority: "priority H|M|L|none"
        case .project: "project NAME|none"
        case .tag: "tag +NAME -NAME …|none"
        case .annotate: "annotate TEXT"
        case .save: "save"
        case .saveKeepingMine: "save!"
        case .theirs: "theirs"
        case .cancel: "cancel"
        case .settings: "settings"
        case .about: "about"
        case .yes: "yes"
        case .no: "no"
        }
    }

    /// How the command is typed on a screen of this kind, where that differs from
    /// ``usage``: `done` takes a row where tasks are listed and `on|off` on a draft;
    /// `modify` needs a row but on a detail.
    public func usage(on kind: ScreenKind) -> String {
        switch self {
        case .done where kind != .edit && kind != .newTask: kind == .detail ? "done [N]" : "done N"
        case .modify where kind != .detail: "modify N WORDS…"
        default: usage
        }
    }

    /// Whether the command changes nothing but the fields of the draft shown (`title`,
    /// `notes`, `done`): not the store, the path, nor what the draft started from. Its
    /// screen is made from the one read of what it acts on.
    var changesOnlyADraftsFields: Bool {
        switch self {
        case .title, .notes, .done, .due, .scheduled, .wait, .until, .recur, .priority, .project, .tag: true
        default: false
        }
    }

    /// Looks a word up, ignoring case (a few letters outside ASCII lower into it, as the
    /// Kelvin sign into `k`).
    public init?(word: some StringProtocol) {
        guard let found = Self.byName[word.lowercased()] else { return nil }
        self = found
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// Looks up a word typed in ASCII, ignoring case, from its bytes: each word is at most
    /// eight bytes, kept as one number, found by halves among the words' numbers.
    static func lookUp(ascii bytes: ByteView) -> CommandWord? {
        guard let key = packed(bytes) else { return longWord(bytes) }
        var low = 0
        var high = byPacked.count
        while low < high {
            let middle = (low + high) / 2
            let (found, word) = byPacked[middle]
            if found == key { return word }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Up to eight ASCII bytes, lowered, as one number (the first byte lowest); `nil` for
    /// more bytes, or none.
    private static func packed(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 8 else { return nil }
        var key: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            key |= UInt64(lowered) << shift
            shift += 8
        }
        return key
    }

    /// A word of more than eight bytes (`scheduled`), compared byte by byte, lowered.
    private static func longWord(_ bytes: ByteView) -> CommandWord? {
        guard bytes.count > 8 else { return nil }
        var lowered: [UInt8] = []
        for byte in bytes {
            let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            lowered.append(isUpper ? byte | 0x20 : byte)
        }
        for (word, found) in longWords where word == lowered { return found }
        return nil
    }

    private static let longWords: [(bytes: [UInt8], word: CommandWord)] = allCases.filter { $0.rawValue.utf8.count > 8 }.map {
        (Array($0.rawValue.utf8), $0)
    }

    /// The words a typo is never taken for.
    static let neverSuggested: Set<CommandWord> = [.undo, .redo, .delete, .backDiscarding, .cancel, .logout, .yes]

    /// The words of one to eight bytes (``longWord(_:)`` finds the others).
    private static let byPacked: [(UInt64, CommandWord)] = allCases.compactMap { word in
        packed(word.rawValue.utf8).map { ($0, word) }
    }.sorted { $0.0 < $1.0 }

    /// The word closest to a mistyped one, if it is close enough to suggest; never one
    /// that deletes, undoes or throws work away (`info` is not `undo`: a suggestion typed
    /// in haste must not lose anything).
    public static func suggestion(for word: String) -> CommandWord? {
        let typed = Array(word.lowercased())
        guard typed.count <= 32 else { return nil }
        var best: (word: CommandWord, distance: Int)?
        for candidate in allCases where !neverSuggested.contains(candidate) {
            let distance = editDistance(typed, Array(candidate.rawValue))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = typed.count <= 3 ? 1 : 2
        return best.distance <= allowed ? best.word : nil
    }
}

/// Optimal string alignment distance: insertions, deletions, substitutions and
/// transpositions of neighbours (`opne` → `open` is one edit).
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, table[i - 2][j - 2] + 1)
            }
            table[i][j] = value
        }
    }
    return table[a.count][b.count]
}
