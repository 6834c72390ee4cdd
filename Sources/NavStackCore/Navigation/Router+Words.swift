/// The commands each screen offers.
extension Router {
    /// The actions of the task list at the root of the tasks tab, signed in: what the
    /// list screen shows, for fitting it to a window.
    public static var listActions: [CommandWord] {
        availableWords(on: .list, in: Session(user: ""))
    }

    /// The commands available on a screen of a session (`nil`: signed out).
    static func availableWords(on kind: ScreenKind, in session: Session?, extra: [CommandWord] = []) -> [CommandWord] {
        guard let session else { return [.login, .go, .help, .quit, .exit] }
        // A question takes an answer (`back` is no), or `go` leaves it; nothing else
        // changes until then.
        if session.confirm != nil { return kind.ownWords + [.back, .go, .where, .help, .quit, .exit] }
        let own = kind.ownWords
        var words: [CommandWord] = []
        // Room for all of them at once (with `back` and `back!`): the list grows by
        // several appends.
        words.reserveCapacity(own.count + extra.count + 2 + Self.treeWords.count + Self.anywhereWords.count)
        words += own
        // After `save`, before `cancel`.
        if !extra.isEmpty, let cancel = words.firstIndex(of: .cancel) { words.insert(contentsOf: extra, at: cancel) }
        if session.depth > 0 { words.append(.back) }
        if let owner = session.topDraftOwner, session.drafts.contains(owner) { words.append(.backDiscarding) }
        if !session.isModal { words += Self.treeWords }
        words += Self.anywhereWords
        // A sheet over the agenda would have no link of its own: new tasks are added on
        // the tasks tab.
        if session.tab == .agenda, let new = words.firstIndex(of: .new) { words.remove(at: new) }
        return words
    }

    /// Where the tasks tab is not under a sheet or a question: its root, the other tab.
    private static let treeWords: [CommandWord] = [.root, .tab]
    /// Signed in, anywhere but at a question.
    private static let anywhereWords: [CommandWord] = [.undo, .redo, .go, .where, .help, .quit, .exit]
}
