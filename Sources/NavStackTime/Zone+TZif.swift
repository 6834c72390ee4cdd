/// Reading a TZif file (RFC 9636; the tz database's `zic` writes them), versions 1 to 4.
///
/// From version 2 on a file holds its data twice, with 32-bit then 64-bit times, and ends
/// with a footer holding a POSIX TZ string; the 64-bit data and the footer are what is
/// kept. A version 1 file has only the 32-bit data (and so nothing past 2038).
///
/// Every count is checked against the bytes there are before anything is read, indices
/// and offsets against their ranges, and transitions must ascend: a damaged or hostile
/// file is refused with ``ZoneError/malformed(_:_:)``, never trusted and never a crash. Leap-second
/// records are skipped: instants are POSIX time, which counts none (the `right/` zones
/// are not meant for it).
extension Zone {
    /// The zone a TZif file's bytes describe, named `name`.
    public init(tzif bytes: [UInt8], name: String) throws(ZoneError) {
        var reader = TZifReader(bytes: bytes, name: name)
        let first = try reader.header()
        var block = try reader.block(first, timeSize: 4)
        var rule: POSIXRule?
        if first.version >= 2 {
            let second = try reader.header()
            block = try reader.block(second, timeSize: 8)
            rule = try reader.footer()
        }
        self.init(name: name, transitions: block.transitions, transitionTypes: block.transitionTypes, types: block.types, rule: rule)
    }
}

/// A TZif header: the version and the six counts.
private struct TZifHeader {
    var version: Int
    var isUTCCount: Int
    var isStandardCount: Int
    var leapCount: Int
    var timeCount: Int
    var typeCount: Int
    var charCount: Int
}

/// A data block's contents, as kept.
private struct TZifBlock {
    var transitions: [Int64]
    var transitionTypes: [Int]
    var types: [LocalTimeType]
}

/// Reads big-endian numbers from the file's bytes, each read checked against the end.
private struct TZifReader {
    let bytes: [UInt8]
    /// The zone's name, for the error.
    let name: String
    var index = 0

    /// The file `name` refused for `defect`.
    func malformed(_ defect: ZoneError.Defect) -> ZoneError {
        .malformed(name, defect)
    }

    mutating func header() throws(ZoneError) -> TZifHeader {
        guard index + 44 <= bytes.count else { throw malformed(index == 0 ? .notTZif : .truncated) }
        guard bytes[index..<index + 4].elementsEqual("TZif".utf8) else { throw malformed(.notTZif) }
        let versionByte = bytes[index + 4]
        let version: Int
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "4"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw malformed(.unknownVersion(versionByte))
        }
        index += 20
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try uint32())) }
        return TZifHeader(
            version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5]
        )
    }

    mutating func block(_ header: TZifHeader, timeSize: Int) throws(ZoneError) -> TZifBlock {
        // Counts come from 32-bit fields, so this sum cannot overflow an Int.
        let size =
            header.timeCount * (timeSize + 1) + header.typeCount * 6 + header.charCount
            + header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
        guard index + size <= bytes.count else { throw malformed(.truncated) }
        guard header.typeCount >= 1, header.typeCount <= 256 else { throw malformed(.invalid("type count \(header.typeCount)")) }
        guard header.charCount >= 1 else { throw malformed(.invalid("abbreviation count 0")) }
        guard header.isStandardCount == 0 || header.isStandardCount == header.typeCount,
            header.isUTCCount == 0 || header.isUTCCount == header.typeCount
        else { throw malformed(.invalid("indicator counts")) }

        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let time = timeSize == 8 ? Int64(bitPattern: try uint64()) : Int64(Int32(bitPattern: try uint32()))
            if let last = transitions.last, time <= last { throw malformed(.invalid("transitions out of order")) }
            transitions.append(time)
        }
        var transitionTypes: [Int] = []
        transitionTypes.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let type = Int(try uint8())
            guard type < header.typeCount else { throw malformed(.invalid("type index \(type)")) }
            transitionTypes.append(type)
        }
        var rawTypes: [(offset: Int, isDST: Bool, nameIndex: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = Int(Int32(bitPattern: try uint32()))
            // RFC 9636 §3.2: within 25 hours west and 26 hours east.
            guard (-89_999...93_599).contains(offset) else { throw malformed(.invalid("offset \(offset)")) }
            let isDST = try uint8()
            guard isDST <= 1 else { throw malformed(.invalid("DST flag \(isDST)")) }
            let nameIndex = Int(try uint8())
            guard nameIndex < header.charCount else { throw malformed(.invalid("abbreviation index \(nameIndex)")) }
            rawTypes.append((offset, isDST == 1, nameIndex))
        }
        let names = bytes[index..<index + header.charCount]
        index += header.charCount
        let types = rawTypes.map { raw in
            let start = names.startIndex + raw.nameIndex
            let end = names[start...].firstIndex(of: 0) ?? names.endIndex
            return LocalTimeType(
                utcOffset: raw.offset, isDaylightSaving: raw.isDST, abbreviation: String(decoding: names[start..<end], as: UTF8.self)
            )
        }
        index += header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
        return TZifBlock(transitions: transitions, transitionTypes: transitionTypes, types: types)
    }

    /// The footer: a newline, a TZ string (perhaps empty: no rule), a newline.
    mutating func footer() throws(ZoneError) -> POSIXRule? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { throw malformed(.truncated) }
        guard let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\n")) else { throw malformed(.truncated) }
        let text = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        if text.isEmpty { return nil }
        guard let rule = POSIXRule(text) else { throw malformed(.badFooter(text)) }
        return rule
    }

    private mutating func uint8() throws(ZoneError) -> UInt8 {
        guard index < bytes.count else { throw malformed(.truncated) }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func uint32() throws(ZoneError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw malformed(.truncated) }
        defer { index += 4 }
        return bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private mutating func uint64() throws(ZoneError) -> UInt64 {
        guard index + 8 <= bytes.count else { throw malformed(.truncated) }
        defer { index += 8 }
        return bytes[index..<index + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
