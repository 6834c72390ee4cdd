/// An error a user may read: it gives its sentence from the catalogs, in the catalog's
/// language, never the name of its type or case. Each error type of the app conforms
/// where it is declared (or, for a library that knows no catalog, in the module that
/// words it), so the executable words any error by this one door.
public protocol CatalogError: Error {
    /// The message in a catalog's language.
    func message(in t: Catalog) -> String
}

extension Catalog {
    /// The words a user sees for `error` in this catalog's language: its own message when
    /// it is a ``CatalogError``, else the words for an unexpected error (never its type's
    /// name).
    public func words(for error: any Error) -> String {
        (error as? any CatalogError)?.message(in: self) ?? self(.ioUnexpected)
    }
}
