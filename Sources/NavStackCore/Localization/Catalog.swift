import NavStackTime

/// The languages navstack speaks. Command words, URLs and JSON keys stay English.
public enum Language: String, CaseIterable, Equatable, Hashable, Sendable {
    case en, pt, es

    /// The language the environment asks for: `LC_ALL`, else `LC_MESSAGES`, else `LANG`
    /// (`pt_BR.UTF-8` → pt, `es_ES` → es); English otherwise.
    public static func from(environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let code = value.prefix { $0.isLetter }.lowercased()
            return Language(rawValue: code) ?? .en
        }
        return .en
    }
}

/// The words of one language: every screen, message and help text, by key.
///
/// A template names its values in braces (`there is no row {row}`); ``callAsFunction``
/// fills them in.
public struct Catalog: Sendable {
    public let language: Language
    /// The phrases as the language's file lists them (pairs: a dictionary literal of
    /// this size costs a third of a million instructions to hash at every launch).
    let phrases: [KeyValuePairs<Phrase, String>]
    /// Every phrase's template at the phrase's ordinal, English where the language has
    /// none: found without hashing the phrase (a phrase hashes its raw value, a string).
    private let templates: [String]

    public init(_ language: Language) {
        self.language = language
        switch language {
        case .en: (phrases, templates) = (Self.englishParts, Self.englishTemplates)
        case .pt: (phrases, templates) = (Self.portugueseParts, Self.portugueseTemplates)
        case .es: (phrases, templates) = (Self.spanishParts, Self.spanishTemplates)
        }
    }

    public static let english = Catalog(.en)

    /// Each language's phrases, in the files they are kept in: the screens', sync's, the shell's.
    private static let englishParts = [englishPhrases, englishSyncPhrases, englishShellPhrases]
    private static let portugueseParts = [portuguesePhrases, portugueseSyncPhrases, portugueseShellPhrases]
    private static let spanishParts = [spanishPhrases, spanishSyncPhrases, spanishShellPhrases]

    private static let englishTemplates = table(englishParts, over: Phrase.allCases.map(\.rawValue))
    private static let portugueseTemplates = table(portugueseParts, over: englishTemplates)
    private static let spanishTemplates = table(spanishParts, over: englishTemplates)

    /// `fallback` with the templates of each part of `phrases` put in their phrases' places.
    private static func table(_ phrases: [KeyValuePairs<Phrase, String>], over fallback: [String]) -> [String] {
        var table = fallback
        for part in phrases {
            for (phrase, template) in part { table[phrase.ordinal] = template }
        }
        return table
    }

    /// The phrases this catalog has, for the test that every language has them all.
    public var keys: Set<Phrase> { Set(phrases.flatMap { $0.map(\.key) }) }

    /// The raw template of a phrase.
    public func template(_ phrase: Phrase) -> String {
        templates[phrase.ordinal]
    }

    /// A phrase with its values filled in.
    public func callAsFunction(_ phrase: Phrase, _ values: (String, any CustomStringConvertible)...) -> String {
        self(phrase, values)
    }

    /// A phrase with the values of a list filled in.
    public func callAsFunction(_ phrase: Phrase, _ values: [(String, any CustomStringConvertible)]) -> String {
        let template = template(phrase)
        guard !values.isEmpty else { return template }
        var text = ""
        text.reserveCapacity(template.utf8.count + 32)
        // Braces are ASCII, so their UTF-8 positions are character boundaries.
        let bytes = template.utf8
        var copied = bytes.startIndex
        var index = copied
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "{")),
            let close = bytes[open...].firstIndex(of: UInt8(ascii: "}"))
        {
            let name = template[bytes.index(after: open)..<close]
            if let value = values.first(where: { $0.0 == name }) {
                text += template[copied..<open]
                text += value.1.description
                copied = bytes.index(after: close)
            }
            index = bytes.index(after: close)
        }
        text += template[copied...]
        return text
    }

    /// A count with its thousands grouped as the language writes them: 100,000 in
    /// English, 100.000 in Portuguese and Spanish.
    public func grouped(_ count: Int) -> String {
        let separator: Character = language == .en ? "," : "."
        var digits = String(count.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(separator, at: index)
        }
        return count < 0 ? "-" + digits : digits
    }

    /// The command's one-line summary; `exit` is `quit` by another name, and has its summary.
    public func summary(_ word: CommandWord) -> String {
        template(Phrase(rawValue: "summary." + (word == .exit ? CommandWord.quit : word).rawValue)!)
    }
}

extension Catalog {
    /// A day as screens name it: `Tue 2026-12-01`, the weekday in this language.
    public func dayText(_ date: CivilDate) -> String {
        let names = self(.weekdayNames).split(separator: ",")
        guard names.count == 7 else { return date.isoText }
        return names[date.weekday.daysSinceMonday] + " " + date.isoText
    }
}
