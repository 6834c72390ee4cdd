import Foundation
import NavStackCore
import NavStackSQLite
import TestSeeds
import XCTest

/// A store in memory answers reads from a cache it keeps up to date as it writes; a
/// file store reads SQLite every time. Driven by the same seeded walks, the two must
/// answer every command alike.
final class MemoryCacheTests: XCTestCase {
    private static let lines = [
        "login ana", "login bo", "logout", "open 1", "open 2", "open 3", "back", "root", "edit", "title Walked",
        "title Ünïcode ☕", "notes n", "done on", "done off", "save", "cancel", "back!", "tab account", "tab tasks",
        "toggle 1", "toggle 2", "toggle 3", "toggle", "delete 1", "delete", "add Random", "add", "new", "next", "prev",
        "page 2", "filter all", "filter open", "filter done", "find a", "find", "go tasks/1", "go tasks/2/edit",
        "go tasks/new", "undo", "undo", "redo", "where",
    ]

    private func router(_ store: SQLiteStore) -> Router {
        store.clock = testClock
        return Router(
            store: store, configuration: .init(pageSize: 2, sampleForNewProfiles: true, storeDescription: "a store", clock: testClock))
    }

    private func answer(_ router: inout Router, _ line: String) -> Result<Response, NavError> {
        do throws(NavError) {
            guard let command = try Command.parse(line) else { return .failure(.blankTitle) }
            return .success(try router.apply(command))
        } catch {
            return .failure(error)
        }
    }

    func testAStoreInMemoryAnswersEveryCommandAsAFileStoreDoes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var writes = 0
        forEachSeed(1...8) { seed in
            var rng = SplitMix64(state: seed)
            let file = try SQLiteStore(path: folder.appendingPathComponent("\(seed).sqlite").path)
            defer { file.close() }
            file.uuids = .fixed
            var inMemory = router(try SQLiteStore(path: nil))
            var onFile = router(file)
            for step in 0..<1500 {
                let line = step == 0 ? "login ana" : Self.lines.randomElement(using: &rng)!
                let (memoryAnswer, fileAnswer) = (answer(&inMemory, line), answer(&onFile, line))
                XCTAssertEqual(memoryAnswer, fileAnswer, "seed \(seed), step \(step): \(line)")
                if memoryAnswer != fileAnswer { return }
                if case .success = memoryAnswer, ["toggle", "save", "delete", "add", "undo", "redo"].contains(where: line.hasPrefix) {
                    writes += 1
                }
            }
        }
        XCTAssertGreaterThan(writes, 1000, "the walks changed tasks often")
    }
}
