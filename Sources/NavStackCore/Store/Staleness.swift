import NavStackTime

/// When the screen shown may no longer be true: the store moved (another connection
/// committed), a sync pulled, or the local day changed (an agenda's sections and a list's
/// waiting tasks move at midnight). The prompt, while it waits, and `navstack watch` ask
/// it alike; only then is the screen read again.
public struct Staleness {
    /// What the store's version was when last looked at (SQLite's `data_version`), `nil`
    /// when it could not be read.
    private var version: Int?
    /// The local day when last looked at.
    private var day: CivilDate
    private let readVersion: () -> Int?
    private let today: () -> CivilDate

    /// Looks at the store's version (`nil` when it cannot be read) and the day of `clock` now.
    public init(clock: TaskClock, version: @escaping () -> Int?) {
        self.init(zone: clock.zone, now: clock.now, version: version)
    }

    /// The same, with the instant now from `now` (a test's clock that moves).
    public init(zone: Zone, now: @escaping () -> Instant, version: @escaping () -> Int?) {
        readVersion = version
        today = { zone.local(now()).date }
        self.version = version()
        day = today()
    }

    /// Whether the screen may have changed since the last look (or since this was made):
    /// the store's version moved, `pulled` (a sync by this connection, which moves no
    /// version), or the local day is another. Looking again starts from now.
    public mutating func isStale(pulled: Bool = false) -> Bool {
        let (seen, now) = (readVersion(), today())
        defer { (version, day) = (seen, now) }
        return pulled || seen != version || now != day
    }
}
