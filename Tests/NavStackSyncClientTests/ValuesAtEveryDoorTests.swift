import NavStackCore
import NavStackSync
import NavStackTime
import XCTest

@testable import NavStackSQLite

/// The same hostile values through every door: the prompt, `import`, `import --from
/// taskwarrior`, `import --from todotxt`, the sync decoder of a replica and the server's
/// check. Each door takes them all alike or refuses them all alike (``FieldRules``).
final class ValuesAtEveryDoorTests: XCTestCase {
    /// A value of a task: a title, or a plain title with as many annotations.
    enum Value {
        case title(String)
        case annotations(Int)
    }

    /// Each value and whether every door takes it.
    static let values: [(name: String, value: Value, taken: Bool)] = [
        ("a zero-width space", .title("Pay\u{200B}rent"), true),
        ("a right-to-left override", .title("Review \u{202E}etar"), true),
        ("a control character", .title("Ring\u{7}bell"), false),
        ("1,000 characters", .title(String(repeating: "x", count: 1000)), true),
        ("1,001 characters", .title(String(repeating: "x", count: 1001)), false),
        ("1,500 characters", .title(String(repeating: "é", count: 1500)), false),
        ("200 annotations", .annotations(200), true),
        ("201 annotations", .annotations(201), false),
    ]

    static let uuid = "7e160343-d492-49b6-8ab5-ec32f89ee792"
    static let entry = Instant(secondsSinceEpoch: 1_764_000_000)

    static func fields(_ value: Value) -> DraftFields {
        switch value {
        case .title(let title): DraftFields(title: title)
        case .annotations(let count):
            DraftFields(title: "Plain", annotations: (0..<count).map { Annotation(entry: entry, text: "note \($0)") })
        }
    }

    // MARK: - The doors: whether each takes a value

    func prompt(_ value: Value) throws -> Bool {
        let store = try SQLiteStore(path: nil)
        var shell = Interpreter(router: Router(store: store, configuration: .init(sampleForNewProfiles: false)), options: .init())
        let sink = Sink()
        XCTAssertEqual(shell.handle("login ana", to: sink), .succeeded)
        switch value {
        case .title(let title):
            return shell.handle(Array(("add " + title).utf8), to: sink) == .succeeded
        case .annotations(let count):
            var fields = Self.fields(value)
            fields.annotations.removeLast()
            _ = try store.insertAtTop("ana", fields, under: nil, as: .add)
            XCTAssertEqual(shell.handle("open 1", to: sink), .succeeded)
            return shell.handle("annotate note \(count - 1)", to: sink) == .succeeded
        }
    }

    func navstackImport(_ value: Value) -> Bool {
        let fields = Self.fields(value)
        let record = #"{"title":\#(fields.title.jsonQuoted),"annotations":\#(FieldValue.annotations(fields.annotations).json)}"#
        return (try? SQLiteStore.parseImport(Array(("[" + record + "]").utf8))) != nil
    }

    func taskwarriorImport(_ value: Value) -> Bool {
        let fields = Self.fields(value)
        let annotations = fields.annotations.map { #"{"entry":"20251124T000000Z","description":"\#($0.text)"}"# }
        let record =
            #"{"uuid":"\#(Self.uuid)","description":\#(fields.title.jsonQuoted),"annotations":[\#(annotations.joined(separator: ","))]}"#
        return (try? TaskwarriorReader.read(Array(("[" + record + "]").utf8), source: "test")) != nil
    }

    func todoTxtImport(_ value: Value) -> Bool {
        let fields = Self.fields(value)
        let annotations = fields.annotations.map { " ann:20251124T000000Z:" + $0.text.replacingOccurrences(of: " ", with: "_") }
        return (try? TodoTxtReader.read(Array((fields.title + annotations.joined()).utf8), source: "test", zone: .utc)) != nil
    }

    /// What a replica sends of a task made with the value: its create, then its fields.
    static func operations(_ value: Value) -> [SyncOperation] {
        let fields = Self.fields(value)
        let create = #"{"title":\#(fields.title.jsonQuoted),"notes":"","done":false,"position":1,"parent":null}"#
        return [
            SyncOperation(
                replica: String(repeating: "a", count: 32), seq: 1, millis: 1, counter: 0, task: uuid, field: .task, value: create),
            SyncOperation(
                replica: String(repeating: "a", count: 32), seq: 2, millis: 1, counter: 1, task: uuid, field: .annotations,
                value: FieldValue.annotations(fields.annotations).json),
        ]
    }

    func syncDecoder(_ value: Value) -> Bool {
        Self.operations(value).allSatisfy { SyncChange($0) != nil }
    }

    func serverCheck(_ value: Value) -> Bool {
        SyncRequest(replica: String(repeating: "a", count: 32), after: 0, operations: Self.operations(value)).refusal(now: 1) == nil
    }

    func testEveryDoorTakesOrRefusesAValueAlike() throws {
        for (name, value, taken) in Self.values {
            XCTAssertEqual(try prompt(value), taken, "the prompt, \(name)")
            XCTAssertEqual(navstackImport(value), taken, "import, \(name)")
            XCTAssertEqual(taskwarriorImport(value), taken, "import --from taskwarrior, \(name)")
            XCTAssertEqual(todoTxtImport(value), taken, "import --from todotxt, \(name)")
            XCTAssertEqual(syncDecoder(value), taken, "the sync decoder, \(name)")
            XCTAssertEqual(serverCheck(value), taken, "the server's check, \(name)")
        }
    }
}

/// Output thrown away: the doors' answers are their outcomes.
private final class Sink: OutputSink, @unchecked Sendable {
    func write(_ text: String, to channel: Channel) {}
    func write(to channel: Channel, _ fill: (inout [UInt8]) -> Void) {}
}
