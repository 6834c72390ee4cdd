import NavStackCore
import NavStackIO

/// What every command of the executable shares: its version, the language of its own
/// messages, the words of any error, and the options several commands take.
public enum App {
    public static let version = "0.2.0"

    /// The deep links `--open` completes to: each screen's URL and its short form.
    public static let linkCompletions = [DeepLink.tasks, .newTask, .account, .settings, .about].flatMap { [$0.url, $0.path] }

    /// `--format`, which `watch` takes too.
    public static let formatOption = CommandSpec.Option(
        "format", value: "format", complete: .choices(Interpreter.Format.allCases.map(\.rawValue)),
        help: "Output format: text or json (one JSON object a line; default: text).")

    /// `--no-color` and `--lang`, which `watch` takes too.
    public static let lookOptions: [CommandSpec.Option] = [
        .init("no-color", help: "Never use colour."),
        .init(
            "lang", value: "lang", complete: .choices(Language.allCases.map(\.rawValue)),
            help: "Language of screens and messages: en, pt or es (default: from LC_ALL, LC_MESSAGES or LANG)."),
    ]

    /// The line that says output could not be written.
    public static func outputFailure(_ error: FileError) -> String {
        let stream = if case .output(fd: 1) = error.step { "stdout" } else { "stderr" }
        return "navstack: " + messageCatalog(.ioCannotWrite, ("stream", stream), ("reason", error.reason)) + "\n"
    }

    /// The language of the executable's own messages, for every subcommand: `--lang` on
    /// the command line, else the locale's.
    public static let messageCatalog = usageCatalog(Array(CommandLine.arguments.dropFirst()))

    /// The language of usage errors: `--lang` when the command line gives a known one,
    /// else the locale's. (Read before parsing: a usage error may come first.)
    public static func usageCatalog(_ words: [String]) -> Catalog {
        var given: String?
        for (index, word) in words.enumerated() {
            if word == "--" { break }
            if word == "--lang", index + 1 < words.count { given = words[index + 1] }
            if word.hasPrefix("--lang=") { given = String(word.dropFirst("--lang=".count)) }
        }
        return Catalog(given.flatMap(Language.init(rawValue:)) ?? Language.from(environment: Terminal.localeEnvironment()))
    }

    /// The words a user sees for an error of any of the executable's steps: the error's
    /// own message from the catalogs, never the name of its type or case. Every error
    /// turned into text goes through here.
    public static func words(for error: any Error, in t: Catalog = messageCatalog) -> String { t.words(for: error) }
}
