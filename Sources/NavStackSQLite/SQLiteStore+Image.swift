import CSQLite
import NavStackBytes
import NavStackSync

extension SQLiteStore {
    /// Makes `db`, an empty database in memory, a new store by copying the image of one
    /// (``newStoreImage``) into it with SQLite's backup: a `--memory` start then parses the
    /// schema once, where running ``newStoreSchema`` parsed each statement twice and
    /// wrote it (more than half of such a start's instructions). `false`, with `db` left
    /// empty, when SQLite does not take the image; the schema's script makes the store then.
    static func copyNewStoreImage(into db: Connection) -> Bool {
        guard let image = StoreImage.decode(newStoreImage) else { return false }
        return image.withByteView { bytes in
            bytes.lendToRead { start, count in
                var handle: OpaquePointer?
                defer { sqlite3_close_v2(handle) }
                guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
                    let source = handle,
                    sqlite3_deserialize(source, "main", start, Int64(count), Int64(count), UInt32(SQLITE_DESERIALIZE_READONLY))
                        == SQLITE_OK,
                    let backup = sqlite3_backup_init(db.handle, "main", source, "main")
                else { return false }
                let stepped = sqlite3_backup_step(backup, -1)
                return sqlite3_backup_finish(backup) == SQLITE_OK && stepped == SQLITE_DONE
            }
        }
    }
}

/// A database file's bytes as the text ``SQLiteStore/newStoreImage`` keeps them in: the
/// pages of an empty store are mostly zeros, so the bytes are written as runs, each a
/// count of zeros, a count of other bytes and those bytes (the counts as LEB128
/// varints), then in base64.
enum StoreImage {
    static func encode(_ bytes: [UInt8]) -> String {
        var runs: [UInt8] = []
        var index = 0
        while index < bytes.count {
            var zeros = 0
            while index + zeros < bytes.count && bytes[index + zeros] == 0 { zeros += 1 }
            index += zeros
            // A run of other bytes ends at 8 zeros in a row (or the end): fewer cost less
            // kept as they are than as a run of their own.
            var end = index
            while end < bytes.count && !(end + 8 <= bytes.count && bytes[end..<end + 8].allSatisfy { $0 == 0 }) {
                end += 1
            }
            appendVarint(zeros, to: &runs)
            appendVarint(end - index, to: &runs)
            runs += bytes[index..<end]
            index = end
        }
        return Base64.encode(runs)
    }

    /// The bytes of `text`; `nil` unless it is what ``encode(_:)`` writes. The runs are
    /// read twice: for the size of the bytes, then into them.
    static func decode(_ text: String) -> [UInt8]? {
        guard let runs = Base64.decode(text) else { return nil }
        var size = 0
        var index = 0
        while index < runs.count {
            guard let zeros = readVarint(runs, at: &index), let count = readVarint(runs, at: &index), count <= runs.count - index,
                zeros <= maxSize - size - count
            else { return nil }
            size += zeros + count
            index += count
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var at = 0
        index = 0
        while index < runs.count, let zeros = readVarint(runs, at: &index), let count = readVarint(runs, at: &index) {
            at += zeros
            bytes.replaceSubrange(at..<at + count, with: runs[index..<index + count])
            at += count
            index += count
        }
        return bytes
    }

    /// More than an empty store's file could be.
    private static let maxSize = 1 << 24

    private static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func readVarint(_ bytes: [UInt8], at index: inout Int) -> Int? {
        var value = 0
        var shift = 0
        while index < bytes.count, shift < 35 {
            let byte = bytes[index]
            index += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}
