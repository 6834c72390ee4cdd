import Foundation
import XCTest

/// Two processes on one store, as two terminals would be: a long session A (JSON through
/// pipes) and one-shot commands B. No change either prints is lost without being shown.
extension StoreProcessTests {
    /// A's session on the edit screen of task 1, its title typed: `ana` on the sample tasks.
    private func editingTask1(title: String) throws -> Session {
        _ = try run(["--sample"], lines: ["login ana"])
        let session = Session(try startSession())
        session.send("open 1")
        session.send("edit")
        XCTAssertTrue(session.send("title \(title)").contains(#""dirty":true"#))
        return session
    }

    /// What the store holds of task 1: `title|notes|done|uuid`.
    private func task1() throws -> String {
        try sqlite("SELECT title || '|' || notes || '|' || done || '|' || uuid FROM task WHERE id = 1")
    }

    /// B: `back!` drops the draft A left in the shared navigation state (A's own copy is in
    /// its memory), then the commands.
    private func other(_ commands: String...) throws {
        let result = try run(["-c", "back!"] + commands.flatMap { ["-c", $0] })
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// The issue's first reproduction: B toggles while A edits the title; A's save writes
    /// only the title, so both changes are kept.
    func testASaveKeepsWhatAnotherProcessChangedInOtherFields() throws {
        let a = try editingTask1(title: "Buy fruit and milk")
        let uuid = try sqlite("SELECT uuid FROM task WHERE id = 1")
        try other("toggle")
        let saved = a.send("save")
        XCTAssertTrue(saved.contains(#""screen":"detail""#), saved)
        XCTAssertTrue(saved.contains(#""title":"Buy fruit and milk","notes":"Apples, bananas, grapes","done":true"#), saved)
        XCTAssertEqual(try task1(), "Buy fruit and milk|Apples, bananas, grapes|1|\(uuid)")
        XCTAssertEqual(
            try sqlite("SELECT kind || ':' || field FROM op ORDER BY seq"),
            "add:task\nadd:task\nadd:task\ntoggle:done\nsave:title", "the sample tasks, then B's toggle and A's title")
        XCTAssertEqual(try sqlite("SELECT rev FROM task WHERE id = 1"), "3")
        a.close()
    }

    /// The second: B saves another title while A edits it. A's save fails and changes
    /// nothing; A's edit screen shows the conflict; `save!` keeps A's title.
    func testTwoTitlesConflictAndSaveBangKeepsMine() throws {
        let a = try editingTask1(title: "Buy fruit and milk")
        try other("edit", "title Buy apples", "notes Green ones", "save")
        let refused = a.send("save")
        XCTAssertTrue(
            refused.hasPrefix(
                #"{"error":{"message":"'Buy apples' was changed elsewhere too (title): nothing was saved; save! keeps yours, theirs takes theirs""#
            ),
            refused)
        XCTAssertTrue(try task1().hasPrefix("Buy apples|Green ones|0|"), "nothing overwritten")
        let shown = a.send("done off")
        XCTAssertTrue(
            shown.contains(#""conflicts":[{"field":"title","base":"Buy fruit","mine":"Buy fruit and milk","theirs":"Buy apples"}]"#), shown)
        XCTAssertTrue(shown.contains(#""save!","theirs","cancel""#), shown)
        XCTAssertTrue(a.send("save!").contains(#""title":"Buy fruit and milk","notes":"Green ones","done":false"#))
        XCTAssertTrue(try task1().hasPrefix("Buy fruit and milk|Green ones|0|"), "B's notes merged, A's title kept")
        a.close()
    }

    /// `theirs` takes the stored title into the draft, keeps what only A changed, and the
    /// draft saves as usual.
    func testTheirsTakesTheirsIntoTheDraft() throws {
        let a = try editingTask1(title: "Buy fruit and milk")
        a.send("notes Ripe ones")
        try other("edit", "title Buy apples", "save")
        XCTAssertTrue(a.send("save").hasPrefix(#"{"error""#))
        let taken = a.send("theirs")
        XCTAssertTrue(
            taken.contains(#""draft":{"title":"Buy apples","notes":"Ripe ones","done":false,"#)
                && taken.contains(#""tags":[]},"canSave":true,"dirty":true,"conflicts":[]"#),
            taken)
        XCTAssertTrue(a.send("save").contains(#""screen":"detail""#))
        XCTAssertTrue(try task1().hasPrefix("Buy apples|Ripe ones|0|"))
        XCTAssertTrue(a.send("edit").contains(#""dirty":false"#))
        let nothingToTake = a.send("theirs")
        XCTAssertTrue(
            nothingToTake.hasPrefix(
                #"{"error":{"message":"'theirs' is not available on the edit screen; here: title, notes, done, due, scheduled, wait, until, recur, priority, project, tag, save, cancel"#
            ),
            nothingToTake)
        a.close()
    }

    /// Delete against edit: A's save fails and keeps the draft; `save!` brings the task
    /// back with its id, uuid and place.
    func testADraftOfATaskDeletedElsewhereIsKeptAndSaveBangRecreatesIt() throws {
        let a = try editingTask1(title: "Buy fruit and milk")
        let before = try task1()
        let place = try sqlite("SELECT position FROM task WHERE id = 1")
        try other("delete")
        XCTAssertEqual(try task1(), "")
        let refused = a.send("save")
        XCTAssertTrue(refused.contains(#"'Buy fruit' was deleted elsewhere: nothing was saved; save! re-creates it"#), refused)
        let kept = a.send("notes Still here")
        XCTAssertTrue(kept.contains(#""screen":"edit""#), kept)
        XCTAssertTrue(kept.contains(#""deleted":true"#), kept)
        XCTAssertTrue(kept.contains(#""save","save!","cancel""#), kept)
        XCTAssertTrue(a.send("save!").contains(#""screen":"detail""#))
        XCTAssertEqual(try task1(), "Buy fruit and milk|Still here|0|" + before.split(separator: "|").last!)
        XCTAssertEqual(try sqlite("SELECT position FROM task WHERE id = 1"), place)
        a.close()
    }

    /// A's undo reverts A's own change first; when a later change elsewhere set the same
    /// field, it is refused and nothing changes; a later change of another field stays.
    func testUndoNeverOverwritesALaterChangeElsewhere() throws {
        _ = try run(["--sample"], lines: ["login ana"])
        let a = Session(try startSession())
        a.send("toggle 1")  // A: done on
        XCTAssertEqual(try run(["-c", "toggle 1"]).status, 0)  // B: done off again
        let refused = a.send("undo")
        XCTAssertTrue(
            refused.hasPrefix(#"{"error":{"message":"cannot undo: 'Buy fruit' was changed since (done); nothing was changed""#), refused)
        XCTAssertTrue(try task1().hasPrefix("Buy fruit|Apples, bananas, grapes|0|"))

        a.send("toggle 2")  // A: done on
        XCTAssertEqual(try run(["-c", "open 2", "-c", "edit", "-c", "title Study Swift", "-c", "save", "-c", "root"]).status, 0)
        XCTAssertTrue(a.send("undo").contains(#""screen":"list""#), "A's toggle is undone")
        XCTAssertEqual(try sqlite("SELECT title || '|' || done FROM task WHERE id = 2"), "Study Swift|0", "B's title stays")
        a.close()
    }
}

/// A navstack session through pipes: one JSON line out for each line in.
final class Session {
    private let process: Process
    private let input: Pipe
    private let reader: LineReader

    init(_ started: (process: Process, input: Pipe, reader: LineReader)) {
        (process, input, reader) = started
    }

    /// Sends one command and reads its answer.
    @discardableResult
    func send(_ line: String) -> String {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return reader.line()
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

extension StoreProcessTests {
    /// Eight processes launched at once on a store that does not exist yet: one creates
    /// it, the others open it as it is being made; none fails.
    func testProcessesLaunchedTogetherOnANewStoreAllOpenIt() throws {
        for round in 0..<5 {
            try? FileManager.default.removeItem(atPath: store)
            let group = DispatchGroup()
            let results = Results()
            let arguments = ["--store", store, "--sample", "-c", "help"]
            for _ in 0..<8 {
                DispatchQueue.global().async(group: group) {
                    let result = try? NavstackProcess.run(arguments)
                    results.append(result?.status ?? -1, result?.stderr ?? "did not run")
                }
            }
            group.wait()
            XCTAssertEqual(results.statuses, Array(repeating: 0, count: 8), "round \(round): \(results.errors)")
        }
    }
}
