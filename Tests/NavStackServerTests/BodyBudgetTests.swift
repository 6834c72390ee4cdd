import XCTest

@testable import NavStackServer

/// What the bodies of the syncs under way may hold: the whole budget, and a quarter of it
/// for one account.
final class BodyBudgetTests: XCTestCase {
    func testAnAccountTakesAQuarterAndTheOthersTheRest() {
        let budget = BodyBudget(bytes: 100)
        XCTAssertEqual(budget.perAccount, 25)
        XCTAssertTrue(budget.take(20, for: 1))
        XCTAssertFalse(budget.take(6, for: 1), "past the account's quarter")
        XCTAssertTrue(budget.take(5, for: 1))
        for account in Int64(2)...4 { XCTAssertTrue(budget.take(25, for: account)) }
        XCTAssertEqual(budget.inFlight, 100)
        XCTAssertFalse(budget.take(1, for: 5), "past the whole budget")
        XCTAssertTrue(budget.take(0, for: 5), "an empty body takes nothing")
        budget.give(20, for: 1)
        XCTAssertTrue(budget.take(1, for: 5))
        XCTAssertFalse(budget.take(-1, for: 6), "a negative length takes nothing, and gives nothing")
        XCTAssertEqual(budget.inFlight, 81)
    }

    func testWhatIsGivenBackCanBeTakenAgain() {
        let budget = BodyBudget(bytes: 40)
        for _ in 0..<1000 {
            XCTAssertTrue(budget.take(10, for: 7))
            budget.give(10, for: 7)
        }
        XCTAssertEqual(budget.inFlight, 0)
        XCTAssertTrue(budget.take(10, for: 7))
    }
}
