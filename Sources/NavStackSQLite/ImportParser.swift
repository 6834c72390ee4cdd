import NavStackBytes
import NavStackCore
import NavStackSync
import NavStackTime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A task an import file holds: its fields, and the uuid it keeps when it has one.
public struct ImportRecord: Equatable, Sendable {
    public var fields: DraftFields
    public var uuid: String?
    /// When it was made, changed and done, as the record says (navstack's own export).
    public var stamps = TaskStamps()

    public init(_ fields: DraftFields, uuid: String? = nil) {
        self.fields = fields
        self.uuid = uuid
    }

    /// Whether it holds more than a title, notes and done: what the import writes after
    /// its rows.
    var hasMore: Bool { !fields.hasSameAttributes(as: DraftFields()) || stamps != TaskStamps() }
}

/// What an import reads: its records, numbered from 0 in document order (a nested record
/// right after the one it is nested in), and where each goes in the tree.
///
/// The parents are kept beside the records rather than in them: a record with one more
/// field costs a large import about 5% more to read, for the parents only trees have.
public struct ImportInput: RandomAccessCollection, Equatable, Sendable {
    public var records: [ImportRecord]
    /// Where each record goes, by number (`nil`: the top of the list); empty when every
    /// record goes at the top.
    public var parents: [ImportParent?]

    public init(_ records: [ImportRecord], parents: [ImportParent?] = []) {
        precondition(parents.isEmpty || parents.count == records.count, "a parent for each record, or none")
        self.records = records
        self.parents = parents
    }

    public var startIndex: Int { records.startIndex }
    public var endIndex: Int { records.endIndex }
    public subscript(number: Int) -> ImportRecord { records[number] }

    /// Where record `number` goes: `nil` at the top of the list.
    public func parent(of number: Int) -> ImportParent? {
        parents.isEmpty ? nil : parents[number]
    }

    /// Whether some record goes under another task.
    var isTree: Bool { parents.contains { $0 != nil } }
}

/// Where an import record goes: under another record of the same input, or under a task
/// the profile has.
public enum ImportParent: Equatable, Hashable, Sendable {
    /// Another record of the input, by its number (records are numbered from 0 in
    /// document order, a nested record right after the one it is nested in).
    case record(Int)
    /// A task by its uuid (8-4-4-4-12 hexadecimal digits, read back lowercase): once
    /// read, one the store must have, as no record of the input gives it.
    case task(uuid: String)
}

/// Reads import files fast: a JSON array of records, or JSON Lines (one record a line),
/// through the one ``JSONReader``. A leading UTF-8 byte order mark is skipped.
/// A record is an object with `title` (string), and optionally `notes` (string or
/// null), `done` (true, false or null), `uuid` (a uuid, unique in the input, or null),
/// `parent` (a record's number, a uuid, or null) and `subtasks` (an array of records
/// nested in it, or null); other keys are read (strictly) and ignored, and so is the
/// `parent` of a nested record, whose parent is the record it is nested in.
/// Every value is held to ``FieldRules``; a record it refuses is named and reading goes
/// on, so that one failed import names every such record (``BadRecords``).
struct ImportParser {
    private var reader: JSONReader
    /// How many arrays and objects a top-level record's values are in: the record, and
    /// the array around the records when there is one.
    private var recordDepth = 1
    /// The uuids the records read so far gave.
    private var uuids: Set<String> = []
    /// The records read so far, in document order.
    private var records: [ImportRecord] = []
    /// The parents of the records that have one, by number.
    private var parents: [Int: ImportParent] = [:]
    /// The number of the record being read, for the error when reading stops.
    private var current = 0
    /// The records whose values ``FieldRules`` refuses.
    private var bad = BadRecords()

    /// Why reading stopped: the JSON itself, or a record that is JSON but not a task.
    private enum Stop: Error {
        case json(JSONError)
        case problem(ImportError.Record)

        var problem: ImportError.Record {
            switch self {
            case .json(let failure): .notJSON(failure)
            case .problem(let problem): problem
            }
        }
    }

    private init(_ reader: JSONReader) {
        self.reader = reader
    }

