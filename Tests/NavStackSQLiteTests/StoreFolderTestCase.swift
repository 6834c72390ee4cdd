import Foundation
import XCTest

/// A test case whose tests each get a folder of their own for store files, removed after
/// the test: `path` is a store file in it, not yet made.
class StoreFolderTestCase: XCTestCase {
    private(set) var folder: URL!
    var path: String { folder.appendingPathComponent("navstack.sqlite").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-\(type(of: self))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }
}
