import NavStackSyncClient
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// ``Background``: the work runs on a thread of its own, its value is the work's, and the
/// owner never outlives it.
final class BackgroundTests: XCTestCase {
    /// Written by the work's thread, read after the join.
    private final class Flag: @unchecked Sendable {
        var thread: pthread_t = 0
        var done = false
    }

    func testTheWorkRunsOnAnotherThreadAndItsValueIsReturned() {
        let flag = Flag()
        let work = Background { () -> Int in
            flag.thread = pthread_self()
            return (1...1000).reduce(0, +)
        }
        XCTAssertEqual(work.value(), 500_500)
        XCTAssertNotEqual(flag.thread, 0)
        XCTAssertEqual(pthread_equal(flag.thread, pthread_self()), 0, "the work ran on the caller's thread")
        // Asked again, the same value, without waiting for anything.
        XCTAssertEqual(work.value(), 500_500)
    }

    func testDroppedUnreadTheWorkIsFinishedBeforeTheOwnerGoesOn() {
        let flag = Flag()
        do {
            _ = Background { () -> Void in
                usleep(50_000)
                flag.done = true
            }
        }
        XCTAssertTrue(flag.done, "the owner went on before the work ended")
    }

    func testAFailureComesBackAsTheWorksResult() {
        struct Refused: Error, Equatable {}
        let work = Background { Result<Int, Refused> { () throws(Refused) in throw Refused() } }
        XCTAssertEqual(work.value(), .failure(Refused()))
    }
}
