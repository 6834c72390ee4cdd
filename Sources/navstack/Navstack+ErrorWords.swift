import NavStackCore

extension Navstack {
    /// The words a user sees for an error of any of the executable's steps: the error's
    /// own message from the catalogs, never the name of its type or case. Every error
    /// turned into text goes through here.
    static func words(for error: any Error, in t: Catalog = messageCatalog) -> String { t.words(for: error) }
}
