import Glibc

/// The moment a request must be finished by, on the monotonic clock (which a change of
/// the wall clock does not move), and the time it was given, for the message.
struct Deadline {
    let budget: Duration
    /// Nanoseconds on CLOCK_MONOTONIC.
    let end: Int64

    init(_ budget: Duration) {
        self.budget = budget
        let (seconds, attoseconds) = budget.components
        // Clamped to about 136 years, so that the sum cannot overflow.
        let nanoseconds = max(0, min(seconds, 1 << 32) * 1_000_000_000 + attoseconds / 1_000_000_000)
        end = Self.now() + nanoseconds
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The milliseconds left, rounded up so a wait reaches the end; 0 once it has passed.
    var remainingMilliseconds: Int32 {
        let left = end - Self.now()
        guard left > 0 else { return 0 }
        return Int32(clamping: (left + 999_999) / 1_000_000)
    }

    /// The end as a `timespec` on CLOCK_MONOTONIC, for `pthread_cond_timedwait`.
    var endTime: timespec {
        timespec(tv_sec: Int(end / 1_000_000_000), tv_nsec: Int(end % 1_000_000_000))
    }

    /// The error for a request that ran out of time.
    var timedOut: HTTPError { .timedOut(budget) }
}
