import NavStackCore
import NavStackSQLite

/// Any bytes as an import file: the parser returns records or an error naming the
/// record, and never crashes; every record it returns has a title that is not blank, and
/// no title or notes hold what a command line could not (a control or bidi character;
/// notes may hold line feeds, being several lines), and a uuid it keeps is one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let records = try? SQLiteStore.parseImport(Array(UnsafeBufferPointer(start: start, count: count))) else { return 0 }
    for record in records {
        precondition(!record.fields.title.isEmpty, "a record with a blank title was accepted")
        precondition(record.uuid.map { $0.isUUID && $0 == $0.lowercased() } ?? true, "\(record.uuid!) was accepted as a uuid")
        precondition(
            !record.fields.title.unicodeScalars.contains { $0.needsEscapeForDisplay && $0 != "\t" },
            "\(record.fields.title.debugDescription) was accepted as a title")
        precondition(
            !record.fields.notes.unicodeScalars.contains { $0.needsEscapeForDisplay && $0 != "\t" && $0 != "\n" },
            "\(record.fields.notes.debugDescription) was accepted as notes")
    }
    return 0
}
