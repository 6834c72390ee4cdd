#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavStackCore

/// Reads import files fast: a JSON array of records, or JSON Lines (one record a line),
/// through the one ``JSONReader``. A leading UTF-8 byte order mark is skipped.
/// A record is an object with `title` (string), and optionally `notes` (string or
/// null), `done` (true, false or null) and `uuid` (a uuid, unique in the input, or null);
/// other keys are read (strictly) and ignored.
/// Titles and notes are held to what a command line may carry (see ``checkText``).
/// A task an import file holds: its fields, and the uuid it keeps when it has one.
public struct ImportRecord: Equatable, Sendable {
    public var fields: DraftFields
    public var uuid: String?

    public init(_ fields: DraftFields, uuid: String? = nil) {
        self.fields = fields
        self.uuid = uuid
    }
}

struct ImportParser {
    private var reader: JSONReader
    /// How many arrays and objects a record's values are in: the record, and the array
    /// around the records when there is one.
    private var recordDepth = 1
    /// The uuids the records read so far gave.
    private var uuids: Set<String> = []

    /// Why reading stopped: the JSON itself, or a record that is JSON but not a task.
    private enum Stop: Error {
        case json(JSONReader.Failure)
        case problem(RecordProblem)

        var problem: RecordProblem {
            switch self {
            case .json(let failure): .notJSON(failure)
            case .problem(let problem): problem
            }
        }
    }

    private init(_ reader: JSONReader) {
        self.reader = reader
    }

