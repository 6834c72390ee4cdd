import Foundation
import GRDB
import NavStackCore

/// One record of an import file.
struct ImportRecord: Decodable {
    var title: String
    var notes: String?
    var done: Bool?
}

/// Why an import was refused; nothing was added.
public enum ImportError: Error, Equatable, CustomStringConvertible, Sendable {
    case notJSON(String)
    case badRecord(index: Int, reason: String)
    case noProfile

    public var description: String {
        switch self {
        case .notJSON(let reason): "the input is not a JSON array or JSON Lines: \(reason)"
        case .badRecord(let index, let reason): "record \(index): \(reason); nothing was imported"
        case .noProfile: "no one is signed in: name the profile with --user NAME"
        }
    }
}

extension SQLiteStore {
    /// The profile `import` and `export` work on: the one named, else the signed-in one.
    public func profile(named name: String?) throws -> String {
        if let name { return name }
        let user = try reading { db in try String.fetchOne(db, sql: "SELECT user FROM session WHERE id = 1") }
        guard let user else { throw ImportError.noProfile }
        return user
    }

    /// Reads tasks from a JSON array or JSON Lines of `{"title", "notes"?, "done"?}`
    /// (other keys, such as an exported `id`, are ignored). Records are numbered from 0;
    /// the first bad one fails the whole input.
    public static func parseImport(_ data: Data) throws(ImportError) -> [DraftFields] {
        let blanks: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        let decoder = JSONDecoder()
        var records: [ImportRecord] = []
        if data.first(where: { !blanks.contains($0) }) == UInt8(ascii: "[") {
            do {
                records = try decoder.decode([ImportRecord].self, from: data)
            } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
                throw .notJSON(Self.reason(context))
            } catch let error as DecodingError {
                throw Self.badRecord(error, index: nil)
            } catch {
                throw .notJSON("\(error)")
            }
        } else {
            for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            where !line.allSatisfy({ blanks.contains($0) }) {
                do {
                    records.append(try decoder.decode(ImportRecord.self, from: Data(line)))
                } catch let error as DecodingError {
                    throw Self.badRecord(error, index: records.count)
                } catch {
                    throw .badRecord(index: records.count, reason: "\(error)")
                }
            }
        }
        var fields: [DraftFields] = []
        fields.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            let title = record.title.trimmed
            guard !title.isEmpty else { throw .badRecord(index: index, reason: "the title is blank") }
            guard title.count <= Limits.titleCharacters else {
                throw .badRecord(index: index, reason: "the title is longer than \(Limits.titleCharacters) characters")
            }
            let notes = record.notes ?? ""
            guard notes.count <= Limits.notesCharacters else {
                throw .badRecord(index: index, reason: "the notes are longer than \(Limits.notesCharacters) characters")
            }
            fields.append(DraftFields(title: title, notes: notes, done: record.done ?? false))
        }
        return fields
    }

    /// A decoding failure as the record it is in and what is wrong.
    private static func badRecord(_ error: DecodingError, index: Int?) -> ImportError {
        let (path, what): ([any CodingKey], String) = switch error {
        case .keyNotFound(let key, let context): (context.codingPath, "no \(key.stringValue)")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            (context.codingPath, "\(context.codingPath.last?.stringValue ?? "the record") has the wrong type")
        case .dataCorrupted(let context): (context.codingPath, reason(context))
        @unknown default: ([], "\(error)")
        }
        let position = index ?? path.first?.intValue ?? 0
        let field = path.last.flatMap { $0.intValue == nil ? $0 : nil }
        if case .typeMismatch = error, field == nil { return .badRecord(index: position, reason: "not an object") }
        return .badRecord(index: position, reason: what)
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        (context.underlyingError.map { ($0 as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\($0)" })
            ?? context.debugDescription
    }

    /// Adds tasks after the profile's existing ones, in order, as one transaction and one
    /// change for `undo`. Creates the profile if it is missing.
    public func importTasks(_ records: [DraftFields], user: String) throws -> Int {
        try writing { db in
            try openProfile(user, sample: false)
            guard !records.isEmpty else { return 0 }
            var first: Int?
            var last = 0
            for fields in records {
                let row = try Self.append(db, user, fields)
                first = first ?? row.id
                last = row.id ?? last
            }
            try record(db, user, .import, .imported(first: first!, last: last))
            return records.count
        }
    }

    /// The profile's tasks in list order, as a JSON array of `id`, `title`, `notes`,
    /// `done`, written in pieces.
    public func exportTasks(user: String, write: (String) -> Void) throws {
        try reading { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT id, title, notes, done FROM task WHERE profile = ? ORDER BY position",
                                             arguments: [user])
            write("[")
            var first = true
            while let row = try cursor.next() {
                let task = Self.task(row)
                write((first ? "\n" : ",\n") + Self.json(task))
                first = false
            }
            write(first ? "]\n" : "\n]\n")
        }
    }

    private static func json(_ task: TaskItem) -> String {
        "{\"id\":\(task.id),\"title\":\(task.title.jsonQuoted),\"notes\":\(task.notes.jsonQuoted),\"done\":\(task.done)}"
    }
}
