import NavStackCore

/// One task before and after a change; `nil` where it did not exist.
struct ChangePair: Equatable {
    var before: StoredTask?
    var after: StoredTask?
}

/// What undo and redo make of a change's operations: the pairs, or for an import only
/// the range of ids it added (while it is undone, its tasks wait in `undone_task`), so a
/// large import stays cheap to record, undo and redo.
enum ChangeRecord: Equatable {
    case pairs([ChangePair])
    case imported(first: Int, last: Int)
}

/// Where an operation stands in the undo history: the op table's `part`.
enum OperationPart: Int {
    /// Undo's and redo's own operations: nothing to take back.
    case none = -1
    /// The first operation of a change `undo` can take back (it names the writer).
    case first = 0
    /// The next operations of that change, right after it in the log.
    case next = 1
    /// The first operation of an undone change that a later change forgot.
    case forgotten = -2
}

/// How the operations of one change are logged: for its profile, under its kind, the
/// first one naming the process that made it, the next ones following it.
struct ChangeLog {
    let profile: Int64
    let kind: String
    private let writer: String
    private var part: OperationPart

    /// A change `undo` can take back, made by `writer`.
    init(_ kind: ChangeKind, of profile: Int64, by writer: String) {
        self.profile = profile
        self.kind = kind.rawValue
        self.writer = writer
        part = .first
    }

    /// Operations outside the history: an undo's or a redo's (`kind` the command), a
    /// new profile's sample tasks.
    init(outsideHistory kind: String, of profile: Int64) {
        self.profile = profile
        self.kind = kind
        writer = ""
        part = .none
    }

    /// The `part` and `writer` of the next operation.
    mutating func next() -> (part: Int, writer: String) {
        defer { if part == .first { part = .next } }
        return (part.rawValue, part == .first ? writer : "")
    }
}

/// The fields of operations kept for undo alone, which sync never stamps nor sends:
/// `pair` (a task before and after: local values another replica replaced, a change made
/// before undo read the log), `range` (an import's ids, from before then) and `under`
/// (the parent a task moved among its siblings kept: undo of the move checks it still is).
let undoOnlyFields: Set<String> = ["pair", "range", "under"]

/// An operation of the log as undo reads it.
struct LoggedOperation {
    var kind: String
    var uuid: String?
    var field: String
    var old: String?
    var new: String?
}
