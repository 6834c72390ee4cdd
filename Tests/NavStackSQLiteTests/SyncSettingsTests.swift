import XCTest

@testable import NavStackSQLite

/// Putting back a profile's server and token after the server refused the ones given.
final class SyncSettingsTests: StoreFolderTestCase {
    func testARefusedTokenGivesWayToTheOneKeptBefore() throws {
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        try store.openProfile("ana", sample: false)
        let before = try store.configureSync("ana", server: "http://server", token: "good")
        let given = try store.configureSync("ana", server: nil, token: "wrong")
        try store.restoreSync("ana", to: before, replacing: given)
        XCTAssertEqual(try store.syncSettings("ana"), before)
    }

    func testAFirstRefusedTokenLeavesNoServer() throws {
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        try store.openProfile("ana", sample: false)
        let given = try store.configureSync("ana", server: "http://server", token: "wrong")
        try store.restoreSync("ana", to: nil, replacing: given)
        XCTAssertNil(try store.syncSettings("ana"))
    }

    /// Another process that set a token meanwhile keeps it: only what this one set goes.
    func testATokenSetElsewhereMeanwhileIsKept() throws {
        let mine = try SQLiteStore(path: path)
        defer { mine.close() }
        let other = try SQLiteStore(path: path)
        defer { other.close() }
        try mine.openProfile("ana", sample: false)
        let before = try mine.configureSync("ana", server: "http://server", token: "good")
        let given = try mine.configureSync("ana", server: nil, token: "wrong")
        let newer = try other.configureSync("ana", server: nil, token: "newer")
        try mine.restoreSync("ana", to: before, replacing: given)
        XCTAssertEqual(try mine.syncSettings("ana"), newer)
        XCTAssertEqual(try other.syncSettings("ana")?.token, "newer")
    }
}
