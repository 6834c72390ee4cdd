import Glibc
import NavStackTime
import XCTest

/// The system's own tz code, asked through `date(1)` (GNU coreutils, over glibc) run as a
/// process with `TZ` set: what this module's answers are held to.
enum SystemDate {
    static let path = "/usr/bin/date"
    static let format = "+%Y-%m-%d %H:%M:%S %z"

    /// What `date` prints for each instant in `zone` (`2026-03-29 03:00:00 +0200`), one
    /// process for all of them (`date -f FILE`).
    static func local(_ instants: [Instant], tz: String) throws -> [String] {
        let lines = try run(tz: tz, inputLines: instants.map { "@\($0.secondsSinceEpoch)" }, arguments: [format])
        guard lines.count == instants.count else {
            throw Failure("date printed \(lines.count) lines for \(instants.count) instants in \(tz)")
        }
        return lines
    }

    /// The instant `date -d` reads from each text in `tz` (`2026-03-29 02:30:00 +0100`),
    /// or nil where it calls the text an invalid date (a wall time in a gap).
    static func instants(_ texts: [String], tz: String) throws -> [Instant?] {
        try run(tz: tz, inputLines: texts, arguments: ["+%s"], allowFailure: true).map {
            $0.hasPrefix("?") ? nil : Int64($0).map(Instant.init(secondsSinceEpoch:))
        }
    }

    /// Runs `date -f FILE ARGUMENTS` with `TZ=tz` and returns its lines; with
    /// `allowFailure`, each line `date` could not read comes back as `?` (it says so on
    /// its error stream and goes on, so the lines are matched one by one instead).
    private static func run(tz: String, inputLines: [String], arguments: [String], allowFailure: Bool = false) throws -> [String] {
        if allowFailure {
            // date skips unreadable lines on its output; run each alone to keep order.
            return try inputLines.map { line in
                let (status, output) = try spawn(tz: tz, arguments: ["-d", line] + arguments)
                return status == 0 ? output.split(separator: "\n").first.map(String.init) ?? "?" : "?"
            }
        }
        let file = try TemporaryFile(contents: inputLines.joined(separator: "\n") + "\n")
        defer { file.remove() }
        let (status, output) = try spawn(tz: tz, arguments: ["-f", file.path] + arguments)
        guard status == 0 else { throw Failure("date -f exited with \(status) in \(tz)") }
        return output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Runs `date` with `arguments` and `TZ` (and the C locale) as its whole environment;
    /// its exit status and standard output.
    static func spawn(tz: String, arguments: [String]) throws -> (Int32, String) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words: [String] = [path] + arguments
        let environment: [String] = ["TZ=\(tz)", "LC_ALL=C"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else { throw Failure("posix_spawn \(path) failed: \(spawned)") }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress!, $0.count) }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            output += buffer[..<got]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WEXITSTATUS, which Swift does not import.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }

    /// What glibc's `mktime` answers for a wall-clock time in `tz` with `tm_isdst = -1`,
    /// asked in this process (`TZ` is set for the call and put back after it).
    static func mktime(_ t: CivilDateTime, tz: String) -> Instant {
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", tz, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        var parts = tm()
        parts.tm_year = Int32(t.date.year - 1900)
        parts.tm_mon = Int32(t.date.month - 1)
        parts.tm_mday = Int32(t.date.day)
        parts.tm_hour = Int32(t.hour)
        parts.tm_min = Int32(t.minute)
        parts.tm_sec = Int32(t.second)
        parts.tm_isdst = -1
        return Instant(secondsSinceEpoch: Int64(Glibc.mktime(&parts)))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A file under /tmp that a test writes and removes.
struct TemporaryFile {
    let path: String

    init(contents: String) throws {
        var template = Array("/tmp/navstack-time-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SystemDate.Failure("mkstemp failed") }
        path = String(cString: template)
        try Self.write(Array(contents.utf8), to: descriptor)
    }

    init(bytes: [UInt8]) throws {
        var template = Array("/tmp/navstack-time-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SystemDate.Failure("mkstemp failed") }
        path = String(cString: template)
        try Self.write(bytes, to: descriptor)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) throws {
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let got = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            guard got > 0 else { throw SystemDate.Failure("write failed") }
            written += got
        }
    }

    func remove() {
        unlink(path)
    }
}

extension LocalTime {
    /// As `date +'%Y-%m-%d %H:%M:%S %z'` writes it: glibc writes `-0000` for the tz
    /// database's `-00`, its mark of a place with no local time (Antarctica/Troll before
    /// 2005).
    var systemDateText: String {
        let sign = utcOffset < 0 || abbreviation == "-00" ? "-" : "+"
        let minutes = abs(utcOffset) / 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(dateText) \(two(hour)):\(two(minute)):\(two(second)) \(sign)\(two(minutes / 60))\(two(minutes % 60))"
    }
}
