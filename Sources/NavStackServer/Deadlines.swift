import Synchronization

/// Cancels work that runs past its deadline, for every call in flight with one ticker,
/// not a sleeping task each: a `Task.sleep` cancelled keeps its task and its timer until
/// the time it was to wake (swiftlang/swift#60441), so a deadline of 5 s on every database
/// call kept thousands of them alive and armed under load (about 3% of the server's CPU
/// at 2,000 syncs a second, in perf, the timers' own thread among it).
final class Deadlines: Sendable {
    /// How often the ticker looks for work past its deadline: a deadline is kept to
    /// within this much.
    let tick: Duration

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var cancel: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var expired: Set<UInt64> = []
        var next: UInt64 = 0
        var ticking = false
    }

    private let state = Mutex(State())

    init(tick: Duration) {
        self.tick = tick
    }

    /// The watch of the server's database calls.
    static let shared = Deadlines(tick: .milliseconds(20))

    /// `work`'s result, or `nil` when it ran past `deadline` and was cancelled (what it
    /// returned or threw after that is dropped). A cancelled caller cancels the work.
    func run<Result: Sendable>(within deadline: Duration, _ work: @escaping @Sendable () async throws -> Result)
        async throws -> Result?
    {
        let task = Task { try await work() }
        let (ticket, startTicker) = state.withLock { state in
            let ticket = state.next
            state.next += 1
            state.entries[ticket] = Entry(deadline: .now + deadline, cancel: { task.cancel() })
            let first = !state.ticking
            state.ticking = true
            return (ticket, first)
        }
        if startTicker { startTicking() }
        let outcome = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        let expired = state.withLock { state in
            state.entries[ticket] = nil
            return state.expired.remove(ticket) != nil
        }
        return expired ? nil : try outcome.get()
    }

    /// Whether the ticker runs: from a call's start until a tick finds no call in flight.
    var isTicking: Bool { state.withLock { $0.ticking } }

    /// Cancels the work past its deadline, every ``tick``, until no call is in flight (an
    /// idle server does not wake for it; the next call starts it again).
    private func startTicking() {
        Task.detached { [self] in
            var ticking = true
            while ticking {
                try? await Task.sleep(for: tick)
                let now = ContinuousClock.now
                let late = state.withLock { state in
                    var late: [@Sendable () -> Void] = []
                    for (ticket, entry) in state.entries where entry.deadline <= now {
                        state.entries[ticket] = nil
                        state.expired.insert(ticket)
                        late.append(entry.cancel)
                    }
                    if state.entries.isEmpty { state.ticking = false }
                    ticking = state.ticking
                    return late
                }
                for cancel in late { cancel() }
            }
        }
    }
}
