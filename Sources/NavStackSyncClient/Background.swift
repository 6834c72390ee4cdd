import Synchronization

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
/// The work is `@Sendable`: what it captures the compiler checks, and its value reaches
/// the owner through a lock.
public final class Background<Value: Sendable> {
    private let slot = Slot<Value>()
    private var thread: pthread_t?

    public init(_ work: @escaping @Sendable () -> Value) {
        let slot = slot
        let body = ThreadBody { slot.value.withLock { $0 = work() } }
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
    public func value() -> Value {
        join()
        // The thread ran the work to its end (or it ran here).
        return slot.value.withLock { $0! }
    }

    private func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
    }

    deinit { join() }
}

/// Where the thread leaves the work's value for its owner.
private final class Slot<Value: Sendable>: Sendable {
    let value = Mutex<Value?>(nil)
}

/// What a thread of ``Background`` runs: not generic, so that its C entry point can name it.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
