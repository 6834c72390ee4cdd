#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Instant {
    /// The machine's wall clock now, in whole seconds.
    public static func current() -> Instant {
        Instant(secondsSinceEpoch: Int64(time(nil)))
    }
}
