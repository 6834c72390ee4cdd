import NavStackCore
import NavStackTime

/// An account's registers as one replica held them when it had applied every operation
/// through ``seq`` and had nothing left to send (docs/sync.md, "Snapshots"): merged into a
/// replica's own registers field by field (``SyncRegister/merge(_:replica:)``), it stands
/// for every operation through `seq`, so a new or long-away replica takes it and only the
/// operations after it, and the server may drop those it covers. It travels sealed: the
/// server keeps one an account and cannot read it.
public struct SyncSnapshot: Equatable, Sendable {
    /// The account's `server_seq` it covers through.
    public var seq: Int64
    /// The content (``content(of:)``) sealed for the account, as base64 text.
    public var sealed: String
    /// The registers, once the snapshot is opened (empty while sealed).
    public var registers: [SyncRegister]

    public init(seq: Int64, sealed: String, registers: [SyncRegister] = []) {
        self.seq = seq
        self.sealed = sealed
        self.registers = registers
    }

    /// The most base64 text a sealed snapshot may be: with nothing else, a request holds
    /// it within ``SyncLimits/maximumBodyBytes``. A replica whose snapshot would be larger
    /// makes none (the account keeps its whole log).
    public static let maximumSealedBytes = 6 << 20

    /// The fewest operations since the account's snapshot (or its start) for which a
    /// replica makes a new one.
    public static let leastOperations = 1000

    /// Whether a replica holding `registers` makes a snapshot when the account took
    /// `since` operations since its last: when they are at least ``leastOperations`` and
    /// half as many as the registers. Then whoever joins reads the registers and at most
    /// half as many operations again (the account's size, not its history), and
    /// snapshots cost a replica about one register written for two operations.
    public static func isDue(since: Int64, registers: Int, least: Int = leastOperations) -> Bool {
        since >= Int64(least) && since >= Int64(registers / 2)
    }

    /// Whether a snapshot of `registers` registers whose texts (uuids, titles, notes,
    /// parents) take `textBytes` may seal within `limit` bytes: its content is those
    /// texts and 40 bytes more a register at least for a task that was ever created (its
    /// six stamps take 7 to 10 bytes each; only a register no create ever set, whose
    /// stamps are empty, takes less), and base64 makes 4 bytes of every 3.
    public static func mayFit(registers: Int, textBytes: Int, within limit: Int = maximumSealedBytes) -> Bool {
        (textBytes + 40 * registers) / 3 * 4 <= limit
    }

    /// The most base64 text a sealed snapshot made by automatic sync may be: it has 2 s
    /// at most, after each command, and must not take them on every command of a slow
    /// link (a larger account's snapshots are made by `navstack sync`).
    public static let automaticSealedBytes = 1 << 20

    /// Whether a pull after `after` starts from the account's snapshot through `seq`, the
    /// operations through `trimmed` dropped: a new replica's does, and one whose `after`
    /// is among the dropped operations must; one just behind the snapshot pulls the
    /// operations, kept until the next. (The server's page statement says the same in SQL.)
    public static func startsPull(after: Int64, snapshot seq: Int64, trimmed: Int64) -> Bool {
        seq > after && (after == 0 || after < trimmed)
    }

    /// Whether the server keeps a snapshot through `seq`, covering `covering` of the
    /// operations the account took, in place of the one it holds (`held`: its seq and
    /// what it covers), the account's highest `server_seq` being `highest`: when it covers
    /// no more than the account holds and at least `least` operations more than the one it
    /// replaces. (The server's statement says the same in SQL.)
    public static func replaces(
        seq: Int64, covering: Int64, held: (seq: Int64, covering: Int64)?, highest: Int64, least: Int = leastOperations
    ) -> Bool {
        guard let held else { return seq <= highest }
        return seq <= highest && seq > held.seq && covering - held.covering >= Int64(least)
    }

    // MARK: - Content

