extension CommandSpec {
    /// Every text of the spec a person reads in `--help`: the abstract, the discussion,
    /// each option's and argument's help, the subcommands' abstracts.
    public var texts: [String] {
        [abstract] + (discussion.isEmpty ? [] : [discussion]) + options.map(\.help) + arguments.map(\.help)
            + subcommands.map(\.abstract)
    }

    /// The spec with its texts in a catalog's language. The English texts are the keys
    /// of each catalog's table of help texts (``Catalog/helpText(_:)``).
    public func localized(_ t: Catalog) -> CommandSpec {
        guard t.language != .en else { return self }
        var spec = self
        spec.abstract = t.helpText(abstract)
        spec.discussion = discussion.isEmpty ? "" : t.helpText(discussion)
        for index in spec.options.indices { spec.options[index].help = t.helpText(options[index].help) }
        for index in spec.arguments.indices { spec.arguments[index].help = t.helpText(arguments[index].help) }
        spec.subcommands = subcommands.map { ($0.name, t.helpText($0.abstract)) }
        return spec
    }

    /// The texts a catalog has no translation of (none for English).
    public func untranslatedTexts(in t: Catalog) -> [String] {
        t.language == .en ? [] : texts.filter { t.helpTexts[$0] == nil }
    }

    /// The help text in a catalog's language.
    public func help(in t: Catalog) -> String {
        localized(t).help(headings: t)
    }
}

extension Catalog {
    /// The help texts of the command line in this language, by their English text.
    var helpTexts: [String: String] {
        switch language {
        case .en: [:]
        case .pt: Self.portugueseHelpTexts
        case .es: Self.spanishHelpTexts
        }
    }

    /// A help text of the command line in this language; the English text when there is
    /// no translation (a test checks there is one for every text).
    public func helpText(_ english: String) -> String {
        helpTexts[english] ?? english
    }
}
