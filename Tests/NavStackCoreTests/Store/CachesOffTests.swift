import Foundation
import NavStackCore
import NavStackSQLite
import TestSeeds
import XCTest

/// Every cache and memo on a command's path (the store's reads and profile ids, the
/// printed screens, the laid-out actions) may only save work: seeded walks print the same
/// bytes with all of them on and all of them off, in memory and in a store file that
/// holds its write lock through a burst, in text and in JSON.
///
/// The walks type texts that Swift's `==` takes as equal but that are other bytes
/// (`Cafe\u{301}`, `Caf\u{e9}`). A failing walk names its seed (``forEachSeed(_:_:)``).
final class CachesOffTests: XCTestCase {
    private static let decomposed = "Cafe\u{301}"
    private static let composed = "Caf\u{e9}"

    /// Lines a walk picks from: good and bad, on every screen.
    private static let lines = [
        "open 1", "open 2", "open 3", "open 4", "back", "back 2", "root", "back!", "edit", "title Walked",
        "title \(decomposed)", "title \(composed)", "notes \(decomposed)", "notes \(composed)", "notes", "done on",
        "done off", "save", "save!", "theirs", "cancel", "toggle", "toggle 1", "toggle 2", "toggle 3", "delete 1",
        "delete", "yes", "no", "add \(decomposed)", "add \(composed)", "add Walked", "add", "new", "next", "prev",
        "page 2", "filter all", "filter open", "filter done", "find caf", "find \(composed)", "find", "move 1 to 2",
        "move 2 to top", "move 1 to 3", "go tasks/1", "go tasks/2/edit", "go tasks/new", "go tasks?filter=done",
        "undo", "undo", "redo", "where", "help", "tab account", "tab tasks", "settings", "logout", "login ana",
        "login bo",
        // The agenda, in the order of its dates, and series whose instances come and go.
        "tab agenda", "tab agenda", "add Pay rent due:today recur:monthly", "add Water due:tomorrow recur:daily",
        "add Call due:+2d", "add Walk scheduled:today", "add Plan due:yesterday recur:weekly", "due tomorrow",
        "due +3d", "due none", "scheduled today", "recur daily", "recur none", "day 2026-11-28", "go agenda/2026-11-27",
        "go agenda",
        // Texts beyond the title and notes, in both forms: annotations, and a project and
        // tags in Hangul, precomposed and as jamo (both are letters, so both are taken).
        "annotate \(decomposed)", "annotate \(composed)", "project \(hangul)", "project \(jamo)", "project none",
        "tag +\(hangul)", "tag +\(jamo)", "tag none",
    ]
    private static let hangul = "\u{D55C}"
    private static let jamo = "\u{1112}\u{1161}\u{11AB}"

    private struct Session {
        let store: SQLiteStore
        var interpreter: Interpreter
        let sink = BytesSink()
        let deferring: Bool

        init(store: SQLiteStore, caching: Bool, format: Interpreter.Format, deferring: Bool) {
            store.uuids = .fixed
            store.cachesReads = caching
            store.defersCommits = deferring
            store.clock = testClock
            self.store = store
            self.deferring = deferring
            var options = Interpreter.Options(format: format, width: 40)
            options.memoizes = caching
            interpreter = Interpreter(
                router: Router(
                    store: store,
                    configuration: .init(pageSize: 2, sampleForNewProfiles: true, storeDescription: "a store", clock: testClock)),
                options: options)
        }

        /// What `line` prints, both streams in order; committed first, as navstack does.
        mutating func printed(_ line: String) throws -> String {
            sink.take()
            interpreter.handle(line, to: sink)
            if deferring { try store.commitPending() }
            return sink.take()
        }
    }

    /// Walks the same lines through a session with every cache and one with none; the
    /// first line whose bytes differ fails the walk.
    private func compare(seed: UInt64, steps: Int, _ make: (Bool) throws -> Session) throws {
        var rng = SplitMix64(state: seed)
        var cached = try make(true)
        var plain = try make(false)
        defer {
            cached.store.close()
            plain.store.close()
        }
        for step in 0..<steps {
            let line = step == 0 ? "login ana" : Self.lines.randomElement(using: &rng)!
            let (one, other) = (try cached.printed(line), try plain.printed(line))
            guard Array(one.utf8) == Array(other.utf8) else {
                return XCTFail(
                    "step \(step), \(line.debugDescription): with caches\n" + one.debugDescription + "\nwithout\n"
                        + other.debugDescription)
            }
        }
    }

