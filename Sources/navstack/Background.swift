#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work done on a thread of its own while the caller goes on: a sync reads, decodes and
/// opens the server's next answer while it applies the one before, and derives a new
/// account key while it stamps the store's changes. ``value()`` waits for the work's
/// value; the thread is joined then, or when the owner drops it, so none outlives its owner.
///
/// The work is handed to the thread whole: the caller must not touch what it captures
/// until ``value()`` returns (an exchange with the server, read there and nowhere else).
final class Background<Value> {
    /// Written by the thread before it ends, read by the owner only after `pthread_join`,
    /// which orders the two.
    private final class Slot: @unchecked Sendable {
        var value: Value?
    }

    private let slot = Slot()
    private var thread: pthread_t?

    init(_ work: @escaping () -> Value) {
        let slot = slot
        let body = ThreadBody { slot.value = work() }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(body).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        if started == 0 {
            self.thread = thread
        } else {
            // No thread to be had: the work is done here and now.
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            body.run()
        }
    }

    /// The work's value, once it is done.
    func value() -> Value {
        join()
        // The thread ran the work to its end (or it ran here).
        return slot.value!
    }

    private func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
    }

    deinit { join() }
}

/// What a thread of ``Background`` runs: not generic, so that its C entry point can name it.
private final class ThreadBody: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}
