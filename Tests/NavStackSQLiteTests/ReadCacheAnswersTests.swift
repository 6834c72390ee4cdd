import TestSeeds
import XCTest

@testable import NavStackSQLite

/// The answers a store in memory keeps: the last one asked for or given is kept apart and
/// goes into the table only when another key comes. Seen from outside they are a table.
final class ReadCacheAnswersTests: XCTestCase {
    /// Random reads, writes, removals, changes of one answer and of all of them, on a few
    /// keys, each checked against a plain dictionary.
    func testAnswersBehaveAsATableWhateverTheOrderOfUse() {
        forEachSeed([29]) { seed in
            var generator = SplitMix64(state: seed)
            compareWithADictionary(&generator)
        }
    }

    private func compareWithADictionary(_ generator: inout SplitMix64) {
        for _ in 0..<200 {
            let answers = ReadCache.Answers<Int, [Int]>()
            var model: [Int: [Int]] = [:]
            for step in 0..<60 {
                let key = Int(generator.next() % 4)
                switch generator.next() % 7 {
                case 0, 1:
                    XCTAssertEqual(answers[key], model[key], "read \(key) at \(step)")
                case 2:
                    answers[key] = [step]
                    model[key] = [step]
                case 3:
                    answers[key] = nil
                    model[key] = nil
                case 4:
                    answers.update(key) { $0.append(step) }
                    model[key]?.append(step)
                case 5:
                    let forget = Int(generator.next() % 4)
                    answers.update { key, value in
                        guard key != forget else { return false }
                        value.append(-step)
                        return true
                    }
                    model[forget] = nil
                    for key in model.keys { model[key]?.append(-step) }
                default:
                    let wanted = Int(generator.next() % 4)
                    XCTAssertEqual(answers.containsKey { $0 == wanted }, model[wanted] != nil, "contains \(wanted)")
                }
            }
            for key in 0..<4 { XCTAssertEqual(answers[key], model[key]) }
        }
    }
}
