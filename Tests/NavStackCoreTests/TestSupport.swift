import NavStackCore
import NavStackSQLite
import NavStackTime
import XCTest

/// Collects what an interpreter prints: both channels merged in order, as `2>&1` would.
final class RecordingSink: OutputSink {
    private(set) var merged = ""
    private(set) var output = ""
    private(set) var errors = ""

    func write(_ text: String, to channel: Channel) {
        merged += text
        switch channel {
        case .output: output += text
        case .error: errors += text
        }
    }
}

/// A router over a fresh in-memory store, signed in as `ana` unless told otherwise.
/// The clock of the tests' routers and stores: 2026-11-27T09:00:00Z in UTC.
let testClock = TaskClock(zone: .utc, fixedNow: Instant(iso8601: "2026-11-27T09:00:00Z"))

func makeRouter(signedIn: Bool = true, pageSize: Int = 20) throws -> Router {
    let store = try SQLiteStore(path: nil)
    store.clock = testClock
    var router = Router(
        store: store,
        configuration: .init(pageSize: pageSize, sampleForNewProfiles: true, clock: testClock))
    if signedIn { _ = try router.apply(.login("ana")) }
    return router
}

extension Router {
    /// Applies commands given as typed lines.
    @discardableResult
    mutating func run(_ lines: String...) throws -> Response {
        var last: Response = .quit
        for line in lines {
            last = try apply(XCTUnwrap(Command.parse(line)))
        }
        return last
    }

    /// The screen shown now.
    var shown: Screen { try! screen() }

    /// The error a line fails with, or `nil` when it succeeds.
    mutating func failure(_ line: String) -> NavError? {
        do {
            guard let command = try Command.parse(line) else { return nil }
            _ = try apply(command)
            return nil
        } catch {
            return error
        }
    }
}
