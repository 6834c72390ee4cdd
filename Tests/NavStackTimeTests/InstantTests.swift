import NavStackTime
import TestSeeds
import XCTest

/// Instants as text both ways, and `NAVSTACK_NOW`.
final class InstantTests: XCTestCase {
    private func instant(_ text: String) -> Int64? {
        Instant(iso8601: text)?.secondsSinceEpoch
    }

    func testTheFormsProgramsWrite() {
        XCTAssertEqual(instant("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(instant("2026-11-27T09:00:00Z"), 1_795_770_000)
        XCTAssertEqual(instant("2026-12-01T00:00:00Z"), 1_796_083_200)
        XCTAssertEqual(instant("2026-12-01t00:00:00z"), 1_796_083_200)
        XCTAssertEqual(instant("20261201T000000Z"), 1_796_083_200)
        XCTAssertEqual(instant("2026-11-27T09:00:00.999Z"), 1_795_770_000, "fractions are dropped")
        XCTAssertEqual(instant("2026-11-27T09:00:00,5Z"), 1_795_770_000)
        XCTAssertEqual(instant("2026-11-27T10:00:00+01:00"), 1_795_770_000)
        XCTAssertEqual(instant("2026-11-27T05:30:00-0330"), 1_795_770_000)
        XCTAssertEqual(instant("2026-11-27T14:00:00+05"), 1_795_770_000)
        XCTAssertEqual(instant("2026-11-27T09:00:00.25-00:00"), 1_795_770_000)
        XCTAssertEqual(instant("1969-12-31T23:59:59Z"), -1)
        XCTAssertEqual(instant("2024-02-29T12:00:00Z"), 1_709_208_000)
        XCTAssertEqual(instant("0000-01-01T00:00:00Z"), -62_167_219_200)
        XCTAssertEqual(instant("9999-12-31T23:59:59Z"), 253_402_300_799)
    }

    func testBadTextIsRefusedWithItsReason() {
        for text in [
            "", "2026-11-27", "2026-11-27T09:00:00", "2026-11-27T09:00Z", "2026-11-27 09:00:00Z", "2026-11-27T09:00:00ZZ",
            "2026-11-27T09:00:00.Z", "2026-11-27T09:00:00+1", "2026-11-27T09:00:00+01:0", "26-11-27T09:00:00Z",
            "20261127T0900Z", "20261127T090000", "2026-11-27T09:00:00Z ", " 2026-11-27T09:00:00Z", "２０２６-11-27T09:00:00Z",
            "now",
        ] {
            XCTAssertThrowsError(try Instant.parse(iso8601: text), text) { error in
                XCTAssertEqual(error as? DateError, .notAnInstant(text), text)
            }
            XCTAssertNil(Instant(iso8601: text), text)
        }
        for text in [
            "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-11-31T00:00:00Z",
            "2026-11-27T24:00:00Z", "2026-11-27T09:60:00Z", "2026-11-27T09:00:60Z", "2026-11-27T09:00:00+24:00",
            "2026-11-27T09:00:00+01:60", "20260230T000000Z",
        ] {
            XCTAssertThrowsError(try Instant.parse(iso8601: text), text) { error in
                XCTAssertEqual(error as? DateError, .instantOutOfRange(text), text)
            }
        }
        XCTAssertEqual(
            DateError.notAnInstant("x").description,
            "'x' is not an ISO 8601 instant: use 2026-11-27T09:00:00Z, an offset such as +01:00, or 20261127T090000Z"
        )
    }

    func testWritingAndReadingBackAgree() {
        let seed = TestSeed.seed(7)
        var generator = SplitMix64(state: seed)
        for _ in 0..<20_000 {
            let instant = Instant(secondsSinceEpoch: Int64(generator.int(in: -62_167_219_200...253_402_300_799)))
            XCTAssertEqual(Instant(iso8601: instant.iso8601), instant, "\(instant.iso8601); \(TestSeed.named(seed))")
            XCTAssertEqual(Instant(iso8601: instant.compactISO8601), instant, "\(instant.compactISO8601); \(TestSeed.named(seed))")
        }
        let instant = Instant(secondsSinceEpoch: 1_796_083_200)
        XCTAssertEqual(instant.iso8601, "2026-12-01T00:00:00Z")
        XCTAssertEqual(instant.compactISO8601, "20261201T000000Z")
        XCTAssertEqual(Instant(secondsSinceEpoch: -1).iso8601, "1969-12-31T23:59:59Z")
        // The ends of four-digit years, and the years beyond them, written with the digits they need.
        XCTAssertEqual(Instant(secondsSinceEpoch: -62_167_219_200).iso8601, "0000-01-01T00:00:00Z")
        XCTAssertEqual(Instant(secondsSinceEpoch: 253_402_300_799).iso8601, "9999-12-31T23:59:59Z")
        XCTAssertEqual(Instant(secondsSinceEpoch: 253_402_300_800).iso8601, "10000-01-01T00:00:00Z")
        XCTAssertEqual(Instant(secondsSinceEpoch: -62_167_219_201).iso8601, "-0001-12-31T23:59:59Z")
        XCTAssertEqual(CivilDate(year: 7, month: 3, day: 9)?.isoText, "0007-03-09")
    }

    func testExtremeInstantsNeitherTrapNorWrap() {
        XCTAssertEqual(Instant(secondsSinceEpoch: .max).adding(seconds: 1).secondsSinceEpoch, .max)
        XCTAssertEqual(Instant(secondsSinceEpoch: .min).adding(seconds: -1).secondsSinceEpoch, .min)
        for seconds in [Int64.max, .min, .max - 1, .min + 1] {
            let instant = Instant(secondsSinceEpoch: seconds)
            _ = instant.iso8601
            _ = instant.compactISO8601
            for zone in [Zone.utc, try! Zone.named("Europe/Madrid"), try! Zone.posix("NZST-12NZDT,M9.5.0,M4.1.0/3")] {
                _ = zone.local(instant)
                _ = zone.screenText(instant)
                _ = zone.adding(1, .months, to: instant)
                _ = zone.end(of: .year, containing: instant)
                _ = zone.instant(zone.local(instant).dateTime)
            }
        }
    }

    func testFixedNow() throws {
        XCTAssertNil(try Instant.fixedNow(environmentValue: nil))
        XCTAssertNil(try Instant.fixedNow(environmentValue: ""))
        XCTAssertEqual(try Instant.fixedNow(environmentValue: "2026-11-27T09:00:00Z"), Instant(secondsSinceEpoch: 1_795_770_000))
        XCTAssertEqual(try Instant.fixedNow(environmentValue: "20261127T100000+0100"), Instant(secondsSinceEpoch: 1_795_770_000))
        XCTAssertThrowsError(try Instant.fixedNow(environmentValue: "tomorrow")) { error in
            XCTAssertEqual(error as? DateError, .badFixedNow("tomorrow", .notAnInstant("tomorrow")))
            XCTAssertEqual(
                "\(error)", "NAVSTACK_NOW='tomorrow' is not an instant: use an ISO 8601 instant such as 2026-11-27T09:00:00Z"
            )
        }
        XCTAssertThrowsError(try Instant.fixedNow(environmentValue: "2026-11-27T25:00:00Z"))
    }
}