    /// Parses a whole input into records; `source` names it in errors.
    static func parse(_ data: [UInt8], source: String) throws(ImportError) -> [ImportRecord] {
        let result: Result<[ImportRecord], ImportError> = data.withUnsafeBufferPointer { bytes in
            do throws(ImportError) {
                let reader: JSONReader
                do throws(JSONReader.Failure) { reader = try JSONReader(bytes) } catch { throw .notJSON(error) }
                var parser = ImportParser(reader)
                return .success(try parser.records(source: source))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func records(source: String) throws(ImportError) -> [ImportRecord] {
        var records: [ImportRecord] = []
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if reader.end >= 3, reader.bytes[0] == bom[0], reader.bytes[1] == bom[1], reader.bytes[2] == bom[2] {
            reader.index = 3
        }
        reader.skipBlanks()
        guard reader.index < reader.end else { throw .empty(source: source) }
        if reader.bytes[reader.index] == UInt8(ascii: "[") {
            reader.index += 1
            recordDepth = 2
            reader.skipBlanks()
            if reader.peek == UInt8(ascii: "]") { reader.index += 1 } else {
                while true {
                    do throws(Stop) {
                        records.append(try record())
                    } catch {
                        throw .badRecord(index: records.count, error.problem)
                    }
                    reader.skipBlanks()
                    guard let next = reader.peek else { throw .notJSON(.unexpectedEnd) }
                    if next == UInt8(ascii: "]") { reader.index += 1; break }
                    guard next == UInt8(ascii: ",") else { throw .notJSON(reader.unexpected()) }
                    reader.index += 1
                    reader.skipBlanks()
                }
            }
            reader.skipBlanks()
            guard reader.index == reader.end else { throw .notJSON(reader.unexpected()) }
            return records
        }
        // JSON Lines: one record a line; blank lines are skipped.
        let total = reader.end
        var lineStart = reader.index
        while lineStart < total {
            var lineEnd = lineStart
            while lineEnd < total && reader.bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            reader.index = lineStart
            reader.end = lineEnd
            reader.skipBlanks()
            if reader.index < reader.end {
                do throws(Stop) {
                    records.append(try record())
                    reader.skipBlanks()
                    guard reader.index == reader.end else { throw Stop.json(reader.unexpected()) }
                } catch {
                    throw .badRecord(index: records.count, error.problem)
                }
            }
            lineStart = lineEnd + 1
        }
        reader.end = total
        return records
    }

    /// One record, checked.
    private mutating func record() throws(Stop) -> ImportRecord {
        guard reader.peek == UInt8(ascii: "{") else {
            if let byte = reader.peek, [UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "t"), UInt8(ascii: "f"),
                                        UInt8(ascii: "n"), UInt8(ascii: "-")].contains(byte) || (byte >= 0x30 && byte <= 0x39) {
                try skipValue(depth: recordDepth - 1)
                throw .problem(.notAnObject)
            }
            throw .json(reader.unexpected())
        }
        let depth = recordDepth
        reader.index += 1
        var title: String??
        var notes: String??
        var done: Bool??
        var uuid: String??
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            while true {
                reader.skipBlanks()
                let key = try keyName()
                reader.skipBlanks()
                try expect(UInt8(ascii: ":"))
                reader.skipBlanks()
                switch key {
                case "title": title = .some(try optionalString(key, depth: depth))
                case "notes": notes = .some(try optionalString(key, depth: depth))
                case "done": done = .some(try optionalBool(key, depth: depth))
                case "uuid": uuid = .some(try optionalString(key, depth: depth))
                default: try skipValue(depth: depth)
                }
                reader.skipBlanks()
                if reader.peek == UInt8(ascii: "}") { reader.index += 1; break }
                try expect(UInt8(ascii: ","))
            }
        }
        guard case .some(.some(let rawTitle)) = title else {
            throw .problem(title == nil ? .noTitle : .wrongType("title"))
        }
        let text = (notes ?? nil) ?? ""
        do throws(RecordProblem) {
            try Self.checkText(rawTitle, .title, limit: Limits.titleCharacters)
            try Self.checkText(text, .notes, limit: Limits.notesCharacters)
        } catch {
            throw .problem(error)
        }
        let trimmed = rawTitle.trimmed
        guard !trimmed.isEmpty else { throw .problem(.blankTitle) }
        let given = (uuid ?? nil)?.lowercased()
        if let given {
            guard given.isUUID else { throw .problem(.notAUUID) }
            guard uuids.insert(given).inserted else { throw .problem(.duplicateUUID(given)) }
        }
        return ImportRecord(DraftFields(title: trimmed, notes: text, done: (done ?? nil) ?? false), uuid: given)
    }

    /// Holds a title or notes to what `title TEXT` or `notes TEXT` could carry: no more
    /// characters than the field's limit, no more bytes than fit on a line after the
    /// command word, and no control or bidi characters other than tab.
    static func checkText(_ text: String, _ field: TextField, limit: Int) throws(RecordProblem) {
        let bytes = text.utf8.count
        let byteLimit = Limits.lineBytes - field.rawValue.utf8.count - 1
        guard bytes <= byteLimit else { throw .tooManyBytes(field, bytes: bytes, limit: byteLimit) }
        if bytes > limit {
            let count = text.count
            guard count <= limit else { throw .tooLong(field, count: count, limit: limit) }
        }
        // Printable ASCII and tabs need no more checks.
        guard text.utf8.contains(where: { !((0x20...0x7E).contains($0) || $0 == 0x09) }) else { return }
        if let bad = text.unicodeScalars.first(where: { $0.isUnsafeForDisplay && $0 != "\t" }) {
            throw .controlCharacter(field, bad)
        }
    }

    // MARK: - The reader's pieces, their failures as stops

    /// The keys a record has, quoted, and their names.
    private static let knownKeys: [(quoted: StaticString, name: String)] = [
        ("\"title\"", "title"), ("\"notes\"", "notes"), ("\"done\"", "done"), ("\"uuid\"", "uuid"),
    ]

    /// A key: the known ones matched on their bytes (a million records have them all),
    /// others (or a known one written with escapes) read as any string.
    private mutating func keyName() throws(Stop) -> String {
        let rest = reader.end - reader.index
        let here = reader.bytes.baseAddress! + reader.index
        for (quoted, name) in Self.knownKeys where rest >= quoted.utf8CodeUnitCount {
            if memcmp(here, quoted.utf8Start, quoted.utf8CodeUnitCount) == 0 {
                reader.index += quoted.utf8CodeUnitCount
                return name
            }
        }
        return try string()
    }

    private mutating func expect(_ byte: UInt8) throws(Stop) {
        do throws(JSONReader.Failure) { try reader.expect(byte) } catch { throw .json(error) }
    }

    private mutating func string() throws(Stop) -> String {
        do throws(JSONReader.Failure) { return try reader.string() } catch { throw .json(error) }
    }

    private mutating func skipValue(depth: Int) throws(Stop) {
        do throws(JSONReader.Failure) { try reader.skipValue(depth: depth) } catch { throw .json(error) }
    }

    private mutating func optionalString(_ key: String, depth: Int) throws(Stop) -> String? {
        if reader.peek == UInt8(ascii: "\"") { return try string() }
        if reader.literal("null") { return nil }
        try skipValue(depth: depth)
        throw .problem(.wrongType(key))
    }

    private mutating func optionalBool(_ key: String, depth: Int) throws(Stop) -> Bool? {
        if reader.literal("true") { return true }
        if reader.literal("false") { return false }
        if reader.literal("null") { return nil }
        try skipValue(depth: depth)
        throw .problem(.wrongType(key))
    }
}
