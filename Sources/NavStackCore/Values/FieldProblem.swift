/// Why a value is not one a task may hold (``FieldRules``): the same at every door.
public enum FieldProblem: CatalogError, Equatable, Hashable, Sendable {
    /// A blank title, or an empty custom field name.
    case blank(TextField)
    case tooLong(TextField, count: Int, limit: Int)
    case tooManyBytes(TextField, bytes: Int, limit: Int)
    case controlCharacter(TextField, Unicode.Scalar)
    /// More tags, dependencies, annotations or custom fields than a task holds.
    case tooManyItems(TaskField, count: Int, limit: Int)
    /// A word that is not a tag, project, rule, priority or task id.
    case badWord(TaskField, String)

    /// The words, in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch self {
        case .blank(.title): t(.recordBlankTitle)
        case .blank(let field): t(.fieldBlank, ("field", t(field.phrase)))
        case .tooLong(let field, let count, let limit):
            t(.textTooLong, ("field", t(field.phrase)), ("count", count), ("limit", limit))
        case .tooManyBytes(let field, let bytes, let limit):
            t(.recordTooManyBytes, ("field", t(field.phrase)), ("bytes", bytes), ("limit", limit))
        case .controlCharacter(let field, let scalar):
            t(.recordControlCharacter, ("field", t(field.phrase)), ("character", String(scalar).escapedForDisplay))
        case .tooManyItems(let field, let count, let limit):
            t(.fieldTooManyItems, ("field", field.rawValue), ("count", count), ("limit", limit))
        case .badWord(let field, let word):
            t(.fieldBadWord, ("field", field.rawValue), ("value", word.escapedForDisplay))
        }
    }
}