    /// The registers as bytes: a version byte, the replicas their stamps name (each once),
    /// then each register: uuid, flags, and each field's value with its stamp (a replica's
    /// place in that list, millis and counter), numbers as LEB128. About a third of the
    /// same registers as JSON with stamps as text.
    public static func content(of registers: [SyncRegister]) -> [UInt8] {
        var writer = ContentWriter()
        var replicas: [Substring: Int] = [:]
        var order: [Substring] = []
        for register in registers {
            for stamp in register.stamps where !stamp.isEmpty {
                let replica = Stamp.replica(of: stamp)
                if replicas[replica] == nil {
                    replicas[replica] = order.count
                    order.append(replica)
                }
            }
        }
        writer.byte(Self.version)
        writer.number(order.count)
        for replica in order { writer.text(replica) }
        writer.number(registers.count)
        for register in registers {
            writer.text(register.uuid[...])
            var flags: UInt8 = 0
            if register.alive { flags |= 1 }
            if register.fields.done { flags |= 2 }
            if register.parent != nil { flags |= 4 }
            if register.parentOld != nil { flags |= 8 }
            // Format 2's fields, those some operation set.
            let more = TaskField.allCases.dropFirst(3).filter { !register.fieldsAt[SyncRegister.index($0)].isEmpty }
            if !more.isEmpty { flags |= 16 }
            // Format 3's stamps, those some operation set.
            let stamps = StampField.allCases.filter { !register.taskStampsAt[$0.index].isEmpty }
            if !stamps.isEmpty { flags |= 32 }
            writer.byte(flags)
            func stamp(_ text: String) {
                guard let (millis, counter) = Stamp.parts(of: text), let index = replicas[Stamp.replica(of: text)] else {
                    writer.number(0)
                    return
                }
                writer.number(index + 1)
                writer.number(millis)
                writer.number(counter)
            }
            stamp(register.aliveAt)
            writer.text(register.fields.title[...])
            stamp(register.fieldsAt[0])
            writer.text(register.fields.notes[...])
            stamp(register.fieldsAt[1])
            stamp(register.fieldsAt[2])
            if let parent = register.parent { writer.text(parent[...]) }
            if let old = register.parentOld { writer.text(old[...]) }
            stamp(register.parentAt)
            writer.unsigned(UInt64(bitPattern: Int64(register.position) << 1 ^ Int64(register.position) >> 63))
            stamp(register.positionAt)
            if !stamps.isEmpty {
                // Each: its place, its stamp, whether it holds an instant, the seconds.
                writer.number(stamps.count)
                for field in stamps {
                    writer.number(field.index)
                    stamp(register.taskStampsAt[field.index])
                    if let instant = register.taskStamps[field] {
                        writer.byte(1)
                        let seconds = instant.secondsSinceEpoch
                        writer.unsigned(UInt64(bitPattern: seconds << 1 ^ seconds >> 63))
                    } else {
                        writer.byte(0)
                    }
                }
            }
            guard !more.isEmpty else { continue }
            writer.number(more.count)
            for field in more {
                writer.number(SyncRegister.index(field))
                stamp(register.fieldsAt[SyncRegister.index(field)])
                guard field.isSet else {
                    writer.text(register.fields[field].json[...])
                    continue
                }
                // A set: each element, removed ones too (a replica that never saw the
                // removal must not take the element back), in key order.
                let elements = (register.elements[field] ?? [:]).sorted { $0.key < $1.key }
                writer.number(elements.count)
                for (_, element) in elements {
                    writer.byte(element.present ? 1 : 0)
                    stamp(element.at)
                    writer.text(element.item[...])
                }
            }
        }
        return writer.bytes
    }

    /// Why content cannot be read: what the sealed payload holds is not a snapshot.
    static let unreadable = SyncWireError.badSealed(path: "snapshot")

