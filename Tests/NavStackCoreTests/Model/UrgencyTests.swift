import NavStackCore
import NavStackTime
import XCTest

/// Each term of Taskwarrior 2.6's urgency, its sum, and which tasks block which, at fixed
/// instants.
final class UrgencyTests: XCTestCase {
    private let now = Instant(iso8601: "2026-12-08T09:00:00Z")!

    private func at(_ text: String) -> Instant { Instant(iso8601: text)! }

    private func days(_ days: Double) -> Instant { now.adding(seconds: Int64(days * 86_400)) }

    private func task(
        _ fields: DraftFields = DraftFields(title: "x"), uuid: String = "11111111-1111-4111-8111-111111111111",
        created: Instant? = nil
    ) -> TaskItem {
        TaskItem(id: 1, uuid: uuid, fields: fields, stamps: TaskStamps(created: created ?? now))
    }

    private func terms(_ fields: DraftFields, created: Instant? = nil, blocking: Bool = false, blocked: Bool = false) -> Urgency.Terms {
        Urgency.terms(of: task(fields, created: created), now: now, blocking: blocking, blocked: blocked)
    }

    func testAnnotationsAndTagsCountAsPointEightPointNineAndOne() {
        XCTAssertEqual((0...5).map(Urgency.countTerm), [0, 0.8, 0.9, 1, 1, 1])
        let notes = (0..<4).map { Annotation(entry: now, text: "n\($0)") }
        XCTAssertEqual((0...4).map { terms(DraftFields(annotations: Array(notes.prefix($0)))).annotations }, [0, 0.8, 0.9, 1, 1])
        XCTAssertEqual((0...4).map { terms(DraftFields(tags: (0..<$0).map { "t\($0)" })).tags }, [0, 0.8, 0.9, 1, 1])
    }

    func testTagsKeptAsACustomFieldCountAsTags() {
        let fields = DraftFields(tags: ["home"], custom: [CustomField(name: "tags", value: "Home,next")])
        let terms = terms(fields)
        XCTAssertEqual(terms.tags, 1, "three tags")
        XCTAssertEqual(terms.next, 15, "`next` among them")
    }

    func testTheNextTagAddsFifteenOnlyInLowerCase() {
        XCTAssertEqual(terms(DraftFields(tags: ["next"])).next, 15)
        XCTAssertEqual(terms(DraftFields(tags: ["Next"])).next, 0)
        XCTAssertEqual(terms(DraftFields(tags: ["nextweek"])).next, 0)
        XCTAssertEqual(Urgency.of(task(DraftFields(tags: ["next"])), now: now, blocking: false, blocked: false), 15.8, accuracy: 1e-5)
    }

    func testDueRisesFromPointTwoTwoWeeksAheadToOneAWeekOverdue() {
        XCTAssertEqual(Urgency.dueTerm(days(100), now: now), 0.2)
        XCTAssertEqual(Urgency.dueTerm(days(14.5), now: now), 0.2)
        XCTAssertEqual(Urgency.dueTerm(days(14), now: now), 0.2, accuracy: 1e-6)
        XCTAssertEqual(Urgency.dueTerm(days(0), now: now), 0.2 + 14 * 0.8 / 21, accuracy: 1e-6)
        XCTAssertEqual(Urgency.dueTerm(days(-3.5), now: now), 0.2 + 17.5 * 0.8 / 21, accuracy: 1e-6)
        XCTAssertEqual(Urgency.dueTerm(days(-7), now: now), 1)
        XCTAssertEqual(Urgency.dueTerm(days(-400), now: now), 1)
        XCTAssertEqual(Urgency.dueTerm(days(-6.999), now: now), 0.99996, accuracy: 1e-5)
        XCTAssertEqual(terms(DraftFields()).due, 0, "no due date")
        XCTAssertEqual(terms(DraftFields(due: days(1))).due, Urgency.dueTerm(days(1), now: now))
    }

    func testAgeCountsWholeDaysOverAYearAndStopsAtOne() {
        XCTAssertEqual(Urgency.ageTerm(now, now: now), 0)
        XCTAssertEqual(Urgency.ageTerm(days(-0.99), now: now), 0, "not yet a whole day")
        XCTAssertEqual(Urgency.ageTerm(days(-73), now: now), 0.2, accuracy: 1e-7)
        XCTAssertEqual(Urgency.ageTerm(days(-73.9), now: now), 0.2, accuracy: 1e-7)
        XCTAssertEqual(Urgency.ageTerm(days(-365), now: now), 1)
        XCTAssertEqual(Urgency.ageTerm(days(-366), now: now), 1)
        XCTAssertEqual(Urgency.ageTerm(days(-5000), now: now), 1)
        XCTAssertEqual(Urgency.ageTerm(days(2.5), now: now), Float(-2.0 / 365), accuracy: 1e-7, "made later than now")
        XCTAssertEqual(terms(DraftFields(), created: days(-146)).age, 0.4, accuracy: 1e-7)
    }

