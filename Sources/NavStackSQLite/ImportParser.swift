import NavStackCore

/// Reads import files fast: a JSON array of records, or JSON Lines (one record a line).
/// A record is an object with `title` (string), and optionally `notes` (string or
/// null) and `done` (true, false or null); other keys are read and ignored.
struct ImportParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var end: Int

    /// Why a part of the input was refused; `record` is set when the failure is inside a
    /// record that was otherwise well-formed JSON so far.
    struct Failure: Error {
        var message: String
        var inRecord: Bool
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.end = bytes.count
    }

    /// Parses a whole file into records.
    static func parse(_ data: [UInt8]) throws(ImportError) -> [DraftFields] {
        let result: Result<[DraftFields], ImportError> = data.withUnsafeBufferPointer { bytes in
            var parser = ImportParser(bytes)
            do throws(ImportError) {
                return .success(try parser.records())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func records() throws(ImportError) -> [DraftFields] {
        var records: [DraftFields] = []
        skipBlanks()
        if index < end && bytes[index] == UInt8(ascii: "[") {
            index += 1
            skipBlanks()
            if peek == UInt8(ascii: "]") { index += 1 } else {
                while true {
                    do throws(Failure) {
                        records.append(try record(number: records.count))
                    } catch let failure {
                        throw failure.inRecord ? .badRecord(index: records.count, reason: failure.message)
                            : .notJSON(failure.message)
                    }
                    skipBlanks()
                    guard index < end else { throw .notJSON("the array is not closed") }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                    guard bytes[index] == UInt8(ascii: ",") else { throw .notJSON(unexpected()) }
                    index += 1
                    skipBlanks()
                }
            }
            skipBlanks()
            guard index == end else { throw .notJSON("text after the array: " + unexpected()) }
            return records
        }
        // JSON Lines: one record a line; blank lines are skipped.
        let total = end
        var lineStart = 0
        while lineStart < total {
            var lineEnd = lineStart
            while lineEnd < total && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            index = lineStart
            end = lineEnd
            skipBlanks()
            if index < end {
                do throws(Failure) {
                    records.append(try record(number: records.count))
                    skipBlanks()
                    guard index == end else { throw Failure(message: "text after the record: " + unexpected(), inRecord: true) }
                } catch let failure {
                    throw .badRecord(index: records.count, reason: failure.inRecord ? failure.message : "not JSON (\(failure.message))")
                }
            }
            lineStart = lineEnd + 1
        }
        end = total
        return records
    }

    /// One record, checked.
    private mutating func record(number: Int) throws(Failure) -> DraftFields {
        guard peek == UInt8(ascii: "{") else {
            if index < end, [UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "t"), UInt8(ascii: "f"),
                             UInt8(ascii: "n"), UInt8(ascii: "-")].contains(bytes[index]) || (bytes[index] >= 0x30 && bytes[index] <= 0x39) {
                try skipValue()
                throw Failure(message: "not an object", inRecord: true)
            }
            throw Failure(message: unexpected(), inRecord: false)
        }
        index += 1
        var title: String??
        var notes: String??
        var done: Bool??
        skipBlanks()
        if peek == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipBlanks()
                let key = try string()
                skipBlanks()
                try expect(UInt8(ascii: ":"))
                skipBlanks()
                switch key {
                case "title": title = .some(try optionalString(key))
                case "notes": notes = .some(try optionalString(key))
                case "done": done = .some(try optionalBool(key))
                default: try skipValue()
                }
                skipBlanks()
                if peek == UInt8(ascii: "}") { index += 1; break }
                try expect(UInt8(ascii: ","))
            }
        }
        guard case .some(.some(let rawTitle)) = title else {
            throw Failure(message: title == nil ? "no title" : "title has the wrong type", inRecord: true)
        }
        let trimmed = rawTitle.trimmed
        guard !trimmed.isEmpty else { throw Failure(message: "the title is blank", inRecord: true) }
        guard trimmed.count <= Limits.titleCharacters else {
            throw Failure(message: "the title is longer than \(Limits.titleCharacters) characters", inRecord: true)
        }
        let text = (notes ?? nil) ?? ""
        guard text.utf8.count <= Limits.notesCharacters || text.count <= Limits.notesCharacters else {
            throw Failure(message: "the notes are longer than \(Limits.notesCharacters) characters", inRecord: true)
        }
        return DraftFields(title: trimmed, notes: text, done: (done ?? nil) ?? false)
    }

    // MARK: - JSON pieces

    private var peek: UInt8? { index < end ? bytes[index] : nil }

    private mutating func skipBlanks() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func unexpected() -> String {
        index < end ? "unexpected '\(String(decoding: [bytes[index]], as: UTF8.self).escapedForDisplay)' at byte \(index)"
            : "unexpected end of input"
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek == byte else { throw Failure(message: unexpected(), inRecord: false) }
        index += 1
    }

    private mutating func optionalString(_ key: String) throws(Failure) -> String? {
        if peek == UInt8(ascii: "\"") { return try string() }
        if try literal("null") { return nil }
        try skipValue()
        throw Failure(message: "\(key) has the wrong type", inRecord: true)
    }

    private mutating func optionalBool(_ key: String) throws(Failure) -> Bool? {
        if try literal("true") { return true }
        if try literal("false") { return false }
        if try literal("null") { return nil }
        try skipValue()
        throw Failure(message: "\(key) has the wrong type", inRecord: true)
    }

    /// Reads `word` if it is next.
    private mutating func literal(_ word: StaticString) throws(Failure) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= end else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A JSON string, escapes decoded.
    private mutating func string() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < end, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw Failure(message: "a control character in a string at byte \(index)", inRecord: false) }
            index += 1
        }
        guard index < end else { throw Failure(message: "a string is not closed", inRecord: false) }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<index])
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                do throws(JSONEscape.Failure) {
                    // Within the line (JSON Lines) or the whole input.
                    try JSONEscape.decode(UnsafeBufferPointer(rebasing: bytes[0..<end]), at: &index, into: &utf8)
                } catch .badHex {
                    throw Failure(message: "a bad \\u escape", inRecord: false)
                } catch {
                    throw Failure(message: "a bad escape in a string at byte \(index - 1)", inRecord: false)
                }
            default:
                guard byte >= 0x20 else { throw Failure(message: "a control character in a string at byte \(index - 1)", inRecord: false) }
                utf8.append(byte)
            }
        }
        throw Failure(message: "a string is not closed", inRecord: false)
    }

    /// Reads past any JSON value.
    private mutating func skipValue() throws(Failure) {
        skipBlanks()
        guard let byte = peek else { throw Failure(message: unexpected(), inRecord: false) }
        switch byte {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipBlanks()
            if peek == close { index += 1; return }
            while true {
                if close == UInt8(ascii: "}") {
                    skipBlanks()
                    _ = try string()
                    skipBlanks()
                    try expect(UInt8(ascii: ":"))
                }
                try skipValue()
                skipBlanks()
                if peek == close { index += 1; return }
                try expect(UInt8(ascii: ","))
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let known = try literal("true") ? true : try literal("false") ? true : try literal("null")
            guard known else { throw Failure(message: unexpected(), inRecord: false) }
        default:
            let start = index
            while index < end, let b = peek, b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
                    || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") || (b >= 0x30 && b <= 0x39) {
                index += 1
            }
            guard index > start else { throw Failure(message: unexpected(), inRecord: false) }
        }
    }
}