    /// Walks `lines` through a session with every cache and one with none.
    private func compare(_ lines: [String], _ make: (Bool) throws -> Session) throws {
        var cached = try make(true)
        var plain = try make(false)
        defer {
            cached.store.close()
            plain.store.close()
        }
        for (step, line) in lines.enumerated() {
            let (one, other) = (try cached.printed(line), try plain.printed(line))
            XCTAssertEqual(Array(one.utf8), Array(other.utf8), "step \(step), \(line.debugDescription)")
        }
    }

    /// A title typed as `e` and U+0301, then saved as U+00E9: the list shows the bytes
    /// stored, not the ones it printed before for the "same" screen.
    func testATitleRetypedInAnotherUnicodeFormIsPrintedAsStored() throws {
        let lines = [
            "login ana", "add \(Self.decomposed)", "root", "open 1", "edit", "title X", "save", "edit",
            "title \(Self.composed)", "save", "root",
        ]
        try assertLastScreenHolds(Self.composed, not: Self.decomposed, after: lines)
    }

    /// A draft's project and tags typed again in the other form: the draft shows them.
    func testADraftsProjectAndTagsRetypedInAnotherUnicodeFormArePrintedAsTyped() throws {
        try assertLastScreenHolds(
            Self.jamo, not: Self.hangul, after: ["login ana", "open 1", "edit", "project \(Self.hangul)", "project \(Self.jamo)"])
        try assertLastScreenHolds(
            Self.jamo, not: Self.hangul, after: ["login ana", "open 1", "edit", "tag +\(Self.hangul)", "tag none", "tag +\(Self.jamo)"])
    }

    /// Runs `lines` with caches on and off (the same bytes), and checks the last screen
    /// holds `expected`'s bytes and not `unexpected`'s.
    private func assertLastScreenHolds(_ expected: String, not unexpected: String, after lines: [String]) throws {
        for format in [Interpreter.Format.text, .json] {
            try compare(lines) { caching in
                Session(store: try SQLiteStore(path: nil), caching: caching, format: format, deferring: false)
            }
            var session = Session(store: try SQLiteStore(path: nil), caching: true, format: format, deferring: false)
            var last = ""
            for line in lines { last = try session.printed(line) }
            // Compared as bytes: String's `contains` is canonical too. (JSON writes them
            // as UTF-8, unescaped, as text does.)
            XCTAssertTrue(Self.bytes(of: last, contain: expected), "\(format): \(last.debugDescription)")
            XCTAssertFalse(Self.bytes(of: last, contain: unexpected), "\(format): \(last.debugDescription)")
        }
    }

    private static func bytes(of text: String, contain part: String) -> Bool {
        let (text, part) = (Array(text.utf8), Array(part.utf8))
        guard text.count >= part.count else { return false }
        return (0...(text.count - part.count)).contains { text[$0..<$0 + part.count].elementsEqual(part) }
    }

    func testAWalkInMemoryPrintsTheSameBytesWithAndWithoutCaches() throws {
        forEachSeed(1...12) { seed in
            let format: Interpreter.Format = seed % 3 == 0 ? .json : .text
            try compare(seed: seed, steps: 600) { caching in
                Session(store: try SQLiteStore(path: nil), caching: caching, format: format, deferring: false)
            }
        }
    }

    func testAWalkOnAStoreFilePrintsTheSameBytesWithAndWithoutCaches() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-caches-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        forEachSeed(1...4) { seed in
            let format: Interpreter.Format = seed % 2 == 0 ? .json : .text
            try compare(seed: seed, steps: 300) { caching in
                let path = folder.appendingPathComponent("\(seed)-\(caching).sqlite").path
                return Session(store: try SQLiteStore(path: path), caching: caching, format: format, deferring: true)
            }
        }
    }
}

/// Collects what an interpreter prints, both channels merged in order.
private final class BytesSink: OutputSink {
    private var text = ""

    func write(_ text: String, to channel: Channel) {
        self.text += text
    }

    @discardableResult
    func take() -> String {
        defer { text = "" }
        return text
    }
}
