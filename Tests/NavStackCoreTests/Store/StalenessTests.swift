import NavStackCore
import NavStackTime
import XCTest

/// The one rule the prompt and `watch` follow: a screen is read again when the store
/// moved, a sync pulled, or the local day changed.
final class StalenessTests: XCTestCase {
    private final class World: @unchecked Sendable {
        var version: Int? = 1
        var now = Instant(iso8601: "2026-12-06T22:59:00Z")!
    }

    func testTheStoreMovingASyncPullingAndMidnightEachMakeAScreenStale() throws {
        let world = World()
        let madrid = try Zone.posix("CET-1CEST,M3.5.0,M10.5.0/3")
        var staleness = Staleness(zone: madrid, now: { world.now }, version: { world.version })
        XCTAssertFalse(staleness.isStale())
        world.version = 2
        XCTAssertTrue(staleness.isStale())
        XCTAssertFalse(staleness.isStale(), "looking again starts from the last look")
        XCTAssertTrue(staleness.isStale(pulled: true))
        // 23:59 in Madrid, then 00:00: another day, with nothing written.
        world.now = Instant(iso8601: "2026-12-06T22:59:59Z")!
        XCTAssertFalse(staleness.isStale())
        world.now = Instant(iso8601: "2026-12-06T23:00:00Z")!
        XCTAssertTrue(staleness.isStale())
        XCTAssertFalse(staleness.isStale())
        // A store that cannot be read, then can: a change.
        world.version = nil
        XCTAssertTrue(staleness.isStale())
        XCTAssertFalse(staleness.isStale())
    }
}
