import NavStackCore
import NavStackSQLite

/// Any bytes as an import file: the parser returns records or an error naming the
/// record, and never crashes; every record it returns has a title that is not blank, and
/// no title or notes hold what a command line could not (a control or bidi character),
/// and a uuid it keeps is one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let records = try? SQLiteStore.parseImport(Array(UnsafeBufferPointer(start: start, count: count))) else { return 0 }
    for record in records {
        precondition(!record.fields.title.isEmpty, "a record with a blank title was accepted")
        precondition(record.uuid.map { $0.isUUID && $0 == $0.lowercased() } ?? true, "\(record.uuid!) was accepted as a uuid")
        for text in [record.fields.title, record.fields.notes] {
            precondition(!text.unicodeScalars.contains { $0.needsEscapeForDisplay && $0 != "\t" }, "\(text.debugDescription) was accepted")
        }
    }
    return 0
}
