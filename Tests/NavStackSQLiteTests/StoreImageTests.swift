import Foundation
import XCTest

@testable import NavStackSQLite

/// A store in memory starts from the image of a new store: the image must be what the
/// schema's script makes, to the last table, trigger and header field.
final class StoreImageTests: StoreFolderTestCase {
    private var imageFile: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/NavStackSQLite/SQLiteStore+NewStoreImage.swift").path
    }

    /// A new store's file as the script makes it, read back as bytes.
    private func madeImage() throws -> [UInt8] {
        let db = try Connection(path: path)
        try SQLiteStore.addFunctions(to: db)
        try SQLiteStore.migrate(db, path: path)
        db.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// What a database holds that a store depends on: every object's definition, its
    /// header's fields and the sequences.
    private func contents(of db: Connection) throws -> [String] {
        let objects = try db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all {
            "\($0.text(0)) \($0.text(1)) on \($0.text(2)): \($0.text(3))"
        }
        let header = try [
            "user_version", "application_id", "page_size", "encoding", "auto_vacuum", "freelist_count", "integrity_check",
        ].map { pragma in "\(pragma) " + (try db.first("PRAGMA \(pragma)") { $0.text(0) } ?? "") }
        let sequences = try db.prepare("SELECT name, seq FROM sqlite_sequence").all { "sequence \($0.text(0)) \($0.int(1))" }
        return objects + header + sequences
    }

    func testTheImageIsWhatTheSchemasScriptMakes() throws {
        let made = try madeImage()
        if ProcessInfo.processInfo.environment["NAVSTACK_WRITE_STORE_IMAGE"] == "1" {
            // Lines of 100 characters, joined again by the literal's line continuations.
            let text = Array(StoreImage.encode(made).utf8)
            let lines = stride(from: 0, to: text.count, by: 100)
                .map { "        " + String(decoding: text[$0..<min($0 + 100, text.count)], as: UTF8.self) }
                .joined(separator: "\\\n")
            var source = try String(contentsOfFile: imageFile, encoding: .utf8)
            let start = try XCTUnwrap(source.range(of: "static let newStoreImage = \"\"\"\n"))
            let end = try XCTUnwrap(source.range(of: "        \"\"\"\n}", range: start.upperBound..<source.endIndex))
            source.replaceSubrange(start.upperBound..<end.lowerBound, with: lines + "\n")
            try source.write(toFile: imageFile, atomically: true, encoding: .utf8)
            return
        }
        let fromImage = try Connection(path: ":memory:")
        XCTAssertTrue(SQLiteStore.copyNewStoreImage(into: fromImage), "SQLite took the image")
        let fromScript = try Connection(path: path, creating: false)
        let expected = try contents(of: fromScript)
        XCTAssertEqual(
            try contents(of: fromImage), expected,
            "the schema changed: write the image again with NAVSTACK_WRITE_STORE_IMAGE=1 swift test --filter StoreImageTests")
        XCTAssertTrue(expected.contains("application_id \(SQLiteStore.storeApplicationID)"))
        XCTAssertTrue(expected.contains("user_version \(SQLiteStore.migrations.count)"))
        XCTAssertEqual(StoreImage.decode(SQLiteStore.newStoreImage)?.count, made.count)
    }

    /// A store opened in memory is the image's copy, and works as a store: a profile, a
    /// task and the words' triggers.
    func testAStoreInMemoryStartsFromTheImage() throws {
        let store = try SQLiteStore(path: nil)
        defer { store.close() }
        XCTAssertEqual(try SQLiteStore.applicationID(store.db), SQLiteStore.storeApplicationID)
        XCTAssertEqual(try SQLiteStore.userVersion(store.db), SQLiteStore.migrations.count)
        try store.db.run("INSERT INTO profile (name) VALUES ('ana')")
        try store.db.run("INSERT INTO task (profile_id, position, title, uuid, tags) VALUES (1, 0, 'Water', 'u1', 'home')")
        XCTAssertEqual(try store.db.first("SELECT tasks FROM word_count WHERE word = '#home'") { $0.int(0) }, 1)
    }

    func testTheImagesTextComesBackAsItsBytes() {
        var bytes = [UInt8](repeating: 0, count: 9000)
        bytes[0] = 1
        bytes[4095] = 0xFF
        bytes[4096..<4200] = ArraySlice((0..<104).map { UInt8($0 % 7) })
        bytes[8999] = 9
        for sample in [bytes, [], [0], [5], [UInt8](repeating: 0, count: 300), Array(bytes[4090..<4210])] {
            XCTAssertEqual(StoreImage.decode(StoreImage.encode(sample)), sample)
        }
        XCTAssertNil(StoreImage.decode("not base64!"))
        // A run that says it holds more bytes than follow.
        XCTAssertNil(StoreImage.decode("AAU="))
    }
}
