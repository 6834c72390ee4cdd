import XCTest

extension XCTestCase {
    /// Runs `body` once for each seed of ``TestSeed/seeds(_:)``: when a run fails, by an
    /// assertion or by an error thrown (which ends that seed's run, not the others'), one
    /// failure more names its seed and how to run it again alone.
    public func forEachSeed(
        _ fixed: some Sequence<UInt64>, file: StaticString = #filePath, line: UInt = #line, _ body: (UInt64) throws -> Void
    ) {
        for seed in TestSeed.seeds(fixed) {
            let before = testRun?.totalFailureCount ?? 0
            do {
                try body(seed)
            } catch {
                XCTFail("\(TestSeed.named(seed)): \(error)", file: file, line: line)
                continue
            }
            if (testRun?.totalFailureCount ?? 0) > before {
                XCTFail("the failures above came with \(TestSeed.named(seed))", file: file, line: line)
            }
        }
    }
}
