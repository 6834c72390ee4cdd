import NavStackCore

/// A hand sync's sign of life at a terminal: once the sync has taken more than a second,
/// one line on stderr (`sync: sent 40,000 of 100,000`, and what was received while it
/// pulls), rewritten in place after each round and blanked before the totals or an
/// error are printed. Never when stderr is not a terminal: a pipe gets none of it.
final class SyncProgress {
    /// How long a sync runs before its progress is shown.
    static let delay: Duration = .seconds(1)

    private let streams: StandardStreams
    private let catalog: Catalog
    private let start = ContinuousClock.now
    /// The operations to send in all, as far as known: those acknowledged, and those
    /// still in the outbox when the line was last drawn.
    private var total = 0
    /// How many characters the line on screen holds (0: none is shown).
    private var shown = 0

    /// `nil` unless stderr is a terminal.
    init?(streams: StandardStreams, catalog: Catalog, terminal: Bool = Terminal.isTTY(2)) {
        guard terminal else { return nil }
        self.streams = streams
        self.catalog = catalog
    }

    /// After a round: draws the totals so far once the sync has run for ``delay``.
    /// `waiting` counts the operations still to be acknowledged; it is asked only then.
    func update(_ totals: SyncTotals, waiting: () -> Int) {
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
    func end() {
        guard shown > 0 else { return }
        draw("\r" + String(repeating: " ", count: shown) + "\r")
        shown = 0
    }

    private func draw(_ text: String) {
        streams.write(text, to: .error)
        // A failed write is kept by the streams and reported with the output.
        try? streams.flush()
    }
}
