import Foundation
import XCTest

/// `navstack watch`: the built binary, watched while other processes add, edit and delete.
final class WatchTests: XCTestCase {
    private var folder: URL!
    private var store: String { folder.appendingPathComponent("navstack.sqlite").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try commands(["login ana", "add Buy milk", "back", "add Pay rent due:2026-11-28", "back", "open 1"])
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Another navstack process: these commands on the store, as `-c` options.
    @discardableResult
    private func commands(_ lines: [String], user: String? = nil) throws -> NavstackProcess.Result {
        try NavstackProcess.run(["--store", store] + lines.flatMap { ["-c", $0] })
    }

    /// A running `navstack watch`, its stdin a pipe kept open, its lines collected.
    private final class Watcher: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private let output = Pipe()
        private let lock = NSLock()
        private var received = Data()

        init(_ arguments: [String]) throws {
            process.executableURL = NavstackProcess.binary
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["NAVSTACK_NOW"] = "2026-11-27T09:00:00Z"
            environment["TZ"] = "UTC"
            environment["LANG"] = "C.UTF-8"
            environment["LC_ALL"] = nil
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else { return }
                self.lock.lock()
                self.received.append(data)
                self.lock.unlock()
            }
            try process.run()
        }

        /// The lines printed so far.
        var lines: [String] {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// Waits (at most five seconds) until `count` lines were printed; the lines.
        func waitFor(lines count: Int) -> [String] {
            let deadline = Date().addingTimeInterval(5)
            while lines.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return lines
        }

        /// Waits (at most five seconds) for the process to end; its status.
        func end() -> Int32? {
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return process.isRunning ? nil : process.terminationStatus
        }
    }

    private func json(_ line: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
    }

    private func titles(_ line: String) throws -> [String] {
        let items = try XCTUnwrap(try json(line)["items"] as? [[String: Any]], line)
        return items.map { $0["title"] as! String }
    }

    func testAListIsPrintedAgainForEachChangeToWhatItShowsAndNotForOthers() throws {
        let watcher = try Watcher(["watch", "--store", store, "--format", "json", "navstack://tasks"])
        defer { watcher.process.terminate() }
        XCTAssertEqual(try titles(XCTUnwrap(watcher.waitFor(lines: 1).first)), ["Pay rent", "Buy milk"])

        try commands(["tab tasks", "root", "add Call Bob"])
        var lines = watcher.waitFor(lines: 2)
        XCTAssertEqual(try titles(XCTUnwrap(lines.last)), ["Call Bob", "Pay rent", "Buy milk"])
        try commands(["tab tasks", "root", "open 2", "edit", "title Pay the rent", "save"])
        lines = watcher.waitFor(lines: 3)
        XCTAssertEqual(try titles(XCTUnwrap(lines.last)), ["Call Bob", "Pay the rent", "Buy milk"])
        try commands(["tab tasks", "root", "delete 1"])
        lines = watcher.waitFor(lines: 4)
        XCTAssertEqual(try titles(XCTUnwrap(lines.last)), ["Pay the rent", "Buy milk"])

        // Another profile's change, and a change of where this one is: nothing to print.
        try commands(["tab account", "logout", "login bob", "add Not Ana's"])
        try commands(["tab account", "logout", "login ana", "tab account"])
        Thread.sleep(forTimeInterval: 0.8)
        XCTAssertEqual(watcher.lines.count, 4, watcher.lines.last ?? "")

        // The end of its input ends it, with status 0.
        try watcher.input.fileHandleForWriting.close()
        XCTAssertEqual(watcher.end(), 0)
    }

    func testATaskDeletedElsewhereShowsNotFoundAndTheWatchGoesOnUntilSIGTERM() throws {
        let watcher = try Watcher(["watch", "--store", store, "--format", "json", "tasks/2"])
        defer { watcher.process.terminate() }
        let first = try json(XCTUnwrap(watcher.waitFor(lines: 1).first))
        XCTAssertEqual(first["screen"] as? String, "detail")
        try commands(["tab tasks", "root", "delete 1"])
        let gone = try json(XCTUnwrap(watcher.waitFor(lines: 2).dropFirst().first))
        XCTAssertEqual(gone["screen"] as? String, "not-found", "\(gone)")
        try commands(["tab tasks", "root", "add Later"])
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertEqual(watcher.lines.count, 2, "the not-found screen stays as it was")
        watcher.process.terminate()
        XCTAssertEqual(watcher.end(), 0)
    }

    func testTextSaysHowManyTasksChangedAndTheWatchNeverWritesTheStore() throws {
        let watcher = try Watcher(["watch", "--store", store, "--width", "60", "navstack://tasks"])
        defer { watcher.process.terminate() }
        _ = watcher.waitFor(lines: 5)
        // The other process leaves the profile on its account screen.
        try commands(["tab tasks", "root", "toggle 1", "toggle 2", "tab account"])
        let deadline = Date().addingTimeInterval(5)
        while !watcher.lines.contains(where: { $0.contains("changed elsewhere") }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        // The commands commit together: both rows changed.
        XCTAssertTrue(watcher.lines.contains("2 tasks changed elsewhere"), watcher.lines.joined(separator: "\n"))
        watcher.process.interrupt()
        XCTAssertEqual(watcher.end(), 0, "Ctrl-C ends it with status 0")
        // The watch showed the list, and did not keep it as where the profile is.
        XCTAssertTrue(try commands(["where"]).stdout.hasSuffix("Account\nnavstack://account\n\n"))
    }

    func testBadUseIsRefused() throws {
        let link = try NavstackProcess.run(["watch", "--store", store, "navstack://nowhere"])
        XCTAssertEqual(link.status, 64, link.stderr)
        let memory = try NavstackProcess.run(["watch", "--memory"])
        XCTAssertEqual(memory.status, 64, memory.stderr)
        let missing = try NavstackProcess.run(["watch", "--store", folder.appendingPathComponent("none.sqlite").path])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        let profile = try NavstackProcess.run(["watch", "--store", store, "--user", "zoe"])
        XCTAssertEqual(profile.status, 1)
        XCTAssertTrue(profile.stderr.contains("zoe"), profile.stderr)
        let task = try NavstackProcess.run(["watch", "--store", store, "tasks/99"])
        XCTAssertEqual(task.status, 1, task.stderr)
    }
}
