import Foundation
import NavStackSync
import TestSeeds
import XCTest

/// The hash and the record shape the logs check writers by (``SHA256``, ``SyncKeyShape``).
final class SyncKeyShapeTests: XCTestCase {
    func testSHA256GivesTheStandardsVectors() {
        let vectors: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ]
        for (text, digest) in vectors { XCTAssertEqual(hex(SHA256.hash(Array(text.utf8))), digest, text) }
        XCTAssertEqual(
            hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around each block's edges, random bytes, against coreutils' sha256sum.
    func testSHA256AgreesWithSha256sum() {
        forEachSeed([1, 2]) { seed in
            var random = SplitMix64(state: seed)
            for count in [0, 1, 31, 32, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, random.int(in: 0...5000)] {
                let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
                XCTAssertEqual(hex(SHA256.hash(bytes)), try sha256sum(bytes), "\(count) bytes")
            }
        }
    }

    func testAKeyRecordIsReadWithItsBounds() {
        let salt = Base64.encode([UInt8](repeating: 3, count: 16))
        let check = Base64.encode([UInt8](repeating: 4, count: 72))
        let writer = [UInt8](repeating: 5, count: 32)
        let writeCheck = Base64.encode(SHA256.hash(writer))
        let record =
            #"{"kdf":"pbkdf2-hmac-sha256","iterations":600000,"salt":"\#(salt)","check":"\#(check)","write_check":"\#(writeCheck)"}"#
        let shape = try? XCTUnwrap(SyncKeyShape(text: record))
        XCTAssertEqual(shape?.iterations, 600_000)
        XCTAssertEqual(shape?.writeCheck, SHA256.hash(writer))
        XCTAssertEqual(shape?.admits(writeKey: Base64.encode(writer)), true)
        XCTAssertEqual(shape?.admits(writeKey: Base64.encode([UInt8](repeating: 6, count: 32))), false)
        XCTAssertEqual(shape?.admits(writeKey: nil), false)
        XCTAssertEqual(shape?.admits(writeKey: "not base64"), false)
        let legacy = #"{"kdf":"pbkdf2-hmac-sha256","iterations":600000,"salt":"\#(salt)","check":"\#(check)"}"#
        XCTAssertEqual(SyncKeyShape(text: legacy)?.admits(writeKey: nil), true, "a record from before write keys")
        let refused = [
            "x", "", "[]", #"{"kdf":"k1"}"#,
            record.replacingOccurrences(of: "pbkdf2-hmac-sha256", with: "scrypt"),
            record.replacingOccurrences(of: "600000", with: "99999"),
            record.replacingOccurrences(of: "600000", with: "10000001"),
            record.replacingOccurrences(of: "600000", with: #""600000""#),
            record.replacingOccurrences(of: salt, with: Base64.encode([1, 2, 3])),
            record.replacingOccurrences(of: writeCheck, with: Base64.encode([1, 2, 3])),
            record.replacingOccurrences(of: "}", with: #","extra":true}"#),
            record.replacingOccurrences(of: "{", with: #"{"kdf":"pbkdf2-hmac-sha256","#),
            String(record.dropLast()) + #","salt":"\#(String(repeating: "A", count: 1024))"}"#,
        ]
        for text in refused { XCTAssertNil(SyncKeyShape(text: text), text) }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private func sha256sum(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
