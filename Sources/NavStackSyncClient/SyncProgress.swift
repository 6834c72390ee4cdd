import NavStackCore

/// A hand sync's sign of life at a terminal: once the sync has taken more than a second,
/// one line on stderr (`sync: sent 40,000 of 100,000`, and what was received while it
/// pulls), rewritten in place after each round and blanked before the totals or an
/// error are printed. Never when stderr is not a terminal: a pipe gets none of it.
public final class SyncProgress {
    /// How long a sync runs before its progress is shown.
    static let delay: Duration = .seconds(1)

    /// Writes text to stderr at once.
    private let draw: (String) -> Void
    private let catalog: Catalog
    private let start = ContinuousClock.now
    /// The operations to send in all, as far as known: those acknowledged, and those
    /// still in the outbox when the line was last drawn.
    private var total = 0
    /// How many characters the line on screen holds (0: none is shown).
    private var shown = 0

    /// `nil` unless stderr is a `terminal`; `draw` writes to it at once.
    public init?(catalog: Catalog, terminal: Bool, draw: @escaping (String) -> Void) {
        guard terminal else { return nil }
        self.draw = draw
        self.catalog = catalog
    }

    /// After a round: draws the totals so far once the sync has run for ``delay``.
    /// `waiting` counts the operations still to be acknowledged; it is asked only then.
    public func update(_ totals: SyncTotals, waiting: () -> Int) {
        guard shown > 0 || ContinuousClock.now - start > Self.delay else { return }
        total = max(total, totals.sent + waiting())
        // Nothing to send and nothing received yet: no count to show.
        guard total > 0 || totals.received > 0 else { return }
        let t = catalog
        typealias Value = (String, any CustomStringConvertible)
        let sent: Value = ("sent", t.grouped(totals.sent)), of: Value = ("total", t.grouped(total))
        let received: Value = ("received", t.grouped(totals.received))
        let line =
            switch (total, totals.received) {
            case (_, 0): t(.syncProgress, sent, of)
            case (0, _): t(.syncProgressReceivedOnly, received)
            default: t(.syncProgressReceived, sent, of, received)
            }
        // Carriage return and blanks, which any terminal understands: no escape sequence.
        let width = line.count
        draw("\r" + line + String(repeating: " ", count: max(0, shown - width)))
        shown = width
    }

    /// Blanks the line, if one is shown, and leaves the cursor at its start.
    public func end() {
        guard shown > 0 else { return }
        draw("\r" + String(repeating: " ", count: shown) + "\r")
        shown = 0
    }
}
