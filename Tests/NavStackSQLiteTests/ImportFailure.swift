@testable import NavStackSQLite

/// The error a reading of an import fails with, or `nil` when it reads.
func importFailure(_ read: () throws(ImportError) -> Void) -> ImportError? {
    do {
        try read()
        return nil
    } catch {
        return error.single
    }
}

extension ImportError {
    /// A failure that names one record, as that record's own error (``badRecord`` or
    /// ``badLine``): what most cases compare; the naming of several is tested on its own.
    var single: ImportError {
        guard case .badRecords(let named, more: 0) = self, named.count == 1, let bad = named.first else { return self }
        switch bad.place {
        case .record(let index): return .badRecord(index: index, bad.problem)
        case .line(let number): return .badLine(number: number, bad.problem)
        }
    }
}