    /// Parses a whole input into records and checks the tree they make; `source` names
    /// it in errors.
    static func parse(_ data: [UInt8], source: String) throws(ImportError) -> ImportInput {
        let result: Result<ImportInput, ImportError> = data.withBytes { bytes in
            do throws(ImportError) {
                let reader: JSONReader
                do throws(JSONError) { reader = try JSONReader(bytes) } catch { throw .notJSON(error) }
                var parser = ImportParser(reader)
                try parser.read(source: source)
                try parser.bad.check()
                var input = ImportInput(parser.records)
                if !parser.parents.isEmpty {
                    input.parents = Array(repeating: nil, count: input.records.count)
                    for (number, parent) in parser.parents { input.parents[number] = parent }
                    _ = try ImportTree(&input)
                }
                return .success(input)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads every record of the input into ``records``.
    private mutating func read(source: String) throws(ImportError) {
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
            if reader.peek == UInt8(ascii: "]") {
                reader.index += 1
            } else {
                while true {
                    do throws(Stop) {
                        try place(depth: recordDepth, under: nil)
                    } catch {
                        throw .badRecord(index: current, error.problem)
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
            return
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
                    try place(depth: recordDepth, under: nil)
                    reader.skipBlanks()
                    guard reader.index == reader.end else { throw Stop.json(reader.unexpected()) }
                } catch {
                    throw .badRecord(index: current, error.problem)
                }
            }
            lineStart = lineEnd + 1
        }
        reader.end = total
    }

    /// Reads a record and puts it in ``records`` at its number, the records nested in it
    /// after it.
    private mutating func place(depth: Int, under parent: Int?) throws(Stop) {
        let number = records.count
        let record = try record(depth: depth, under: parent)
        if records.count == number {
            records.append(record)
        } else {
            records[number] = record
        }
    }

    /// One record, checked; the records nested in it are put in ``records`` after a
    /// stand-in for it. `depth` is how many arrays and objects its values are in;
    /// `parent` is the number of the record it is nested in.
    private mutating func record(depth: Int, under parent: Int?) throws(Stop) -> ImportRecord {
        let number = records.count
        current = number
        guard reader.peek == UInt8(ascii: "{") else {
            if let byte = reader.peek,
                [
                    UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "t"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "-"),
                ].contains(byte) || (byte >= 0x30 && byte <= 0x39)
            {
                try skipValue(depth: depth - 1)
                throw .problem(.notAnObject)
            }
            throw .json(reader.unexpected())
        }
        guard depth <= JSONReader.maximumDepth else { throw .json(.tooDeep(at: reader.index)) }
        reader.index += 1
        var title: String??
        var notes: String??
        var done: Bool??
        var uuid: String??
        var given: ImportParent?
        var more = DraftFields()
        var stamps = TaskStamps()
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
                case "parent" where parent == nil: given = try parentValue(depth: depth)
                case "subtasks": try subtasks(depth: depth, of: number)
                case "created", "modified", "completed":
                    guard let text = try optionalString(key, depth: depth) else { break }
                    guard let instant = Instant(iso8601: text) else { throw .problem(.wrongType(key)) }
                    switch key {
                    case "created": stamps.created = instant
                    case "modified": stamps.modified = instant
                    default: stamps.completed = instant
                    }
                default:
                    // A field of the detail's JSON (`due`, `tags`, `annotations` …), read
                    // whole (its values are held to ``FieldRules`` with the others');
                    // anything else is skipped.
                    let start = reader.index
                    try skipValue(depth: depth)
                    guard let field = TaskField(rawValue: key), Self.attributeFields.contains(field) else { break }
                    guard let value = JSONValue(parsing: reader.bytes.string(start..<reader.index)),
                        let read = FieldValue(field, json: value)
                    else { throw .problem(.wrongType(key)) }
                    more[field] = read
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
        // The title as given, as Taskwarrior's and todo.txt's are: an export of navstack's
        // imports back exactly (a blank one is refused by the rules).
        let kept = (uuid ?? nil)?.lowercased()
        more.title = rawTitle
        more.notes = text
        var problem = FieldRules.problem(in: more).map(ImportError.Record.value)
        if let kept {
            if !kept.isUUID {
                problem = problem ?? .notAUUID
            } else if !uuids.insert(kept).inserted {
                problem = problem ?? .duplicateUUID(kept)
            }
        }
        if let problem {
            bad.add(BadRecord(.record(number), uuid: kept.flatMap { $0.isUUID ? $0 : nil }, title: rawTitle, problem))
        }
        if let parent {
            parents[number] = .record(parent)
        } else if let given {
            parents[number] = given
        }
        more.done = (done ?? nil) ?? false
        var record = ImportRecord(more, uuid: kept)
        record.stamps = stamps
        return record
    }

    /// The records of a `subtasks` array (or none for null), each nested in record
    /// `parent`, put in ``records`` after a stand-in for it.
    private mutating func subtasks(depth: Int, of parent: Int) throws(Stop) {
        if reader.literal("null") { return }
        guard reader.peek == UInt8(ascii: "[") else {
            try skipValue(depth: depth)
            throw .problem(.wrongType("subtasks"))
        }
        guard depth < JSONReader.maximumDepth else { throw .json(.tooDeep(at: reader.index)) }
        reader.index += 1
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "]") {
            reader.index += 1
            return
        }
        if records.count == parent { records.append(ImportRecord(DraftFields())) }
        while true {
            reader.skipBlanks()
            try place(depth: depth + 2, under: parent)
            current = parent
            reader.skipBlanks()
            if reader.peek == UInt8(ascii: "]") {
                reader.index += 1
                return
            }
            try expect(UInt8(ascii: ","))
        }
    }

    /// A top-level record's `parent`: null, a record's number (a whole number from 0), or
    /// a uuid.
    private mutating func parentValue(depth: Int) throws(Stop) -> ImportParent? {
        guard let byte = reader.peek else { throw .json(.unexpectedEnd) }
        switch byte {
        case UInt8(ascii: "\""):
            let text = try string().lowercased()
            guard text.isUUID else { throw .problem(.badParent) }
            return .task(uuid: text)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number: (range: Range<Int>, whole: Bool)
            do throws(JSONError) { number = try reader.number() } catch { throw .json(error) }
            guard number.whole, byte != UInt8(ascii: "-") else { throw .problem(.badParent) }
            // Past any record there can be: saturated rather than wrapped.
            var value = 0
            for index in number.range {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times.addingReportingOverflow(Int(reader.bytes[index] - UInt8(ascii: "0")))
                value = overflow || carry ? Int.max : sum
            }
            return .record(value)
        default:
            if reader.literal("null") { return nil }
            try skipValue(depth: depth)
            throw .problem(.wrongType("parent"))
        }
    }

    // MARK: - The reader's pieces, their failures as stops

    /// The fields beyond the title, the notes and `done` a record may hold.
    static let attributeFields = Set(TaskField.allCases.dropFirst(3))

    /// The keys a record has, quoted, and their names.
    private static let knownKeys: [(quoted: StaticString, name: String)] = [
        ("\"title\"", "title"), ("\"notes\"", "notes"), ("\"done\"", "done"), ("\"uuid\"", "uuid"),
        ("\"parent\"", "parent"), ("\"subtasks\"", "subtasks"),
    ]

    /// A key: the known ones matched on their bytes (a million records have them all),
    /// others (or a known one written with escapes) read as any string.
    private mutating func keyName() throws(Stop) -> String {
        let rest = reader.end - reader.index
        for (quoted, name) in Self.knownKeys where rest >= quoted.utf8CodeUnitCount {
            if reader.bytes.view(reader.index..<reader.index + quoted.utf8CodeUnitCount).hasSameBytes(as: quoted.bytes) {
                reader.index += quoted.utf8CodeUnitCount
                return name
            }
        }
        return try string()
    }

    private mutating func expect(_ byte: UInt8) throws(Stop) {
        do throws(JSONError) { try reader.expect(byte) } catch { throw .json(error) }
    }

    private mutating func string() throws(Stop) -> String {
        do throws(JSONError) { return try reader.string() } catch { throw .json(error) }
    }

    private mutating func skipValue(depth: Int) throws(Stop) {
        do throws(JSONError) { try reader.skipValue(depth: depth) } catch { throw .json(error) }
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

/// The tree an import's records make, checked: every `parent` names another record of
/// the input (a uuid that a record gives names that record) or a task the store must
/// have, no record is under itself, and none is deeper than ``TreeLimits/depth`` levels
/// counting from the top of the input. The first bad record, in order, fails the input.
struct ImportTree {
    /// How many records of the input are above each record.
    private(set) var levels: [Int]
    /// The record at the top of each record's chain in the input: its parent is `nil`
    /// or a task of the store.
    private(set) var tops: [Int]
    /// How many records are under each record, and how many of those are done.
    private(set) var subtasks: [SubtaskCounts]

    /// Checks the input's tree, turning a uuid parent that a record gives into that
    /// record's number.
    init(_ input: inout ImportInput) throws(ImportError) {
        let count = input.records.count
        if input.parents.isEmpty { input.parents = Array(repeating: nil, count: count) }
        var numbers: [String: Int]?
        for index in 0..<count {
            guard let parent = input.parents[index] else { continue }
            var number: Int
            switch parent {
            case .record(let given):
                number = given
            case .task(let uuid):
                if numbers == nil {
                    numbers = [:]
                    for (number, record) in input.records.enumerated() {
                        if let uuid = record.uuid { numbers![uuid] = number }
                    }
                }
                guard let found = numbers![uuid] else { continue }
                number = found
                input.parents[index] = .record(number)
            }
            guard number != index else { throw .badRecord(index: index, .parentIsItself) }
            guard number < count else { throw .badRecord(index: index, .parentOutOfRange(number, count: count)) }
        }
        // Each record's level: its chain is followed up to a record whose level is known
        // or to the top; meeting a record of the chain again is a cycle.
        let unknown = -1, onChain = -2
        levels = Array(repeating: unknown, count: count)
        tops = Array(repeating: 0, count: count)
        subtasks = Array(repeating: SubtaskCounts(), count: count)
        var chain: [Int] = []
        for index in 0..<count {
            var next = index
            while levels[next] < 0 {
                guard levels[next] == unknown else { throw .badRecord(index: index, .parentCycle) }
                levels[next] = onChain
                chain.append(next)
                guard case .record(let parent) = input.parents[next] else { break }
                next = parent
            }
            var (level, top) = levels[next] >= 0 ? (levels[next], tops[next]) : (-1, next)
            for record in chain.reversed() {
                level += 1
                levels[record] = level
                tops[record] = top
            }
            chain.removeAll(keepingCapacity: true)
            guard levels[index] < TreeLimits.depth else {
                throw .badRecord(index: index, .tooDeep(depth: levels[index] + 1))
            }
            if case .record(let parent) = input.parents[index] {
                subtasks[parent].total += 1
                if input.records[index].fields.done { subtasks[parent].done += 1 }
            }
        }
    }
}
