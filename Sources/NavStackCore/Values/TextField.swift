/// A field of user text, for errors about it.
public enum TextField: String, Equatable, Hashable, Sendable {
    case title, notes, name
    case annotation
    case customName = "field name"
    case customValue = "field value"

    public var phrase: Phrase {
        switch self {
        case .title: .fieldTitle
        case .notes: .fieldNotes
        case .name: .fieldName
        case .annotation: .fieldAnnotation
        case .customName: .fieldCustomName
        case .customValue: .fieldCustomValue
        }
    }
}
