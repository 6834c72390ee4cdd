#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SyncClock {
    /// This machine's wall clock in milliseconds since 1970: what a stamp's millis count,
    /// on a replica and on the server that bounds them.
    @Sendable public static func wallMillis() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
