import Synchronization
import XCTest

@testable import NavStackServer

/// The one ticker that cancels database calls past their deadline.
final class DeadlinesTests: XCTestCase {
    private struct Failed: Error, Equatable {}

    /// Whether a piece of work saw its cancellation.
    private final class Seen: Sendable {
        private let cancelled = Mutex(false)
        var wasCancelled: Bool { cancelled.withLock { $0 } }
        func sawCancellation() { cancelled.withLock { $0 = true } }
    }

    /// Work that sleeps 2 s unless cancelled, then gives 1: uncancelled, it ends with a
    /// result.
    private static func sleeping(_ seen: Seen) -> @Sendable () async throws -> Int {
        {
            do {
                try await Task.sleep(for: .seconds(2))
            } catch {
                seen.sawCancellation()
                throw error
            }
            return 1
        }
    }

    func testWorkDoneInTimeGivesItsResultOrItsError() async throws {
        let deadlines = Deadlines(tick: .milliseconds(5))
        let value = try await deadlines.run(within: .seconds(60)) { 42 }
        XCTAssertEqual(value, 42)
        do {
            _ = try await deadlines.run(within: .seconds(60)) { () async throws -> Int in throw Failed() }
            XCTFail("the work's error was not thrown")
        } catch {
            XCTAssertEqual(error as? Failed, Failed())
        }
    }

    func testWorkPastItsDeadlineIsCancelledAndGivesNothing() async throws {
        let deadlines = Deadlines(tick: .milliseconds(5))
        let seen = Seen()
        let value = try await deadlines.run(within: .milliseconds(20), Self.sleeping(seen))
        XCTAssertNil(value)
        XCTAssertTrue(seen.wasCancelled)
        // Calls after it, in time, are not taken for late.
        let next = try await deadlines.run(within: .seconds(60)) { 7 }
        XCTAssertEqual(next, 7)
    }

    func testTheTickerStopsWithNoCallInFlightAndStartsAgainWithTheNext() async throws {
        let deadlines = Deadlines(tick: .milliseconds(5))
        let value = try await deadlines.run(within: .seconds(60)) { 1 }
        XCTAssertEqual(value, 1)
        // Stops at a tick after the call: waited for (up to 10 s), not timed.
        let stopped = ContinuousClock.now + .seconds(10)
        while deadlines.isTicking, ContinuousClock.now < stopped { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertFalse(deadlines.isTicking, "the ticker still runs with no call in flight")
        let seen = Seen()
        let late = try await deadlines.run(within: .milliseconds(20), Self.sleeping(seen))
        XCTAssertNil(late, "a late call after it stopped")
        XCTAssertTrue(seen.wasCancelled)
    }

    func testACancelledCallerCancelsItsWork() async throws {
        let deadlines = Deadlines(tick: .milliseconds(5))
        let seen = Seen()
        let work = Self.sleeping(seen)
        let caller = Task {
            try await deadlines.run(within: .seconds(3600), work)
        }
        caller.cancel()
        do {
            _ = try await caller.value
            XCTFail("the cancelled work gave a result")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertTrue(seen.wasCancelled)
    }
}
