#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The seeds a property test runs, and the words its failures name them with.
///
/// A test runs its own fixed seeds, so that every run draws the same inputs; the
/// environment variable `NAVSTACK_TEST_SEED` replaces them with one seed, to run a
/// failure again alone (`NAVSTACK_TEST_SEED=17 swift test --filter NAME`), or with a new
/// one drawn for the run (`NAVSTACK_TEST_SEED=random`, named in every failure).
public enum TestSeed {
    /// The environment variable that chooses the seed.
    public static let variable = "NAVSTACK_TEST_SEED"

    /// The seed the environment chooses: its number, one drawn once for the whole run
    /// for `random`, `nil` when the variable is not set. Anything else stops the run, so
    /// that a mistyped seed never runs the fixed ones instead.
    public static let chosen: UInt64? = {
        guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        if value == "random" { return UInt64.random(in: 0...UInt64(UInt32.max)) }
        guard let seed = UInt64(value) else { fatalError("\(variable)=\(value): a seed is a whole number from 0, or 'random'") }
        return seed
    }()

    /// The seeds to run: the environment's one when it chooses one, else `fixed`.
    public static func seeds(_ fixed: some Sequence<UInt64>) -> [UInt64] {
        chosen.map { [$0] } ?? Array(fixed)
    }

    /// The seed to run when a test draws from one: the environment's, else `fixed`.
    public static func seed(_ fixed: UInt64) -> UInt64 {
        chosen ?? fixed
    }

    /// How a failure names its seed: `seed 17 (NAVSTACK_TEST_SEED=17 runs it again)`.
    public static func named(_ seed: UInt64) -> String {
        "seed \(seed) (\(variable)=\(seed) runs it again)"
    }
}