    func testProjectActiveAndScheduled() {
        XCTAssertEqual(terms(DraftFields(project: "home")).project, 1)
        XCTAssertEqual(terms(DraftFields(custom: [CustomField(name: "project", value: "a b")])).project, 1)
        XCTAssertEqual(terms(DraftFields()).project, 0)
        XCTAssertEqual(terms(DraftFields(custom: [CustomField(name: "start", value: "20261201T090000Z")])).active, 1)
        XCTAssertEqual(terms(DraftFields(custom: [CustomField(name: "started", value: "x")])).active, 0)
        XCTAssertEqual(terms(DraftFields(scheduled: days(-0.0001))).scheduled, 1)
        XCTAssertEqual(terms(DraftFields(scheduled: now)).scheduled, 0, "scheduled now is not yet before now")
        XCTAssertEqual(terms(DraftFields(scheduled: days(3))).scheduled, 0)
    }

    func testWaitingIsAnOpenTaskWhoseWaitIsAhead() {
        XCTAssertEqual(terms(DraftFields(wait: days(1))).waiting, 1)
        XCTAssertEqual(terms(DraftFields(wait: now)).waiting, 0)
        XCTAssertEqual(terms(DraftFields(wait: days(-1))).waiting, 0)
        XCTAssertEqual(terms(DraftFields(done: true, wait: days(1))).waiting, 0, "a done task never waits")
    }

    func testPriorityAddsItsCoefficient() {
        XCTAssertEqual(terms(DraftFields(priority: .high)).priority, 6)
        XCTAssertEqual(terms(DraftFields(priority: .medium)).priority, 3.9)
        XCTAssertEqual(terms(DraftFields(priority: .low)).priority, 1.8)
        XCTAssertEqual(terms(DraftFields()).priority, 0)
    }

    func testBlockingAndBlockedAreAsGiven() {
        XCTAssertEqual(terms(DraftFields(), blocking: true).blocking, 1)
        XCTAssertEqual(terms(DraftFields(), blocked: true).blocked, 1)
        XCTAssertEqual(Urgency.of(task(), now: now, blocking: true, blocked: false), 8)
        XCTAssertEqual(Urgency.of(task(), now: now, blocking: false, blocked: true), -5)
        XCTAssertEqual(Urgency.of(task(), now: now, blocking: false, blocked: false), 0)
    }

    /// Three tasks whose urgency Taskwarrior 2.6.2 printed in `task export` at
    /// 2026-12-08 09:00 UTC: 40.8313, -5.1 and 28.1726.
    func testTheSumIsTaskwarriorsForTasksItScored() {
        let started = task(
            DraftFields(
                due: at("2026-12-10T12:00:00Z"), priority: .medium, project: "home", tags: ["next", "x"],
                custom: [CustomField(name: "start", value: "20261205T090000Z")]),
            created: at("2026-11-01T09:00:00Z"))
        XCTAssertEqual(Urgency.of(started, now: now, blocking: true, blocked: false), 40.8313, accuracy: 0.00005)
        let notes = [Annotation(entry: at("2026-11-01T09:00:00Z"), text: "x"), Annotation(entry: at("2026-11-01T09:00:00Z"), text: "y")]
        let waiting = task(DraftFields(wait: at("2026-12-20T00:00:00Z"), annotations: notes), created: at("2024-11-01T09:00:00Z"))
        XCTAssertEqual(Urgency.of(waiting, now: now, blocking: false, blocked: true), -5.1, accuracy: 0.00005)
        let done = task(DraftFields(done: true, due: at("2026-11-01T00:00:00Z"), tags: ["next"]), created: at("2026-10-01T09:00:00Z"))
        XCTAssertEqual(Urgency.of(done, now: now, blocking: false, blocked: false), 28.1726, accuracy: 0.00005)
    }

    func testTheTermsAddUpWithTheirCoefficients() {
        var terms = Urgency.Terms()
        terms.project = 1
        terms.active = 1
        terms.scheduled = 1
        terms.waiting = 1
        terms.blocked = 1
        terms.annotations = 0.9
        terms.tags = 0.8
        terms.due = 0.5
        terms.blocking = 1
        terms.age = 0.25
        terms.priority = 6
        terms.next = 15
        let flags: Double = 1 + 4 + 5 - 3 - 5 + 8
        let scaled: Double = 0.9 + 0.8 + 0.5 * 12 + 0.25 * 2
        XCTAssertEqual(terms.value, flags + scaled + 6 + 15, accuracy: 1e-5)
    }

    func testLinksBlockAnOpenTaskOnAnOpenTaskOnly() {
        func item(_ n: Int, done: Bool = false, depends: [String] = []) -> TaskItem {
            task(DraftFields(done: done, depends: depends), uuid: "0000000\(n)-0000-4000-8000-000000000000")
        }
        let uuid = { (n: Int) in "0000000\(n)-0000-4000-8000-000000000000" }
        let tasks = [
            item(1, depends: [uuid(2).uppercased(), uuid(3), "99999999-0000-4000-8000-000000000000"]),
            item(2),
            item(3, done: true),
            item(4, done: true, depends: [uuid(5)]),
            item(5),
            item(6, depends: [uuid(3)]),
        ]
        let links = Urgency.links(among: tasks)
        XCTAssertEqual(links.blocked, [uuid(1)], "1 waits on 2; 6 only on a done task; 4 is done")
        XCTAssertEqual(links.blocking, [uuid(2)], "3 is done; 5 holds up only a done task")
    }
}
