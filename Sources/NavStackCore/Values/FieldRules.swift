/// What a task's values may hold, the one rule every door asks: the prompt, `import` (every
/// `--from`), the sync decoder of every replica and the server's check of what it is sent.
/// A value one door takes, every door takes; a value one refuses, all refuse.
///
/// Characters: a value holds any character but a control character (C0, DEL, C1), with a
/// tab anywhere and a line break in the texts that may hold several lines (notes, an
/// annotation, a custom field's value). A character a screen must not print raw (a bidi
/// control such as U+202E, a zero-width space) is kept as it came and shown escaped
/// (``Swift/String/escapedForDisplay``); a control character is refused at the first door,
/// as the prompt cannot take one and a screen could only show it as an escape.
///
/// Limits: every text value fits a prompt line after its command word
/// (``valueBytes``), and a whole task fits one sync operation: ``itemsPerTask`` items of
/// at most ``valueBytes`` each, escaped for JSON (twice the bytes at worst, as no control
/// character but a tab or a line break is taken) and sealed (four thirds), is 2.2 MB, within
/// ``SyncLimits/maximumSealedBytes`` (4 MiB).
public enum FieldRules {
    /// The longest title, in characters.
    public static let titleCharacters = 1000
    /// The longest notes, annotation or custom field value, in characters.
    public static let textCharacters = 2000
    /// The most bytes of a title, notes, annotation or custom field value: what a prompt line
    /// (4096 bytes) carries after `title ` or `notes `.
    public static let valueBytes = 4090
    /// The longest tag, project or custom field name, in characters.
    public static let nameCharacters = 64
    /// How many tags, dependencies, annotations or custom fields a task holds at most.
    public static let itemsPerTask = 200

    /// Whether a value refuses `scalar`: a control character but a tab, and but a line
    /// break where the value may hold several lines. The one character rule of every door.
    @inlinable
    public static func refuses(_ scalar: Unicode.Scalar, lines: Bool) -> Bool {
        scalar.isControlCharacter && scalar != "\t" && !(lines && scalar == "\n")
    }

    /// What is wrong with `text` as the value of `field`, if anything: a blank title, too
    /// many characters or bytes, a control character.
    public static func problem(_ text: String, as field: TextField) -> FieldProblem? {
        let limit: Int
        switch field {
        case .title: limit = titleCharacters
        case .customName, .name: limit = nameCharacters
        case .notes, .annotation, .customValue: limit = textCharacters
        }
        let bytes = text.utf8.count
        if field == .title ? text.isBlank : field == .customName && text.isEmpty { return .blank(field) }
        guard bytes <= valueBytes else { return .tooManyBytes(field, bytes: bytes, limit: valueBytes) }
        // A character takes a byte at least: text of no more bytes than the limit is within
        // it, without counting its characters.
        if bytes > limit {
            let count = text.count
            guard count <= limit else { return .tooLong(field, count: count, limit: limit) }
        }
        let lines = field == .notes || field == .annotation || field == .customValue
        // Only these bytes start a control character (C1 is U+0080–U+009F: 0xC2 0x80…0x9F).
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return nil }
        if let bad = text.unicodeScalars.first(where: { refuses($0, lines: lines) }) { return .controlCharacter(field, bad) }
        return nil
    }

    /// A tag: letters, digits, `-` and `_`, at most ``nameCharacters``.
    public static func isTag(_ text: String) -> Bool {
        !text.isEmpty && text.count <= nameCharacters
            && text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_" }
    }

    /// A project: tag words joined by dots (`home.garden`), no empty part.
    public static func isProject(_ text: String) -> Bool {
        text.count <= nameCharacters && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isTag(String($0)) }
    }

    /// A task id: a uuid in lowercase, as replicas make them.
    public static func isTaskID(_ text: String) -> Bool {
        text.isUUID && !text.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }
    }
}