    /// Reads ``content(of:)``. Everything is checked as an operation's payload is: a
    /// register with a task id that is not a uuid, a value the app would refuse, a stamp
    /// that names no replica, or bytes past the end make the whole snapshot unreadable
    /// (``unreadable``).
    public static func registers(from bytes: [UInt8]) throws(SyncWireError) -> [SyncRegister] {
        var reader = ContentReader(bytes: bytes)
        // Version 1 (format 2) holds no stamps; it is read all the same.
        let version = try reader.byte()
        guard version == Self.version || version == 1 else { throw Self.unreadable }
        let replicaCount = try reader.number()
        // Every replica takes at least 33 bytes, every register at least 8: counts the
        // bytes cannot hold are refused before anything is reserved for them.
        guard replicaCount <= bytes.count / 33 else { throw Self.unreadable }
        var replicas: [String] = []
        for _ in 0..<replicaCount {
            let replica = try reader.text()
            guard replica.utf8.count == 32, replica.utf8.allSatisfy(\.isLowercaseHexDigit) else { throw Self.unreadable }
            replicas.append(replica)
        }
        let count = try reader.number()
        // A register takes at least 46 bytes: its uuid and length (37), its flags, six
        // stamps, two texts' lengths and its position (a byte each at least).
        guard count <= bytes.count / 46 else { throw Self.unreadable }
        var registers: [SyncRegister] = []
        registers.reserveCapacity(count)
        var seen = Set<String>()
        // The stamp read last, as text: most registers hold one stamp six times (a create
        // and nothing since), written once and shared.
        var last: (index: Int, millis: Int, counter: Int, text: String) = (0, 0, 0, "")
        for _ in 0..<count {
            func stamp() throws(SyncWireError) -> String {
                let index = try reader.number()
                guard index > 0 else { return "" }
                let millis = try reader.number()
                let counter = try reader.number()
                // Within a stamp text's 15 and 10 digits, which order stamps as text.
                guard index <= replicas.count, millis < 1_000_000_000_000_000, counter <= SyncClock.maximumCounter else {
                    throw Self.unreadable
                }
                if last.index != index || last.millis != millis || last.counter != counter {
                    last = (index, millis, counter, Stamp.text(millis: millis, counter: counter, replica: replicas[index - 1]))
                }
                return last.text
            }
            let uuid = try reader.text()
            guard FieldRules.isTaskID(uuid), seen.insert(uuid).inserted else { throw Self.unreadable }
            var register = SyncRegister(uuid: uuid)
            let flags = try reader.byte()
            guard flags & ~(version == 1 ? 31 : 63) == 0 else { throw Self.unreadable }
            register.alive = flags & 1 != 0
            register.aliveAt = try stamp()
            let title = try reader.text()
            register.fieldsAt[0] = try stamp()
            let notes = try reader.text()
            register.fieldsAt[1] = try stamp()
            register.fieldsAt[2] = try stamp()
            register.fields = DraftFields(title: title, notes: notes, done: flags & 2 != 0)
            if flags & 4 != 0 { register.parent = try reader.text() }
            // Where a move took the task from: text that is not a task id stands for none,
            // as it does in an operation (the same place, the top, everywhere).
            if flags & 8 != 0 { register.parentOld = try reader.text() }
            if let old = register.parentOld, !FieldRules.isTaskID(old) { register.parentOld = nil }
            register.parentAt = try stamp()
            let zigzag = try reader.unsigned()
            register.position = Int(Int64(bitPattern: zigzag >> 1 ^ (0 &- (zigzag & 1))))
            register.positionAt = try stamp()
            if flags & 32 != 0 {
                let count = try reader.number()
                guard (1...StampField.allCases.count).contains(count) else { throw Self.unreadable }
                for _ in 0..<count {
                    let index = try reader.number()
                    guard index < StampField.allCases.count, register.taskStampsAt[index].isEmpty else { throw Self.unreadable }
                    let field = StampField.allCases[index]
                    register.taskStampsAt[index] = try stamp()
                    guard !register.taskStampsAt[index].isEmpty else { throw Self.unreadable }
                    switch try reader.byte() {
                    case 0:
                        register.taskStamps[field] = nil
                    case 1:
                        let zigzag = try reader.unsigned()
                        let instant = Instant(secondsSinceEpoch: Int64(bitPattern: zigzag >> 1 ^ (0 &- (zigzag & 1))))
                        guard FieldRules.isStamp(instant) else { throw Self.unreadable }
                        register.taskStamps[field] = instant
                    default:
                        throw Self.unreadable
                    }
                }
            }
            if flags & 16 != 0 {
                let more = try reader.number()
                guard (1...TaskField.allCases.count - 3).contains(more) else { throw Self.unreadable }
                for _ in 0..<more {
                    let index = try reader.number()
                    guard (3..<TaskField.allCases.count).contains(index), register.fieldsAt[index].isEmpty else { throw Self.unreadable }
                    let field = TaskField.allCases[index]
                    register.fieldsAt[index] = try stamp()
                    if field.isSet {
                        let count = try reader.number()
                        guard count <= bytes.count / 3 else { throw Self.unreadable }
                        var known: [String: SetElement] = [:]
                        for _ in 0..<count {
                            let present = try reader.byte()
                            guard present <= 1 else { throw Self.unreadable }
                            let at = try stamp()
                            let item = try reader.text()
                            guard let value = FieldValue.set(field, items: [item]), FieldRules.takes(value, as: field),
                                let key = value.setItems.first?.key, known[key] == nil
                            else { throw Self.unreadable }
                            known[key] = SetElement(item: item, present: present == 1, at: at)
                        }
                        register.elements[field] = known
                        register.settle(field)
                        continue
                    }
                    guard let json = JSONValue(parsing: try reader.text()), let value = FieldValue(field, json: json),
                        FieldRules.takes(value, as: field)
                    else { throw Self.unreadable }
                    register.fields[field] = value
                }
            }
            guard register.holdsWhatTheAppTakes else { throw Self.unreadable }
            registers.append(register)
        }
        guard reader.isAtEnd else { throw Self.unreadable }
        return registers
    }

    /// The content's version: the first byte. 2 (format 3) adds each register's stamps
    /// (flag 32); a snapshot of version 1 is still read.
    static let version: UInt8 = 2
}

