import Foundation
import TestSeeds
import XCTest

/// The store as separate navstack processes use it: relaunches, kills, several writers,
/// bad files, import and export.
final class StoreProcessTests: XCTestCase {
    private var folder: URL!
    var store: String { folder.appendingPathComponent("navstack.sqlite").path }

    override class func setUp() {
        super.setUp()
        signal(SIGPIPE, SIG_IGN)  // a killed navstack's stdin pipe fails writes instead of killing the tests
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func run(_ arguments: [String], lines: [String] = []) throws -> NavstackProcess.Result {
        try NavstackProcess.run(["--store", store] + arguments, lines: lines)
    }

    func sqlite(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", store, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testTheDefaultStoreLivesUnderXDGDataHomeAndStartsEmpty() throws {
        let data = folder.appendingPathComponent("data")
        let result = try NavstackProcess.run(
            ["--format", "json", "-c", "login ana"],
            environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""total":0"#), "a new profile starts empty without --sample")
        let file = data.appendingPathComponent("navstack/navstack.sqlite").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: file))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        let viaEnvironment = try NavstackProcess.run(
            ["--format", "json", "-c", "add X"],
            environment: ["NAVSTACK_STORE": file])
        XCTAssertTrue(viaEnvironment.stdout.contains(#""screen":"detail""#), "NAVSTACK_STORE names the same store")
    }

    func testARelaunchResumesWithTheDraftInText() throws {
        _ = try run(["--sample"], lines: ["login ana", "open 2", "edit", "notes half written"])
        let result = try run(["--width", "60"], lines: ["where"])
        XCTAssertTrue(result.stdout.hasPrefix("Edit Task\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Notes:  half written"))
        XCTAssertTrue(result.stdout.contains("navstack://tasks/2/edit\n\n"))
    }

    func testUndoAndRedoAcrossRelaunches() throws {
        _ = try run(["--sample"], lines: ["login ana", "delete 1"])
        _ = try run([], lines: ["undo"])
        var result = try run(["--format", "json"], lines: ["go tasks/1"])
        XCTAssertTrue(result.stdout.withoutUUIDs.contains(#""task":{"id":1,"uuid":"…","title":"Buy fruit""#), result.stdout)
        result = try run(["--format", "json"], lines: ["redo", "root"])
        XCTAssertTrue(result.stdout.contains(#""screen":"not-found""#))
        XCTAssertTrue(result.stdout.contains(#""total":2"#))
    }

    /// A session on the store that answers in JSON through pipes, its first screen read.
    func startSession(_ arguments: [String] = []) throws -> (process: Process, input: Pipe, reader: LineReader) {
        let process = Process()
        process.executableURL = NavstackProcess.binary
        process.arguments = ["--store", store, "--format", "json"] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reader = LineReader(output.fileHandleForReading)
        _ = reader.line()  // launch
        return (process, input, reader)
    }

    func testAnotherProcessesDeleteShowsNotFoundOnTheNextScreen() throws {
        _ = try run(["--sample"], lines: ["login ana"])
        let (process, input, reader) = try startSession()
        input.fileHandleForWriting.write(Data("open 2\n".utf8))
        XCTAssertTrue(reader.line().contains(#""screen":"detail""#))
        let other = try run([], lines: ["root", "delete 2"])
        XCTAssertEqual(other.status, 0, other.stderr)
        input.fileHandleForWriting.write(Data("tab account\ntab tasks\n".utf8))
        _ = reader.line()
        let shown = reader.line()
        XCTAssertTrue(shown.contains(#""screen":"not-found""#), shown)
        XCTAssertTrue(shown.contains(#""id":2"#), shown)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Launches resume on the detail of a task that another process deletes and brings
    /// back (undo, redo) all the while: each shows the task or "not found", never crashes.
    func testLaunchesWhileAnotherProcessDeletesTheShownTaskNeverCrash() throws {
        _ = try run(["--sample"], lines: ["login ana", "delete 2", "undo", "go tasks/2"])
        let flipper = Process()
        flipper.executableURL = NavstackProcess.binary
        flipper.arguments = ["--store", store, "--format", "json"]
        let input = Pipe()
        flipper.standardInput = input
        flipper.standardOutput = FileHandle.nullDevice
        flipper.standardError = FileHandle.nullDevice
        try flipper.run()
        let stop = Flag()
        let writer = Thread {
            // One line at a time, so each is committed on its own.
            while !stop.isSet {
                do { try input.fileHandleForWriting.write(contentsOf: Data("redo\n".utf8)) } catch { return }
                usleep(300)
                do { try input.fileHandleForWriting.write(contentsOf: Data("undo\n".utf8)) } catch { return }
                usleep(300)
            }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        var shown: [String: Int] = [:]
        for _ in 0..<300 {
            let launch = try run(["--format", "json"])
            XCTAssertEqual(launch.status, 0, "a launch ended with \(launch.status): \(launch.stderr)")
            let screen = launch.stdout.firstMatch(of: /"screen":"([a-z-]+)"/).map { String($0.1) } ?? "none"
            shown[screen, default: 0] += 1
        }
        stop.set()
        flipper.waitUntilExit()
        XCTAssertEqual(flipper.terminationReason, .exit)
        XCTAssertEqual(Set(shown.keys), ["detail", "not-found"], "\(shown)")
    }

    /// A lists three tasks; B adds one at the top; A's `delete 1` names the task A saw on
    /// row 1, which is now row 2: it is refused, and B's task, which A never saw, stays.
    func testARowThatMovedUnderALongSessionIsNotActedOn() throws {
        _ = try run(["--sample"], lines: ["login ana"])
        let (process, input, reader) = try startSession()  // A: the list of three
        let other = try run(["-c", "add From B"])  // B
        XCTAssertEqual(other.status, 0, other.stderr)
        input.fileHandleForWriting.write(Data("delete 1\n".utf8))
        let refused = reader.line()
        XCTAssertTrue(
            refused.hasPrefix(#"{"error":{"message":"the list changed since it was shown: row 1 is now 'From B', not 'Buy fruit'"#),
            refused)
        XCTAssertEqual(
            try sqlite("SELECT group_concat(title, ',') FROM (SELECT title FROM task ORDER BY position)"),
            "From B,Buy fruit,Study SwiftUI,Go for a walk")
        input.fileHandleForWriting.write(Data("root\ndelete 1\n".utf8))
        XCTAssertTrue(reader.line().contains(#""total":4"#))
        XCTAssertTrue(reader.line().contains(#""total":3"#))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, "a refused command fails the run")
        XCTAssertEqual(
            try sqlite("SELECT group_concat(title, ',') FROM (SELECT title FROM task ORDER BY position)"),
            "Buy fruit,Study SwiftUI,Go for a walk")
    }

    /// A live session commits before it answers: what it printed is in the store while it
    /// waits for the next line, and another process can write meanwhile.
    func testAnAnswerPrintedIsAlreadyKept() throws {
        let (process, input, reader) = try startSession(["--sample"])
        input.fileHandleForWriting.write(Data("login ana\nadd Live one\n".utf8))
        _ = reader.line()
        XCTAssertTrue(reader.line().contains(#""title":"Live one""#))
        XCTAssertEqual(try sqlite("SELECT title FROM task WHERE title = 'Live one'"), "Live one")
        let other = try run([], lines: ["root", "add From another process"])
        XCTAssertEqual(other.status, 0, other.stderr)
        input.fileHandleForWriting.write(Data("root\nadd Second\n".utf8))
        _ = reader.line()
        XCTAssertTrue(reader.line().contains(#""title":"Second""#))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try sqlite("SELECT count(*) FROM task WHERE title IN ('Live one', 'Second', 'From another process')"), "3")
    }

    /// Commands given together are committed together, but a failed one still changes
    /// nothing while the others are kept.
    func testAFailedCommandAmongOthersKeepsTheOthers() throws {
        let result = try run([
            "--sample", "-c", "login ana", "-c", "add First", "-c", "back", "-c", "open 99",
            "-c", "add Third", "-c", "back", "-c", "delete 99",
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 2, result.stderr)
        XCTAssertEqual(
            try sqlite("SELECT group_concat(title, ',') FROM (SELECT title FROM task ORDER BY position)"),
            "Third,First,Buy fruit,Study SwiftUI,Go for a walk")
        XCTAssertEqual(try sqlite("SELECT count(*) FROM op WHERE part = 0"), "2", "two changes in the undo history")
    }

    /// A script adding tasks is killed at random moments: every task whose screen was
    /// printed is in the store, and the store is intact.
    func testAKilledProcessLosesNoPrintedChange() {
        forEachSeed([1]) { seed in try killAtRandomMoments(seed: seed) }
    }

    private func killAtRandomMoments(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        var printed = Set<String>()
        for kill in 1...6 {
            let process = Process()
            process.executableURL = NavstackProcess.binary
            process.arguments = ["--store", store, "--format", "json", "--sample"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let reader = LineReader(output.fileHandleForReading)
            input.fileHandleForWriting.write(Data("login ana\nroot\n".utf8))
            let writer = Thread {
                for number in 0..<100_000 {
                    let line = "add kill\(kill)-\(number)\nback\n"
                    do { try input.fileHandleForWriting.write(contentsOf: Data(line.utf8)) } catch { return }
                }
            }
            writer.start()
            usleep(UInt32.random(in: 50_000...400_000, using: &generator))
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            while let line = reader.nextLine() {
                if let range = line.range(of: #""title":"kill\d+-\d+""#, options: .regularExpression), line.contains(#""screen":"detail""#)
                {
                    printed.insert(String(line[range].dropFirst(9).dropLast()))
                }
            }
        }
        XCTAssertGreaterThan(printed.count, 5, "the runs printed screens before they were killed")
        XCTAssertEqual(try sqlite("PRAGMA integrity_check"), "ok")
        let stored = Set(try sqlite("SELECT title FROM task WHERE title LIKE 'kill%'").split(separator: "\n").map(String.init))
        XCTAssertTrue(printed.isSubset(of: stored), "lost: \(printed.subtracting(stored).sorted().prefix(5))")
    }

    /// Three processes add 150 tasks each to one store at the same time.
    func testConcurrentWritersLoseNoUpdate() throws {
        _ = try run(["--sample"], lines: ["login ana"])
        // Each run resumes where the last saved run was, so it starts from the list.
        let script = ["go tasks"] + (0..<150).flatMap { ["add concurrent \($0)", "back"] }
        let group = DispatchGroup()
        let results = Results()
        let arguments = ["--store", store, "--bail"]
        for _ in 0..<3 {
            group.enter()
            DispatchQueue.global().async {
                let result = try? NavstackProcess.run(arguments, lines: script)
                results.append(result?.status ?? -1, result?.stderr ?? "did not run")
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(results.statuses, [0, 0, 0], results.errors.joined())
        XCTAssertEqual(try sqlite("SELECT COUNT(*) FROM task"), "453")
        XCTAssertEqual(try sqlite("SELECT COUNT(DISTINCT id) FROM task"), "453")
        XCTAssertEqual(try sqlite("SELECT total FROM profile WHERE name = 'ana'"), "453")
    }

    func testBadStoresFailWithOneLineAndAreLeftUntouched() throws {
        let garbage = Data("not a database at all\n".utf8) + Data(repeating: 7, count: 3000)
        try garbage.write(to: URL(fileURLWithPath: store))
        var result = try run([], lines: ["login ana"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(
            result.stderr,
            "navstack: \(store) is not a navstack store (not an SQLite database); it was left untouched: move it away or choose another with --store\n"
        )
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), garbage)

        try FileManager.default.removeItem(atPath: store)
        _ = try run(["--sample"], lines: ["login ana"])
        _ = try sqlite("PRAGMA user_version = 99")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        result = try run([], lines: ["login ana"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("was written by a newer navstack"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before)

        let readOnly = folder.appendingPathComponent("readonly.sqlite").path
        _ = try NavstackProcess.run(["--store", readOnly, "-c", "login ana"])
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
        let frozen = try Data(contentsOf: URL(fileURLWithPath: readOnly))
        result = try NavstackProcess.run(["--store", readOnly, "-c", "login ana"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            "navstack: \(readOnly) is read-only; make it and its folder writable (chmod u+w) or choose another store with --store\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: readOnly)), frozen)
    }

    // MARK: Opening the store

    /// The file's bytes, and whether SQLite's `-wal` or `-shm` files sit beside it.
    private func snapshot(_ path: String) throws -> (bytes: Data, companions: Bool) {
        let manager = FileManager.default
        return (
            try Data(contentsOf: URL(fileURLWithPath: path)),
            manager.fileExists(atPath: path + "-wal") || manager.fileExists(atPath: path + "-shm")
        )
    }

    /// Runs a session on `path` expecting one line of refusal containing `message`, and
    /// the file as it was, with no `-wal` or `-shm` made.
    private func assertRefusedUntouched(_ path: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try snapshot(path)
        for arguments in [["--store", path, "-c", "login ana"], ["export", "--store", path, "--user", "ana"]] {
            let result = try NavstackProcess.run(arguments)
            XCTAssertEqual(result.status, 1, result.stderr, file: file, line: line)
            XCTAssertEqual(result.stdout, "", file: file, line: line)
            XCTAssertEqual(result.stderr, "navstack: \(path) \(message)\n", file: file, line: line)
        }
        let after = try snapshot(path)
        XCTAssertEqual(after.bytes, before.bytes, "the file changed", file: file, line: line)
        XCTAssertFalse(after.companions, "a -wal or -shm file was made", file: file, line: line)
    }

    private let notAStore =
        "is not a navstack store (an SQLite database of another application); it was left untouched: move it away or choose another with --store"
    private let notADatabase =
        "is not a navstack store (not an SQLite database); it was left untouched: move it away or choose another with --store"

    func testANegativeSchemaVersionIsNotAStore() throws {
        _ = try run(["--sample"], lines: ["login ana"])
        _ = try sqlite("PRAGMA user_version = -5")
        try assertRefusedUntouched(store, notAStore)
    }

    func testAnotherApplicationsDatabaseIsRefusedUntouched() throws {
        // Its own tables at version 0, and tables whose names clash with navstack's.
        for schema in [
            "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')",
            "CREATE TABLE task (x); CREATE TABLE profile (y); CREATE TABLE session (z); PRAGMA user_version = 1",
            "CREATE VIEW answer AS SELECT 42",
            "PRAGMA user_version = 3",
        ] {
            try? FileManager.default.removeItem(atPath: store)
            _ = try sqlite(schema)
            try assertRefusedUntouched(store, notAStore)
        }
    }

    func testAFileTooShortOrNotADatabaseIsRefusedUntouched() throws {
        for bytes in [Data("x".utf8), Data("my notes\n".utf8), Data(repeating: 0, count: 100)] {
            try bytes.write(to: URL(fileURLWithPath: store))
            try assertRefusedUntouched(store, notADatabase)
        }
    }

    func testAnEmptyFileOrDatabaseBecomesANewStore() throws {
        for make in [{ try Data().write(to: URL(fileURLWithPath: self.store)) }, { _ = try self.sqlite("VACUUM") }] {
            try? FileManager.default.removeItem(atPath: store)
            try make()
            let result = try run(["--format", "json"], lines: ["login ana", "add One"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try sqlite("SELECT title FROM task"), "One")
        }
    }

    func testAFolderAsTheStoreIsNamedAFolder() throws {
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let result = try run([], lines: ["login ana"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: \(store) is a folder, not a store file; choose a file with --store\n")
    }

    func testAReadOnlyCommandNeverCreatesAStore() throws {
        let mistyped = folder.appendingPathComponent("typo/navstack.sqlite").path
        let result = try NavstackProcess.run(["export", "--store", mistyped, "--user", "ana"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "navstack: no store at \(mistyped); nothing was created: check --store or NAVSTACK_STORE\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("typo").path))
    }

    func testAReadOnlyStoreCanBeExported() throws {
        _ = try run([], lines: ["login ana", "add Kept"])
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        let before = try snapshot(store)
        let result = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""title":"Kept""#), result.stdout)
        let after = try snapshot(store)
        XCTAssertEqual(after.bytes, before.bytes)
        XCTAssertFalse(after.companions, "a -wal or -shm file was left")
        let mode = try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o444)
    }

    func testImportFromAFolderSaysItIsAFolder() throws {
        let result = try NavstackProcess.run(["import", "--store", store, "--user", "ana", folder.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: cannot read \(folder.path): it is a folder\n")
    }

    func testAnotherUsersStoreIsPermissionDeniedNotReadOnly() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root, to run navstack as nobody")
        }
        _ = try run([], lines: ["login ana"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let before = try snapshot(store)
        for arguments in [["-c", "login ana"], ["export", "--user", "ana"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                ["--reuid=nobody", "--regid=nogroup", "--clear-groups", NavstackProcess.binary.path]
                + arguments + ["--store", store]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = Pipe()
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 1)
            XCTAssertEqual(
                stderr,
                "navstack: \(store): permission denied (another user's file, or its mode forbids reading it); it was left untouched: choose another store with --store\n"
            )
        }
        XCTAssertEqual(try snapshot(store).bytes, before.bytes)
    }

    /// A store on a 1 MB tmpfs filled up: reads and writes say the disk is full, and a
    /// store that could not be made leaves no empty file behind.
    func testAFullDiskSaysSoAndLeavesNoEmptyStore() throws {
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        mount.arguments = ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path]
        mount.standardError = Pipe()
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw XCTSkip("cannot mount a tmpfs here") }
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            unmount.arguments = ["umount", disk.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        let path = disk.appendingPathComponent("navstack.sqlite").path
        XCTAssertEqual(try NavstackProcess.run(["--store", path, "--sample", "-c", "login ana"]).status, 0)
        // Written a page at a time until the disk is full.
        let filler = disk.appendingPathComponent("filler").path
        XCTAssertTrue(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: filler))
        for _ in 0..<400 { try? handle.write(contentsOf: Data(repeating: 1, count: 4096)) }
        try? handle.close()
        let full = "the disk is full; free some space and try again (nothing was changed)\n"
        for arguments in [["-c", "add X"], ["-c", "where"], ["export", "--user", "ana"]] {
            let result = try NavstackProcess.run(arguments + ["--store", path])
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(result.stderr, "navstack: \(path): " + full, arguments.joined(separator: " "))
        }
        let fresh = disk.appendingPathComponent("fresh.sqlite").path
        let result = try NavstackProcess.run(["--store", fresh, "-c", "login bob"])
        XCTAssertEqual(result.stderr, "navstack: \(fresh): " + full)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "a failed open left its empty store")
    }

    func testAStoreOpenToOthersIsMadePrivateWithItsCompanions() throws {
        _ = try run([], lines: ["login ana"])
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: store)
        let session = try startSession()
        session.input.fileHandleForWriting.write(Data("add One\n".utf8))
        XCTAssertTrue(session.reader.line().contains(#""screen":"detail""#))
        for file in [store, store + "-wal", store + "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
            XCTAssertEqual(mode?.intValue, 0o600, file)
        }
        session.input.fileHandleForWriting.closeFile()
        session.process.waitUntilExit()
    }

    /// Runs `body` while another process (the sqlite3 shell) holds the store's write
    /// lock; the lock is released when `body` returns.
    private func whileAnotherProcessHoldsTheLock<T>(_ body: () throws -> T) throws -> T {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["sqlite3", store]
        let ready = Pipe()
        let release = Pipe()
        holder.standardOutput = ready
        holder.standardInput = release
        try holder.run()
        defer {
            release.fileHandleForWriting.closeFile()
            holder.waitUntilExit()
        }
        release.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\n.print locked\n".utf8))
        XCTAssertEqual(LineReader(ready.fileHandleForReading).line(), "locked")
        let result = try body()
        XCTAssertEqual(holder.isRunning, true, "the lock was held until the end of the run")
        return result
    }

    func testALockHeldTooLongIsOneErrorAndTheSessionGoesOn() throws {
        _ = try run(["--sample"], lines: ["login ana"])
        // A wait of 50 ms instead of 5 s: the lock is held throughout, so the command
        // fails all the same.
        let result = try whileAnotherProcessHoldsTheLock {
            try NavstackProcess.run(
                ["--store", store, "--format", "json"], input: Data("toggle 1\nwhere\n".utf8),
                environment: ["NAVSTACK_BUSY_TIMEOUT_MS": "50"])
        }
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, result.stdout + result.stderr)
        XCTAssertTrue(lines[1].contains("is locked by another process for too long; try again"), String(lines[1]))
        XCTAssertFalse(lines[1].contains("store failed"), "the lock message stands alone: \(lines[1])")
        XCTAssertTrue(lines[2].hasPrefix(#"{"url":"navstack://tasks""#))
    }

    /// An import into a store another process holds says the store's sentence, in the
    /// language asked for; no name of a type reaches the user.
    func testAnImportIntoALockedStoreSaysWhy() throws {
        _ = try run([], lines: ["login ana"])
        for (language, sentence) in [
            ("C.UTF-8", "is locked by another process for too long; try again"),
            ("pt_BR.UTF-8", "está bloqueado por outro processo há tempo demais; tente de novo"),
        ] {
            let result = try whileAnotherProcessHoldsTheLock {
                try NavstackProcess.run(
                    ["import", "--store", store, "-"], input: Data(#"[{"title":"One"}]"#.utf8),
                    environment: ["NAVSTACK_BUSY_TIMEOUT_MS": "50", "LANG": language])
            }
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(result.stderr, "navstack: import: \(store) \(sentence)\n", language)
        }
    }

    func testTheBusyTimeoutVariableIsAWholeNumberOfMilliseconds() throws {
        for (value, reason) in [("soon", "not a whole number"), ("-1", "use 0 to 600000"), ("600001", "use 0 to 600000")] {
            let result = try NavstackProcess.run(
                ["--store", store, "-c", "login ana"],
                environment: ["NAVSTACK_BUSY_TIMEOUT_MS": value])
            XCTAssertEqual(result.status, 64, value)
            XCTAssertTrue(
                result.stderr.hasPrefix(
                    "Error: the value '\(value)' is invalid for 'NAVSTACK_BUSY_TIMEOUT_MS': \(reason)\n"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: store), "nothing was opened")
        }
        let result = try NavstackProcess.run(["--store", store, "-c", "login ana"], environment: ["NAVSTACK_BUSY_TIMEOUT_MS": "0"])
        XCTAssertEqual(result.status, 0, "0 is no wait: \(result.stderr)")
    }

    func testImportAndExport() throws {
        let file = folder.appendingPathComponent("tasks.json")
        try Data(#"[{"title":"Imported one"},{"title":"Imported two","notes":"n","done":true}]"#.utf8).write(to: file)
        var result = try NavstackProcess.run(["import", "--store", store, "--user", "ana", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "imported 2 tasks\n")
        result = try NavstackProcess.run(["export", "--store", store, "--user", "ana"])
        XCTAssertEqual(
            result.stdout.withoutUUIDs.withoutUnsetFields,
            """
            [
            {"id":1,"uuid":"…","title":"Imported one","notes":"","done":false,"parent":null},
            {"id":2,"uuid":"…","title":"Imported two","notes":"n","done":true,"parent":null}
            ]

            """)
        try Data("{\"title\":\"ok\"}\n{\"title\":\"\"}\n".utf8).write(to: file)
        result = try NavstackProcess.run(["import", "--store", store, "--user", "ana", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: record 1: the title is blank; nothing was imported\n")
        XCTAssertEqual(try sqlite("SELECT COUNT(*) FROM task"), "2")
        result = try NavstackProcess.run(["import", "--store", store, "-"], input: Data("{\"title\":\"x\"}".utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navstack: import: no one is signed in: name the profile with --user NAME\n")
        _ = try run([], lines: ["login ana"])
        result = try NavstackProcess.run(["import", "--store", store, "-"], input: Data("{\"title\":\"From stdin\"}\n".utf8))
        XCTAssertEqual(result.stdout, "imported 1 task\n")
        result = try run(["--format", "json"], lines: ["undo", "where"])
        XCTAssertTrue(result.stdout.contains(#""total":2"#), "an import is one change for undo")
    }
}

/// Reads lines from a pipe as they come.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line, waiting for it; "" at the end.
    func line() -> String { nextLine() ?? "" }

    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = handle.availableData
            if chunk.isEmpty {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            buffer += chunk
        }
    }
}

/// Results gathered from concurrent runs.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var statuses: [Int32] = []
    private(set) var errors: [String] = []

    func append(_ status: Int32, _ error: String) {
        lock.lock()
        defer { lock.unlock() }
        statuses.append(status)
        errors.append(error)
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
