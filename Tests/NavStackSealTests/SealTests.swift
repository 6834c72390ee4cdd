import NavStackCore
import NavStackSync
import XCTest

@testable import NavStackSeal

private func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

private func bytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

private let writer = String(repeating: "1a", count: 16)
private let reader = String(repeating: "2b", count: 16)

/// The key from a passphrase, sealed payloads, and what cannot be done to them without
/// the key.
final class SealTests: XCTestCase {
    /// The least iterations a record may ask for: the tests' keys are quick to derive.
    private static let (record, key) = SyncKeyRecord.make(passphrase: "correct horse battery", iterations: 100_000)

    func testThePrimitivesGiveTheStandardsTestVectors() {
        // RFC 7914, section 11: PBKDF2-HMAC-SHA256, "passwd" and "salt", 1 iteration (its first 32 bytes).
        XCTAssertEqual(
            hex(Crypto.pbkdf2(Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1)),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
        // RFC 7914, section 11: "Password" and "NaCl", 80,000 iterations (its first 32 bytes).
        XCTAssertEqual(
            hex(Crypto.pbkdf2(Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000)),
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56")
        // RFC 8439, section 2.8.2: ChaCha20-Poly1305.
        let plaintext = Array(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8)
        let context = SealingContext(
            key: bytes("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"),
            nonces: [UInt8](repeating: 0, count: 32))
        let associated = bytes("50515253c0c1c2c3c4c5c6c7")
        let sealed = context.seal(plaintext, associated: associated, nonce: bytes("070000004041424344454647"))
        XCTAssertEqual(hex(sealed.prefix(12)), "070000004041424344454647")
        XCTAssertEqual(hex(sealed.dropFirst(12).prefix(16)), "d31a8d34648e60db7b86afbc53ef7ec2")
        XCTAssertEqual(hex(sealed.suffix(16)), "1ae10b594f09e26a7e902ecbd0600691")
        XCTAssertEqual(context.open(sealed, associated: associated), plaintext)
        // RFC 4231, test case 2: HMAC-SHA256 (the nonces' function).
        XCTAssertEqual(
            hex(Crypto.hmac(Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func testTheRightPassphraseOpensTheRecordAndAWrongOneDoesNot() throws {
        let record = try XCTUnwrap(SyncKeyRecord(text: Self.record.text))
        XCTAssertEqual(record.iterations, 100_000)
        XCTAssertEqual(record.salt.count, 16)
        XCTAssertEqual(record.open(passphrase: "correct horse battery"), Self.key)
        XCTAssertNil(record.open(passphrase: "correct horse battery "))
        XCTAssertNil(record.open(passphrase: "Correct horse battery"))
        XCTAssertTrue(record.opens(with: Self.key))
        let other = SyncKeyRecord.make(passphrase: "correct horse battery", iterations: 100_000)
        XCTAssertNotEqual(other.0.salt, record.salt, "each account has its own salt")
        XCTAssertNotEqual(other.1, Self.key, "so the same passphrase gives each account its own key")
        XCTAssertFalse(record.opens(with: other.1))
    }

    /// A new record carries the SHA-256 of its key's write key, which every request sealed
    /// with the key carries, and which no one reading the record can make; a record whose
    /// write check is not its key's does not open.
    func testARecordChecksItsWritersAndTheSealedRequestsCarryTheWriteKey() throws {
        let shape = try XCTUnwrap(SyncKeyShape(text: Self.record.text))
        XCTAssertEqual(shape.writeCheck, SHA256.hash(Self.key.writeKey))
        XCTAssertNotEqual(Self.key.writeKey, Self.key.bytes)
        let sealer = OperationSealer(key: Self.key, record: Self.record)
        let request = sealer.seal(SyncRequest(replica: writer, after: 0, operations: operations()))
        XCTAssertTrue(shape.admits(writeKey: request.writeKey))
        XCTAssertFalse(Self.record.text.contains(try XCTUnwrap(request.writeKey)), "the record never shows the write key")
        let otherCheck = Base64.encode(SHA256.hash([UInt8](repeating: 1, count: 32)))
        let forged = Self.record.text.replacingOccurrences(of: Base64.encode(try XCTUnwrap(shape.writeCheck)), with: otherCheck)
        XCTAssertNotEqual(forged, Self.record.text)
        XCTAssertEqual(try XCTUnwrap(SyncKeyRecord(text: forged)).open(passphrase: "correct horse battery"), nil)
    }

    /// The associated data, byte for byte, as every account's log was sealed with it: a
    /// change of its layout would make every operation already kept unopenable. Built here
    /// by hand, and each payload must open with it; a snapshot's likewise.
    func testTheAssociatedDataKeepsItsLayout() throws {
        func bigEndian(_ number: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: number >> (56 - 8 * $0)) } }
        let sealer = OperationSealer(key: Self.key, record: Self.record)
        let operation = operations()[1]
        let sealed = try XCTUnwrap(sealer.seal(SyncRequest(replica: writer, after: 0, operations: [operation])).operations.first)
        let bytes = try XCTUnwrap(sealed.sealed.flatMap(Base64.decode))
        let associated =
            Array("navstack op v1".utf8) + Self.record.salt + Array(writer.utf8) + bigEndian(operation.seq)
            + bigEndian(operation.millis) + bigEndian(operation.counter)
        XCTAssertEqual(Self.key.context().open(bytes, associated: associated), operation.payloadJSON())
        let snapshot = sealer.seal([], through: 41)
        let snapshotData = Array("navstack snapshot v1".utf8) + Self.record.salt + bigEndian(41)
        XCTAssertNotNil(Self.key.context().open(try XCTUnwrap(Base64.decode(snapshot.sealed)), associated: snapshotData))
        XCTAssertNil(Self.key.context().open(bytes, associated: snapshotData), "another layout does not open it")
    }

    func testARecordAServerCouldSendToDoHarmIsRefused() {
        let salt = Base64.encode([UInt8](repeating: 7, count: 16))
        let check = Base64.encode([UInt8](repeating: 0, count: 12 + SyncKeyRecord.checkText.count + 16))
        func record(kdf: String = "pbkdf2-hmac-sha256", iterations: Int = 600_000, salt: String = salt) -> String {
            #"{"kdf":"\#(kdf)","iterations":\#(iterations),"salt":"\#(salt)","check":"\#(check)"}"#
        }
        XCTAssertNotNil(SyncKeyRecord(text: record()))
        XCTAssertNil(SyncKeyRecord(text: record(iterations: 1_000_000_000)), "minutes of work for a replica")
        XCTAssertNil(SyncKeyRecord(text: record(iterations: 1)), "a key cheap to guess")
        XCTAssertNil(SyncKeyRecord(text: record(kdf: "md5")))
        XCTAssertNil(SyncKeyRecord(text: record(salt: "AAAA")), "a salt of 3 bytes")
        XCTAssertNil(SyncKeyRecord(text: "[]"))
        XCTAssertNil(SyncKeyRecord(text: "not json"))
    }

    private func operations() -> [SyncOperation] {
        [
            SyncOperation(
                seq: 1, millis: 1_700_000_000_000, counter: 0, task: "00000000-0000-4000-8000-000000000001", field: .task,
                value: #"{"title":"Call the dentist about the crown","notes":"","done":false,"parent":null,"position":1}"#),
            SyncOperation(
                seq: 2, millis: 1_700_000_000_001, counter: 3, task: "00000000-0000-4000-8000-000000000001", field: .notes,
                value: #""Tuesday after 3""#, old: #""""#),
        ]
    }

    func testSealedOperationsOpenToWhatWasSealedAndShowNothingOfIt() throws {
        let sealer = OperationSealer(key: Self.key, record: Self.record)
        let request = SyncRequest(replica: writer, after: 0, operations: operations())
        let sealed = sealer.seal(request)
        let body = String(decoding: sealed.json(), as: UTF8.self)
        for secret in ["dentist", "Tuesday", "00000000-0000-4000-8000-000000000001", "title", "notes"] {
            XCTAssertFalse(body.contains(secret), secret)
        }
        XCTAssertEqual(sealed.operations.map(\.seq), [1, 2])
        XCTAssertEqual(sealed.operations.map(\.millis), [1_700_000_000_000, 1_700_000_000_001])
        XCTAssertEqual(sealer.seal(request), sealed, "the same operation seals to the same text: a request sent again is the same")
        // What the server hands to another replica: the sealed text with the writer's name.
        let served = SyncAnswer(
            operations: sealed.operations.enumerated().map { index, operation in
                .sealed(
                    operation.sealed!, serverSeq: Int64(index + 1), replica: writer, seq: operation.seq, millis: operation.millis,
                    counter: operation.counter)
            }, last: 2, more: false, key: Self.record.text)
        let answer = try SyncAnswer(json: served.json())
        let opened = OperationSealer(key: Self.key, record: Self.record).open(answer)
        XCTAssertEqual(
            opened.operations,
            operations().enumerated().map { index, operation in
                var operation = operation
                operation.serverSeq = Int64(index + 1)
                operation.replica = writer
                return operation
            })
        XCTAssertEqual(opened.key, Self.record.text)
    }

    func testAPayloadMovedToAnotherOperationOrAccountOrOpenedWithAnotherKeyIsSetAside() throws {
        let sealer = OperationSealer(key: Self.key, record: Self.record)
        let sealed = sealer.seal(SyncRequest(replica: writer, after: 0, operations: operations())).operations
        func served(_ operation: SyncOperation, replica: String = writer, seq: Int64? = nil, millis: Int64? = nil) -> SyncAnswer {
            SyncAnswer(
                operations: [
                    .sealed(
                        operation.sealed!, serverSeq: 1, replica: replica, seq: seq ?? operation.seq, millis: millis ?? operation.millis,
                        counter: operation.counter)
                ], last: 1, more: false)
        }
        XCTAssertEqual(sealer.open(served(sealed[0])).operations.count, 1)
        XCTAssertEqual(sealer.open(served(sealed[0])).setAside, [])
        /// An answer whose one operation is set aside, as it came, and none applied.
        func assertSetAside(_ answer: SyncAnswer, by sealer: OperationSealer, _ what: String) {
            let opened = sealer.open(answer)
            XCTAssertEqual(opened.operations, [], what)
            XCTAssertEqual(opened.setAside, answer.operations, what)
        }
        for (answer, what) in [
            (served(sealed[0], seq: 2), "another seq"),
            (served(sealed[0], millis: sealed[0].millis + 1), "another stamp"),
            (served(sealed[0], replica: reader), "another replica"),
        ] {
            assertSetAside(answer, by: sealer, what)
        }
        let (otherRecord, otherKey) = SyncKeyRecord.make(passphrase: "correct horse battery", iterations: 100_000)
        assertSetAside(served(sealed[0]), by: OperationSealer(key: otherKey, record: otherRecord), "another account")
        assertSetAside(served(sealed[0]), by: OperationSealer(key: otherKey, record: Self.record), "another key")
        var flipped = try XCTUnwrap(Base64.decode(sealed[0].sealed!))
        flipped[20] ^= 1
        var changed = sealed[0]
        changed.sealed = Base64.encode(flipped)
        assertSetAside(served(changed), by: sealer, "a changed byte")
        let clear = SyncAnswer(operations: [operations()[0]], last: 1, more: false)
        assertSetAside(clear, by: sealer, "an operation in clear where a sealed one is due")
        // One bad operation among good ones holds none of them back.
        let mixed = SyncAnswer(operations: served(changed).operations + served(sealed[0]).operations, last: 2, more: false)
        XCTAssertEqual(sealer.open(mixed).operations.map(\.seq), [sealed[0].seq])
        XCTAssertEqual(sealer.open(mixed).setAside.count, 1)
    }

    func testASnapshotOpensToItsRegistersOnlyWithTheKeyAndForItsSeq() throws {
        let sealer = OperationSealer(key: Self.key, record: Self.record)
        var register = SyncRegister(uuid: "01a2b3c4-0000-7000-8000-000000000001")
        _ = register.apply(
            .create(SyncTask(fields: DraftFields(title: "Quarterly tax return"), parent: nil, position: 1)),
            at: Stamp.text(millis: 5, counter: 0, replica: writer), replica: writer)
        let snapshot = sealer.seal([register], through: 40)
        XCTAssertEqual(snapshot.seq, 40)
        XCTAssertFalse(String(decoding: Base64.decode(snapshot.sealed) ?? [], as: UTF8.self).contains("Quarterly"))
        XCTAssertEqual(sealer.open(snapshot)?.registers, [register])
        var moved = snapshot
        moved.seq = 41
        XCTAssertNil(sealer.open(moved), "served for another seq")
        var flipped = try XCTUnwrap(Base64.decode(snapshot.sealed))
        flipped[flipped.count / 2] ^= 1
        XCTAssertNil(sealer.open(SyncSnapshot(seq: 40, sealed: Base64.encode(flipped))), "a changed byte")
        let (otherRecord, otherKey) = SyncKeyRecord.make(passphrase: "correct horse battery", iterations: 100_000)
        XCTAssertNil(OperationSealer(key: otherKey, record: otherRecord).open(snapshot), "another account")
    }

    func testBase64() {
        for count in 0..<40 {
            let data = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            XCTAssertEqual(Base64.decode(Base64.encode(data)), data)
        }
        XCTAssertEqual(Base64.encode(Array("foobar".utf8)), "Zm9vYmFy")
        XCTAssertEqual(Base64.encode(Array("fo".utf8)), "Zm8=")
        for bad in ["Zm9", "Zm8", "Zm9v!mFy", "Zm==Zm9v", "Zm9=", "=AAA", "Zg=a"] {
            XCTAssertNil(Base64.decode(bad), bad)
        }
        XCTAssertNil(Base64.decode("Zm9="), "bits left over by the padding must be zero")
    }
}
