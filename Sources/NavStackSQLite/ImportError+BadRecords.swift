import NavStackCore

/// A record of an import that a door refuses, named as its user can find it: where it is
/// (a record's index from 0, or a line's number from 1), its uuid when it has one, the
/// first words of its title, and what is wrong (which names the field).
public struct BadRecord: Equatable, Sendable {
    public enum Place: Equatable, Sendable {
        case record(Int)
        case line(Int)
    }

    public var place: Place
    public var uuid: String?
    /// Its title as read, when it has one.
    public var title: String?
    public var problem: ImportError.Record

    public init(_ place: Place, uuid: String? = nil, title: String? = nil, _ problem: ImportError.Record) {
        self.place = place
        self.uuid = uuid
        self.title = title
        self.problem = problem
    }

    /// How many words of a title name it, and at most how many characters.
    static let words = 5
    static let characters = 40

    /// The first words of a title, escaped, `…` when some are left out.
    static func firstWords(of title: String) -> String {
        let words = title.split(whereSeparator: \.isWhitespace)
        var shown = words.prefix(Self.words).joined(separator: " ")
        var cut = words.count > Self.words
        if shown.count > Self.characters {
            shown = String(shown.prefix(Self.characters))
            cut = true
        }
        return shown.escapedForDisplay + (cut ? "…" : "")
    }

    /// Where it is, with its uuid and first words: `3 (uuid 5f…, "Pay rent")`.
    var name: String {
        let index =
            switch place {
            case .record(let index): index
            case .line(let number): number
            }
        var parts: [String] = []
        if let uuid { parts.append("uuid " + uuid) }
        if let title, !title.isBlank { parts.append("\"" + Self.firstWords(of: title) + "\"") }
        return parts.isEmpty ? "\(index)" : "\(index) (" + parts.joined(separator: ", ") + ")"
    }

    /// One line for each record named, the last saying that nothing was imported, then
    /// one with how many more there are when there are.
    static func message(_ named: [BadRecord], more: Int, in t: Catalog) -> String {
        var lines: [String] = []
        for (number, bad) in named.enumerated() {
            let last = number == named.count - 1 && more == 0
            let reason = bad.problem.message(in: t)
            switch (bad.place, last) {
            case (.record, true): lines.append(t(.importBadRecord, ("index", bad.name), ("reason", reason)))
            case (.record, false): lines.append(t(.importRecordProblem, ("index", bad.name), ("reason", reason)))
            case (.line, true): lines.append(t(.importBadLine, ("number", bad.name), ("reason", reason)))
            case (.line, false): lines.append(t(.importLineProblem, ("number", bad.name), ("reason", reason)))
            }
        }
        if more > 0 { lines.append(t(.importMoreBadRecords, ("count", more))) }
        return lines.joined(separator: "\n")
    }
}

/// The bad records an import finds as it reads on: the first ``shown`` named, the rest
/// counted. Reading goes on past a bad record, so that one import names them all; then
/// the import fails with them, and nothing is imported.
struct BadRecords {
    /// How many are named.
    static let shown = 20
    private(set) var named: [BadRecord] = []
    private(set) var more = 0

    var isEmpty: Bool { named.isEmpty }

    mutating func add(_ bad: BadRecord) {
        if named.count < Self.shown { named.append(bad) } else { more += 1 }
    }

    /// Fails with the records named when there are any.
    func check() throws(ImportError) {
        guard named.isEmpty else { throw .badRecords(named, more: more) }
    }
}
