import NavStackTime
import TestSeeds
import XCTest

/// Each zone's local times held to the system's own tz code (`date`, over glibc) at every
/// six hours of 2018–2030 and 2037–2044, a second around each change, and random instants
/// up to 2200; and wall-clock times turned back into instants, through gaps and overlaps,
/// held to `date -d` and to glibc's `mktime`.
final class ZoneAgainstSystemTests: XCTestCase {
    /// Zone files and TZ strings: São Paulo (its 2018-11-04 change at midnight, no DST since
    /// 2019), Madrid, Auckland (southern), New York, Kolkata (+05:30, no DST), Lord Howe
    /// (a 30-minute change), UTC, and TZ strings that name no file.
    static let zones = [
        "America/Sao_Paulo", "Europe/Madrid", "Pacific/Auckland", "America/New_York", "Asia/Kolkata",
        "Australia/Lord_Howe", "UTC", "EST5EDT,M3.2.0,M11.1.0", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
        "NZST-12NZDT,M9.5.0,M4.1.0/3",
    ]

    private static let seeds = TestSeed.seeds([1])

    private func zone(_ tz: String) throws -> Zone {
        try Zone.resolve(tz: tz)
    }

    private static func seconds(_ year: Int, _ month: Int = 1, _ day: Int = 1) -> Int64 {
        Int64(CivilDate(year: year, month: month, day: day)!.daysSinceEpoch) * 86_400
    }

    /// The instants a zone is checked at: every six hours (every day with `sparse`),
    /// around each change, and random ones drawn from `seed`.
    private func instants(_ zone: Zone, seed: UInt64, sparse: Bool = false) -> [Instant] {
        var result: [Int64] = []
        for range in [(Self.seconds(2018), Self.seconds(2031)), (Self.seconds(2037), Self.seconds(2045))] {
            result += stride(from: range.0, to: range.1, by: sparse ? 86_400 + 3600 : 6 * 3600)
        }
        for change in Self.changes(zone, from: 2018, to: 2041) {
            result += [-86_400, -3601, -1800, -1, 0, 1, 1800, 3599, 86_400].map { change + $0 }
        }
        // São Paulo's last change to daylight saving time: 2018-11-04 00:00 -03 became 01:00 -02.
        let saoPaulo = Self.seconds(2018, 11, 4) + 3 * 3600
        result += [saoPaulo - 1, saoPaulo, saoPaulo + 1]
        var generator = SplitMix64(state: seed)
        for _ in 0..<(sparse ? 100 : 500) {
            result.append(Int64(generator.int(in: Int(Self.seconds(2018))...Int(Self.seconds(2200)))))
        }
        return result.map(Instant.init(secondsSinceEpoch:))
    }

    /// The instants at which the zone's offset changes in the years given, found as the
    /// hours across which it differs, then the second by halving.
    private static func changes(_ zone: Zone, from first: Int, to last: Int) -> [Int64] {
        var result: [Int64] = []
        func offset(_ t: Int64) -> Int { zone.utcOffset(at: Instant(secondsSinceEpoch: t)) }
        for hour in stride(from: seconds(first), to: seconds(last + 1), by: 3600) where offset(hour) != offset(hour + 3600) {
            var (low, high) = (hour, hour + 3600)
            while high - low > 1 {
                let middle = (low + high) / 2
                if offset(middle) == offset(hour) { low = middle } else { high = middle }
            }
            result.append(high)
        }
        return result
    }

    func testLocalTimeIsTheSystems() throws {
        for seed in Self.seeds {
            for tz in Self.zones {
                let zone = try zone(tz)
                let instants = instants(zone, seed: seed)
                let expected = try SystemDate.local(instants, tz: tz)
                var failures = 0
                for (instant, expected) in zip(instants, expected) where zone.local(instant).systemDateText != expected {
                    failures += 1
                    if failures <= 5 {
                        XCTFail(
                            "\(tz) at \(instant.iso8601): \(zone.local(instant).systemDateText), date says \(expected); \(TestSeed.named(seed))"
                        )
                    }
                }
                XCTAssertEqual(failures, 0, "\(tz): \(failures) of \(instants.count) instants differ")
            }
        }
    }

