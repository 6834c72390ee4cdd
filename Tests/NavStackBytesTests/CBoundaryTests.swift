import NavStackBytes
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C boundary: bytes lent to C calls and copied out of C's memory hold what the calls
/// read and wrote, through a pipe, `memcpy` and the C library's string calls.
final class CBoundaryTests: XCTestCase {
    /// Bytes written to a pipe through `lend` come back through a room and an array filled
    /// by `read`.
    func testBytesLentToWriteComeBackThroughRead() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        let sent = Array("hello, pipe".utf8)
        let written = sent.withBytes { $0.lend(from: 7) { write(ends[1], $0, $1) } }
        XCTAssertEqual(written, 4)
        XCTAssertEqual([UInt8]().withBytes { $0.lend { write(ends[1], $0, $1) } }, 0)
        close(ends[1])
        let room = ByteRoom(capacity: 2)
        let count = room.fill { read(ends[0], $0, $1) }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(room.withBytes(count) { $0.string }, "pi")
        var rest = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(rest.fill(from: 6) { read(ends[0], $0, $1) }, 2)
        XCTAssertEqual(Array(rest[6...]), Array("pe".utf8))
        XCTAssertEqual([UInt8](capacity: 4) { read(ends[0], $0, $1) }, [])
    }

    /// Copies out of C's memory, and C strings lent and filled in.
    func testCopiesOutOfCMemory() {
        let source = Array("abcdef".utf8)
        source.withBytes { view in
            view.lend { start, count in
                XCTAssertEqual([UInt8](copying: start, count: count), source)
                XCTAssertEqual(String(decodingC: start, count: 3), "abc")
            }
            view.lendChars { start, count in XCTAssertEqual(strnlen(start, count), 6) }
        }
        XCTAssertEqual([UInt8](copying: nil, count: 4), [])
        XCTAssertEqual(String(decodingC: nil, count: 4), "")
        XCTAssertEqual(String(cCharactersOf: (CChar(65), CChar(66), CChar(0), CChar(67))), "AB")
        XCTAssertEqual(String(capacity: 8, writtenByC: { start, _ in strcpy(start, "xyz") != nil ? 3 : 0 }), "xyz")
        XCTAssertNil(String(capacity: 8, writtenByC: { _, _ in -1 }))
        let (result, text) = "tmpXXX".withMutableCString { characters -> Int in
            characters[3] = CChar(UInt8(ascii: "a"))
            return 1
        }
        XCTAssertEqual(result, 1)
        XCTAssertEqual(text, "tmpaXX")
    }

    /// Kept copies stay where they are while more are kept, past the first buffer's room,
    /// until they are let go.
    func testKeptBytesStayPutUntilLetGo() {
        let kept = KeptBytes(capacity: 4)
        let first = Array("abc".utf8).withBytes { kept.keep($0) { start, count in (start, count) } }
        let second = Array("defgh".utf8).withBytes { kept.keep($0) { start, count in (start, count) } }
        let third = kept.keep(writing: 4, { $0.append("ij") }, { start, count in (start, count) })
        XCTAssertEqual(String(decodingC: first.0, count: first.1), "abc")
        XCTAssertEqual(String(decodingC: second.0, count: second.1), "defgh")
        XCTAssertEqual(String(decodingC: third.0, count: third.1), "ij")
        XCTAssertTrue(kept.letGo(), "the first buffer was outgrown")
        XCTAssertFalse(kept.letGo())
    }

    /// A pinned value and a kept C string stay at one address.
    func testPinnedValuesAndKeptStrings() {
        let pinned = Pinned(41)
        pinned.address.pointee += 1
        XCTAssertEqual(pinned.address.pointee, 42)
        let prompt = KeptCString("> ")
        XCTAssertEqual(String(cString: prompt.characters), "> ")
        prompt.set("tasks> ")
        XCTAssertEqual(String(cString: prompt.characters), "tasks> ")
    }

    /// A collection's bytes lent as a view, kept in one piece or not.
    func testCollectionsLendTheirBytes() {
        XCTAssertEqual(Array("abc".utf8)[1...].withByteView { $0.string }, "bc")
        XCTAssertEqual("abc".utf8.reversed().withByteView { $0.string }, "cba")
    }
}
