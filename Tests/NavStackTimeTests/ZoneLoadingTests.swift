import Glibc
import NavStackTime
import XCTest

/// Zones by name, from `TZ` as the C library reads it, from TZ strings, and the files
/// that are refused: every refusal a value, never a crash.
final class ZoneLoadingTests: XCTestCase {
    private let madridJuly = Instant(iso8601: "2026-07-01T12:00:00Z")!

    /// The whole file at `path`.
    static func bytes(_ path: String) throws -> [UInt8] {
        let file = fopen(path, "rb")!
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = fread(&buffer, 1, buffer.count, file)
            if got == 0 { break }
            result += buffer[..<got]
        }
        return result
    }

    func testNamedZones() throws {
        let madrid = try Zone.named("Europe/Madrid")
        XCTAssertEqual(madrid.name, "Europe/Madrid")
        XCTAssertEqual(madrid.utcOffset(at: madridJuly), 7200)
        XCTAssertEqual(madrid.local(madridJuly).abbreviation, "CEST")
        XCTAssertTrue(madrid.local(madridJuly).isDaylightSaving)
        let absolute = try Zone.named("/usr/share/zoneinfo/Europe/Madrid")
        XCTAssertEqual(absolute.name, "Europe/Madrid")
        XCTAssertEqual(absolute, madrid)
        XCTAssertEqual(try Zone.named("Asia/Kolkata").utcOffset(at: madridJuly), 19_800)
    }

    func testNamesThatReachOutsideAreRefusedBeforeAnyFileIsOpened() {
        for name in [
            "../../../etc/passwd", "Europe/../../etc/passwd", "..", "/etc/passwd", "/etc/localtime",
            "/usr/share/zoneinfo/../../../etc/passwd", "/usr/share/zoneinfo/", "", "Europe/Madrid\u{0}x",
        ] {
            XCTAssertThrowsError(try Zone.named(name), name) { error in
                XCTAssertEqual(error as? ZoneError, .unsafeName(name), name)
            }
        }
        XCTAssertThrowsError(try Zone.named("Mars/Olympus_Mons")) { error in
            XCTAssertEqual(error as? ZoneError, .notFound("/usr/share/zoneinfo/Mars/Olympus_Mons"))
        }
        XCTAssertThrowsError(try Zone.named("Europe")) { error in
            XCTAssertEqual(error as? ZoneError, .notARegularFile("/usr/share/zoneinfo/Europe"))
        }
        XCTAssertThrowsError(try Zone.named("zone.tab")) { error in
            XCTAssertEqual(error as? ZoneError, .malformed("/usr/share/zoneinfo/zone.tab", .notTZif))
        }
    }

    /// `TZ` read as glibc reads it.
    func testTZAsTheCLibraryReadsIt() throws {
        let localtime = try TemporaryFile(bytes: Self.bytes("/usr/share/zoneinfo/Pacific/Auckland"))
        defer { localtime.remove() }
        func offset(_ tz: String?, localtimePath: String = localtime.path) -> Int {
            Zone.local(tz: tz, localtimePath: localtimePath).utcOffset(at: madridJuly)
        }
        XCTAssertEqual(offset(nil), 12 * 3600, "unset: the localtime file")
        XCTAssertEqual(offset(nil, localtimePath: "/nonexistent/localtime"), 0, "unset, no localtime file: UTC")
        XCTAssertEqual(try Zone.resolve(tz: nil, localtimePath: "/nonexistent/localtime"), .utc)
        XCTAssertEqual(offset(""), 0, "empty: UTC")
        XCTAssertEqual(offset(":"), 0)
        XCTAssertEqual(offset("Europe/Madrid"), 7200)
        XCTAssertEqual(offset(":Europe/Madrid"), 7200)
        XCTAssertEqual(offset(":/usr/share/zoneinfo/Europe/Madrid"), 7200)
        XCTAssertEqual(offset(localtime.path), 12 * 3600, "an absolute path anywhere, as libc reads it")
        XCTAssertEqual(offset("UTC0"), 0)
        XCTAssertEqual(offset("CET-1CEST,M3.5.0,M10.5.0/3"), 7200)
        XCTAssertEqual(offset("<-03>3"), -3 * 3600)
        XCTAssertEqual(offset("IST-5:30"), 19_800)
        XCTAssertEqual(Zone.local(tz: "Europe/Madrid").name, "Europe/Madrid")
        XCTAssertEqual(Zone.local(tz: "EST5EDT,M3.2.0,M11.1.0").name, "EST5EDT,M3.2.0,M11.1.0")
        // The system's own /etc/localtime is named by where its link points.
        if ZoneLinkProbe.isLink("/etc/localtime") {
            XCTAssertFalse(Zone.local(tz: nil).name.hasPrefix("/"), Zone.local(tz: nil).name)
        }
    }

    func testWhatCannotBeHadIsUTCAndSaysWhy() throws {
        for tz in ["Mars/Olympus_Mons", "../etc/passwd", "Europe", "1234", "/nonexistent", "/etc/passwd", "zone.tab"] {
            XCTAssertEqual(Zone.local(tz: tz), .utc, tz)
            XCTAssertThrowsError(try Zone.resolve(tz: tz), tz)
        }
        XCTAssertThrowsError(try Zone.resolve(tz: "Mars/Olympus_Mons")) { error in
            XCTAssertEqual(error as? ZoneError, .unknown("Mars/Olympus_Mons"))
            XCTAssertEqual(
                "\(error)",
                "'Mars/Olympus_Mons' is neither a time zone of the tz database nor a TZ string such as EST5EDT,M3.2.0,M11.1.0"
            )
        }
        XCTAssertThrowsError(try Zone.resolve(tz: "/etc/passwd")) { error in
            XCTAssertEqual(error as? ZoneError, .malformed("/etc/passwd", .notTZif))
        }
        let localtime = try TemporaryFile(contents: "not a zone")
        defer { localtime.remove() }
        XCTAssertEqual(Zone.local(tz: nil, localtimePath: localtime.path), .utc)
        XCTAssertThrowsError(try Zone.resolve(tz: nil, localtimePath: localtime.path)) { error in
            XCTAssertEqual(error as? ZoneError, .malformed(localtime.path, .notTZif))
        }
    }

    func testAFIFOIsNotRead() throws {
        let path = "/tmp/navstack-time-fifo-\(getpid())"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        defer { unlink(path) }
        XCTAssertThrowsError(try Zone.resolve(tz: path)) { error in
            XCTAssertEqual(error as? ZoneError, .notARegularFile(path))
        }
    }

    func testAFileTooLargeIsNotRead() throws {
        var bytes = try Self.bytes("/usr/share/zoneinfo/Europe/Madrid")
        bytes += [UInt8](repeating: 0, count: (1 << 20) + 1 - bytes.count)
        let file = try TemporaryFile(bytes: bytes)
        defer { file.remove() }
        XCTAssertThrowsError(try Zone.resolve(tz: file.path)) { error in
            XCTAssertEqual(error as? ZoneError, .tooLarge(file.path, limit: 1 << 20))
        }
    }

    /// Every prefix of a real file, every byte of its header flipped, and counts set
    /// past the file's end: each refused (or, where it still reads as a zone, read),
    /// never a trap.
    func testDamagedFilesAreRefused() throws {
        let good = try Self.bytes("/usr/share/zoneinfo/America/Sao_Paulo")
        XCTAssertNoThrow(try Zone(tzif: good, name: "x"))
        for length in 0..<good.count {
            XCTAssertThrowsError(try Zone(tzif: Array(good[..<length]), name: "x"), "\(length) bytes")
        }
        for index in 0..<44 {
            var damaged = good
            damaged[index] ^= 0xFF
            _ = try? Zone(tzif: damaged, name: "x")
        }
        // The second header's counts, each made huge.
        let second = try secondHeaderOffset(good)
        for field in 0..<6 {
            var damaged = good
            for byte in 0..<4 { damaged[second + 20 + field * 4 + byte] = 0x7F }
            XCTAssertThrowsError(try Zone(tzif: damaged, name: "x"), "count \(field)") { error in
                XCTAssertEqual(error as? ZoneError, .malformed("x", .truncated))
            }
        }
        var badVersion = good
        badVersion[4] = UInt8(ascii: "9")
        XCTAssertThrowsError(try Zone(tzif: badVersion, name: "x")) { error in
            XCTAssertEqual(error as? ZoneError, .malformed("x", .unknownVersion(UInt8(ascii: "9"))))
        }
        var badFooter = good
        let footerStart = good.lastIndex(of: UInt8(ascii: "\n"), before: good.count - 1)
        badFooter.replaceSubrange((footerStart + 1)..<(good.count - 1), with: Array("<-03".utf8))
        XCTAssertThrowsError(try Zone(tzif: badFooter, name: "x")) { error in
            XCTAssertEqual(error as? ZoneError, .malformed("x", .badFooter("<-03")))
        }
    }

    /// A version 1 file (the first block alone) is read: its 32-bit transitions answer
    /// up to 2037, the last type after.
    func testVersionOneFiles() throws {
        let good = try Self.bytes("/usr/share/zoneinfo/Europe/Madrid")
        var first = Array(good[..<(try secondHeaderOffset(good))])
        first[4] = 0
        let zone = try Zone(tzif: first, name: "v1")
        XCTAssertEqual(zone.utcOffset(at: madridJuly), 7200)
        XCTAssertEqual(zone.utcOffset(at: Instant(iso8601: "2026-01-01T12:00:00Z")!), 3600)
    }

    /// TZ strings' forms: quoted names, minutes, default daylight offset, the three kinds
    /// of rule day, times past 24 hours and negative ones, and what is refused.
    func testTZStrings() throws {
        func offsets(_ tz: String, _ instants: [String]) throws -> [Int] {
            let zone = try Zone.posix(tz)
            return instants.map { zone.utcOffset(at: Instant(iso8601: $0)!) }
        }
        XCTAssertEqual(try offsets("EST5EDT", ["2026-01-15T12:00:00Z", "2026-07-01T12:00:00Z"]), [-18_000, -14_400])
        XCTAssertEqual(try offsets("XYZ3ABC", ["2026-03-08T04:59:59Z", "2026-03-08T05:00:00Z"]), [-10_800, -7200])
        XCTAssertEqual(
            try offsets("XYZ3ABC", ["2026-03-08T05:00:00Z", "2030-11-03T03:59:59Z", "2030-11-03T04:00:00Z"]),
            try offsets("XYZ3ABC,M3.2.0,M11.1.0", ["2026-03-08T05:00:00Z", "2030-11-03T03:59:59Z", "2030-11-03T04:00:00Z"]),
            "a daylight time without rules takes M3.2.0,M11.1.0"
        )
        // J60 is 1 March in every year; 59 (zero-based) is 29 February in a leap year, 1 March in others.
        XCTAssertEqual(try offsets("AAA0BBB,J60/0,J300", ["2024-02-29T23:59:59Z", "2024-03-01T00:00:00Z"]), [0, 3600])
        XCTAssertEqual(try offsets("AAA0BBB,59/0,300", ["2024-02-28T23:59:59Z", "2024-02-29T00:00:00Z"]), [0, 3600])
        XCTAssertEqual(try offsets("AAA0BBB,59/0,300", ["2025-02-28T23:59:59Z", "2025-03-01T00:00:00Z"]), [0, 3600])
        // Daylight saving time all year (RFC 9636's example), and rule times past 24 hours.
        XCTAssertEqual(
            try offsets("EST5EDT,0/0,J365/25", ["2026-01-01T05:00:00Z", "2026-07-01T00:00:00Z", "2026-12-31T23:00:00Z"]),
            [-14_400, -14_400, -14_400])
        // M3.5.0/-2: 22:00 (-03) on the Saturday before the last Sunday of March.
        XCTAssertEqual(
            try offsets("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", ["2026-03-29T00:59:59Z", "2026-03-29T01:00:00Z"]), [-10_800, -7200])
        XCTAssertEqual(try offsets("<+0545>-5:45", ["2026-07-01T00:00:00Z"]), [20_700])
        for bad in [
            "", "E", "EST", "EST5EDT,", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0",
            "EST5EDT,J0,J365", "EST5EDT,366,0", "EST25", "<AB>5", "<EST5", "EST5EDT,M3.2.0/168,M11.1.0", "EST5:60",
        ] {
            XCTAssertThrowsError(try Zone.posix(bad), bad) { error in
                XCTAssertEqual(error as? ZoneError, .badRule(bad), bad)
            }
        }
    }

    private func secondHeaderOffset(_ bytes: [UInt8]) throws -> Int {
        func count(_ field: Int) -> Int {
            (0..<4).reduce(0) { $0 << 8 | Int(bytes[20 + field * 4 + $1]) }
        }
        let (isUT, isStd, leap, time, type, char) = (count(0), count(1), count(2), count(3), count(4), count(5))
        return 44 + time * 5 + type * 6 + char + leap * 8 + isStd + isUT
    }
}

private enum ZoneLinkProbe {
    static func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }
}

extension Array where Element == UInt8 {
    fileprivate func lastIndex(of byte: UInt8, before end: Int) -> Int {
        self[..<end].lastIndex(of: byte)!
    }
}
