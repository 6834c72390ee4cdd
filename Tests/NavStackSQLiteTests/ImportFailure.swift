@testable import NavStackSQLite

/// The error a reading of an import fails with, or `nil` when it reads.
func importFailure(_ read: () throws(ImportError) -> Void) -> ImportError? {
    do {
        try read()
        return nil
    } catch {
        return error
    }
}