extension SyncRegister {
    /// Its stamps, those set: alive, each field's, parent, position, and the elements'
    /// of its sets.
    public var stamps: [String] {
        ([aliveAt] + fieldsAt + [parentAt, positionAt] + elements.values.flatMap { $0.values.map(\.at) } + taskStampsAt).filter {
            !$0.isEmpty
        }
    }

    /// Whether every value set by an operation is one the app takes, as operations are
    /// checked (``SyncChange/init(_:)``); a field no operation has set holds its default.
    var holdsWhatTheAppTakes: Bool {
        (fieldsAt[0].isEmpty || FieldRules.problem(fields.title, as: .title) == nil)
            && (fieldsAt[1].isEmpty ? fields.notes.isEmpty : FieldRules.problem(fields.notes, as: .notes) == nil)
            && (fieldsAt[0].isEmpty ? fields.title.isEmpty : true)
            && (fieldsAt[2].isEmpty ? !fields.done : true)
            && parent.map { FieldRules.isTaskID($0) && $0 != uuid } ?? true

            && (aliveAt.isEmpty ? !alive : true)
    }

    /// Merges `other` (a snapshot's register of the same task) field by field, as
    /// applying every operation it stands for would: each value whose stamp is later than
    /// this one's wins. Returns the fields whose value set by `replica` (this one) lost to
    /// another value: a snapshot does not say whether its writer had seen the local
    /// value, so each is counted as lost (and can be undone).
    public mutating func merge(_ other: SyncRegister, replica: String) -> [String] {
        var lost: [String] = []
        func isMine(_ at: String) -> Bool { !at.isEmpty && Stamp.replica(of: at) == replica }
        let wasAlive = alive
        if other.aliveAt > aliveAt, wasAlive, !other.alive,
            TaskField.allCases.contains(where: { field in
                let index = Self.index(field)
                return isMine(fieldsAt[index]) && other.fieldsAt[index] <= fieldsAt[index]
            })
        {
            lost.append("task")
        }
        for field in TaskField.allCases {
            if field.isSet {
                mergeSet(field, from: other)
                continue
            }
            let index = Self.index(field)
            guard other.fieldsAt[index] > fieldsAt[index] else { continue }
            if wasAlive && isMine(fieldsAt[index]) && fields[field] != other.fields[field] { lost.append(field.rawValue) }
            fields[field] = other.fields[field]
            fieldsAt[index] = other.fieldsAt[index]
        }
        if other.parentAt > parentAt {
            if wasAlive && isMine(parentAt) && parent != other.parent { lost.append("parent") }
            parent = other.parent
            parentOld = other.parentOld
            parentAt = other.parentAt
        }
        if other.positionAt > positionAt {
            position = other.position
            positionAt = other.positionAt
        }
        mergeStamps(from: other)
        if other.aliveAt > aliveAt {
            alive = other.alive
            aliveAt = other.aliveAt
        }
        return lost
    }
}

/// Bytes of snapshot content being written.
private struct ContentWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// A whole number from 0, as LEB128.
    mutating func number(_ value: Int) {
        unsigned(UInt64(max(0, value)))
    }

    /// Any 64 bits, as LEB128.
    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// UTF-8 text after its length.
    mutating func text(_ value: Substring) {
        number(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }
}

/// Bytes of snapshot content being read; anything past the end is unreadable.
private struct ContentReader {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    mutating func byte() throws(SyncWireError) -> UInt8 {
        guard index < bytes.count else { throw SyncSnapshot.unreadable }
        defer { index += 1 }
        return bytes[index]
    }

    /// A whole number written by ``ContentWriter/number(_:)``, at most `Int64.max`.
    mutating func number() throws(SyncWireError) -> Int {
        let value = try unsigned()
        guard value <= UInt64(Int64.max) else { throw SyncSnapshot.unreadable }
        return Int(value)
    }

    /// 64 bits written by ``ContentWriter/unsigned(_:)``: ten bytes at most, the tenth
    /// holding the last bit.
    mutating func unsigned() throws(SyncWireError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 63 || (shift == 63 && next <= 1) else { throw SyncSnapshot.unreadable }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { break }
            shift += 7
        }
        return value
    }

    /// Text written by ``ContentWriter/text(_:)``: valid UTF-8 within the bytes left.
    mutating func text() throws(SyncWireError) -> String {
        let length = try number()
        guard length <= bytes.count - index else { throw SyncSnapshot.unreadable }
        let slice = bytes[index..<index + length]
        index += length
        guard let text = String(validating: slice, as: UTF8.self) else { throw SyncSnapshot.unreadable }
        return text
    }
}