    /// Every zone of the database (zone1970.tab names them), at random instants of
    /// 1975–2150 and a second either side of each of its changes in 2024–2027: its file,
    /// its footer's rule and all, read as glibc reads it; and the middle of each gap of
    /// those years moved forward, as glibc's `mktime` moves it out of a gap into daylight
    /// saving time (see ``Zone/instant(_:)`` for the gaps where glibc differs).
    func testEveryZoneOfTheDatabase() throws {
        let table = try String(decoding: ZoneLoadingTests.bytes("/usr/share/zoneinfo/zone1970.tab"), as: UTF8.self)
        let names = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: "\t")[2]) }
        XCTAssertGreaterThan(names.count, 300)
        let seed = TestSeed.seed(11)
        var generator = SplitMix64(state: seed)
        for name in names {
            let zone = try Zone.named(name)
            var instants = (0..<40).map { _ in Int64(generator.int(in: Int(Self.seconds(1975))...Int(Self.seconds(2150)))) }
            for change in Self.changes(zone, from: 2024, to: 2027) {
                instants += [change - 1, change]
                // A wall time in a gap moves forward by the gap: as glibc's mktime moves it
                // wherever the gap leads from standard into daylight saving time.
                let before = zone.local(Instant(secondsSinceEpoch: change - 1))
                let after = zone.local(Instant(secondsSinceEpoch: change))
                if after.utcOffset > before.utcOffset {
                    let civil = Self.civil(change + Int64(before.utcOffset) + Int64(after.utcOffset - before.utcOffset) / 2)
                    let instant = zone.instant(civil)
                    XCTAssertEqual(instant.secondsSinceEpoch, Self.wall(civil) - Int64(before.utcOffset), "\(name) \(Self.text(civil))")
                    if after.isDaylightSaving, !before.isDaylightSaving {
                        XCTAssertEqual(instant, SystemDate.mktime(civil, tz: name), "\(name) \(Self.text(civil)): as mktime")
                    }
                }
            }
            let checked = instants.map(Instant.init(secondsSinceEpoch:))
            let expected = try SystemDate.local(checked, tz: name)
            for (instant, expected) in zip(checked, expected) where zone.local(instant).systemDateText != expected {
                XCTFail(
                    "\(name) at \(instant.iso8601): \(zone.local(instant).systemDateText), date says \(expected); \(TestSeed.named(seed))")
            }
        }
    }

    func testSaoPaulosMidnightChange() throws {
        let zone = try Zone.named("America/Sao_Paulo")
        let before = zone.local(Instant(iso8601: "2018-11-04T02:59:59Z")!)
        let after = zone.local(Instant(iso8601: "2018-11-04T03:00:00Z")!)
        XCTAssertEqual(before.systemDateText, "2018-11-03 23:59:59 -0300")
        XCTAssertEqual(after.systemDateText, "2018-11-04 01:00:00 -0200")
        XCTAssertEqual(zone.local(Instant(iso8601: "2040-01-01T12:00:00Z")!).systemDateText, "2040-01-01 09:00:00 -0300")
    }

    /// Every local time shown turns back into the instant it came from, unless the wall
    /// clock showed it twice: then into the earlier of the two.
    func testLocalTimesTurnBack() throws {
        for tz in Self.zones {
            let zone = try zone(tz)
            for instant in instants(zone, seed: 1, sparse: true) {
                let local = zone.local(instant)
                let back = zone.instant(local.dateTime)
                XCTAssertEqual(zone.local(back).dateTime, local.dateTime, "\(tz) \(instant.iso8601)")
                if back != instant {
                    XCTAssertLessThan(back, instant, "\(tz) \(instant.iso8601)")
                    XCTAssertLessThanOrEqual(instant.secondsSinceEpoch - back.secondsSinceEpoch, 7200, "\(tz) \(instant.iso8601)")
                }
            }
        }
    }

    /// Wall-clock times on and around each change of 2018–2030 (and 2038–2040, past the
    /// files' transitions): in a gap, `date -d` refuses the time and glibc's `mktime` moves
    /// it forward by the gap, as `instant` does; in an overlap both offsets read back to
    /// the time and `instant` takes the earlier; elsewhere `instant` is what `date -d` reads.
    func testWallTimesAsTheSystemReadsThem() throws {
        var gaps = 0
        var overlaps = 0
        for tz in Self.zones {
            let zone = try zone(tz)
            var texts: [String] = []
            var cases: [(CivilDateTime, before: Int, after: Int)] = []
            for year in [2018, 2019, 2024, 2026, 2030, 2038, 2040] {
                for change in Self.changes(zone, from: year, to: year) {
                    let before = zone.utcOffset(at: Instant(secondsSinceEpoch: change - 1))
                    let after = zone.utcOffset(at: Instant(secondsSinceEpoch: change))
                    // Wall times just before, in and after the gap or overlap.
                    let lower = change + Int64(min(before, after))
                    let upper = change + Int64(max(before, after))
                    for wall in [lower - 1, lower, lower + 60, (lower + upper) / 2, upper - 1, upper, upper + 1800] {
                        let civil = Self.civil(wall)
                        cases.append((civil, before, after))
                        texts.append(Self.text(civil))
                    }
                }
            }
            let read = try SystemDate.instants(texts, tz: tz)
            for ((civil, before, after), read) in zip(cases, read) {
                let ours = zone.instant(civil)
                let text = Self.text(civil)
                let readBefore = Instant(secondsSinceEpoch: Self.wall(civil) - Int64(before))
                let readAfter = Instant(secondsSinceEpoch: Self.wall(civil) - Int64(after))
                let beforeFits = zone.local(readBefore).dateTime == civil
                let afterFits = zone.local(readAfter).dateTime == civil
                switch (beforeFits, afterFits) {
                case (false, false):
                    gaps += 1
                    XCTAssertNil(read, "\(tz) \(text): date reads a time in a gap")
                    XCTAssertEqual(ours, readBefore, "\(tz) \(text): a gap is crossed with the offset before it")
                    XCTAssertEqual(ours, SystemDate.mktime(civil, tz: tz), "\(tz) \(text): as mktime")
                case (true, true) where before != after:
                    overlaps += 1
                    XCTAssertEqual(ours, min(readBefore, readAfter), "\(tz) \(text): the earlier of an overlap")
                    XCTAssertNotNil(read, "\(tz) \(text)")
                    if let read { XCTAssertTrue(read == readBefore || read == readAfter, "\(tz) \(text)") }
                default:
                    XCTAssertEqual(ours, read, "\(tz) \(text)")
                }
            }
        }
        XCTAssertGreaterThan(gaps, 50)
        XCTAssertGreaterThan(overlaps, 50)
    }

    private static func civil(_ wall: Int64) -> CivilDateTime {
        let days = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
        let rest = Int(wall - days * 86_400)
        return CivilDateTime(date: CivilDate(daysSinceEpoch: days), hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)!
    }

    private static func wall(_ civil: CivilDateTime) -> Int64 {
        civil.date.daysSinceEpoch * 86_400 + Int64(civil.hour * 3600 + civil.minute * 60 + civil.second)
    }

    private static func text(_ civil: CivilDateTime) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(civil.date.year)-\(two(civil.date.month))-\(two(civil.date.day)) \(two(civil.hour)):\(two(civil.minute)):\(two(civil.second))"
    }
}
