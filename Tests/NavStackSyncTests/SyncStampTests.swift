import NavStackCore
import NavStackTime
import XCTest

@testable import NavStackSync

/// A task's stamps as operations carry them (format 3): read as strictly as other
/// values, each a register where the later stamp wins, in a created task and on their own.
final class SyncStampTests: XCTestCase {
    private let task = "01a2b3c4-0000-7000-8000-000000000001"
    private let replica = "0123456789abcdef0123456789abcdef"
    private let january = Instant(secondsSinceEpoch: 1_704_447_000)

    private func stamp(_ millis: Int) -> String { Stamp.text(millis: millis, counter: 0, replica: replica) }

    func testAStampOperationReadsBackAsWritten() throws {
        for change in [SyncChange.stamp(.created, january), .stamp(.modified, january), .stamp(.completed, nil)] {
            let (value, old) = change.json
            let operation = SyncOperation(seq: 1, millis: 1, counter: 0, task: task, field: change.field, value: value, old: old)
            XCTAssertEqual(SyncChange(operation), change)
        }
        XCTAssertEqual(SyncChange.stamp(.created, january).json.value, #""2024-01-05T09:30:00Z""#)
        XCTAssertEqual(SyncField(rawValue: "completed"), .completed)
    }

    /// What is not an instant is refused as every value the app would not take: every
    /// replica skips it, and the server refuses it in clear.
    func testAStampThatIsNotAnInstantIsRefused() {
        for value in ["3", #""2024-01-05""#, #""soon""#, "true", #"["2024-01-05T09:30:00Z"]"#] {
            let operation = SyncOperation(seq: 1, millis: 1, counter: 0, task: task, field: .modified, value: value)
            XCTAssertNil(SyncChange(operation), value)
            let request = SyncRequest(replica: replica, after: 0, operations: [operation])
            XCTAssertEqual(request.refusal(now: 1), .refusedValue(path: "ops[0]", field: .modified), value)
        }
        let good = SyncOperation(seq: 1, millis: 1, counter: 0, task: task, field: .modified, value: #""2024-01-05T09:30:00Z""#)
        XCTAssertNil(SyncRequest(replica: replica, after: 0, operations: [good]).refusal(now: 1), "the server takes it in clear")
    }

    func testACreatedTaskCarriesTheStampsItHas() throws {
        let created = SyncTask(
            fields: DraftFields(title: "Pay rent"), parent: nil, position: 0, stamps: TaskStamps(created: january, modified: january))
        XCTAssertTrue(created.json.hasSuffix(#","created":"2024-01-05T09:30:00Z","modified":"2024-01-05T09:30:00Z"}"#), created.json)
        XCTAssertFalse(created.json.contains("completed"), "only those set")
        XCTAssertEqual(SyncTask(try XCTUnwrap(JSONValue(parsing: created.json))), created)
        let bad = created.json.replacingOccurrences(of: #""created":"2024-01-05T09:30:00Z""#, with: #""created":5"#)
        XCTAssertNil(SyncTask(try XCTUnwrap(JSONValue(parsing: bad))), "a member that is not an instant")
    }

    /// A create sets the stamps it carries; a later stamp operation replaces one, an
    /// earlier one changes nothing, in whatever order they come.
    func testTheLaterStampWinsInEitherOrder() {
        let march = Instant(secondsSinceEpoch: 1_709_294_400)
        let operations: [(SyncChange, String)] = [
            (
                .create(
                    SyncTask(
                        fields: DraftFields(title: "Pay rent"), parent: nil, position: 0,
                        stamps: TaskStamps(created: january, modified: january))), stamp(10)
            ),
            (.stamp(.modified, march), stamp(20)),
            (.stamp(.modified, Instant(secondsSinceEpoch: 0)), stamp(15)),
            (.stamp(.completed, march), stamp(30)),
            (.stamp(.completed, nil), stamp(40)),
        ]
        var orders = [operations, operations.reversed()]
        orders.append([operations[3], operations[1], operations[4], operations[0], operations[2]])
        var results: [SyncRegister] = []
        for order in orders {
            var register = SyncRegister(uuid: task)
            for (change, at) in order { _ = register.apply(change, at: at, replica: replica) }
            results.append(register)
        }
        XCTAssertEqual(results[0].taskStamps, TaskStamps(created: january, modified: march, completed: nil))
        XCTAssertEqual(results[0].taskStampsAt, [stamp(10), stamp(20), stamp(40)])
        XCTAssertEqual(results[1], results[0])
        XCTAssertEqual(results[2], results[0])
    }

    /// A snapshot of version 1 (format 2) holds no stamps and is still read.
    func testASnapshotOfVersion1IsStillRead() throws {
        var register = SyncRegister(uuid: task)
        _ = register.apply(
            .create(SyncTask(fields: DraftFields(title: "Pay rent"), parent: nil, position: 0)), at: stamp(5), replica: replica)
        var content = SyncSnapshot.content(of: [register])
        XCTAssertEqual(content[0], 2)
        content[0] = 1
        XCTAssertEqual(try SyncSnapshot.registers(from: content), [register])
        // Stamps in a snapshot that says version 1 are not its.
        _ = register.apply(.stamp(.created, january), at: stamp(6), replica: replica)
        content = SyncSnapshot.content(of: [register])
        XCTAssertEqual(try SyncSnapshot.registers(from: content), [register])
        content[0] = 1
        XCTAssertThrowsError(try SyncSnapshot.registers(from: content))
    }
}
