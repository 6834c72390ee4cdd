/// The manual page of a command and its subcommands, in roff (`man ./navstack.1`),
/// generated from the same specs as `--help` so the two cannot drift. It carries no
/// date, so the same program always prints the same page.
public struct ManualPage: Sendable {
    public var root: CommandSpec
    public var subcommands: [CommandSpec]
    public var version: String

    public init(root: CommandSpec, subcommands: [CommandSpec], version: String) {
        self.root = root
        self.subcommands = subcommands
        self.version = version
    }

    public var text: String {
        let title = root.word.uppercased()
        var text = ".TH \(title) 1 \"\" \(Self.quoted("\(root.word) \(version)")) \"User Commands\"\n"
        text += ".SH NAME\n\(Self.escaped(root.word)) \\- \(Self.escaped(root.abstract))\n"
        text += ".SH SYNOPSIS\n" + synopsis(root)
        for subcommand in subcommands { text += ".br\n" + synopsis(subcommand) }
        text += ".SH DESCRIPTION\n" + paragraphs(root.discussion)
        text += ".SH OPTIONS\n" + options(root, version: true)
        text += ".SH SUBCOMMANDS\n"
        for subcommand in subcommands {
            text += ".SS \(Self.escaped(subcommand.name))\n" + Self.escaped(subcommand.abstract) + "\n"
            if !subcommand.discussion.isEmpty { text += ".PP\n" + paragraphs(subcommand.discussion) }
            for argument in subcommand.arguments {
                text += ".TP\n\\fI\(Self.escaped(argument.name))\\fR" + (argument.repeating ? " ..." : "") + "\n"
                text += Self.escaped(argument.help) + "\n"
            }
            text += options(subcommand, version: false)
        }
        text += ".SH SEE ALSO\n\(Self.escaped(root.word)) \\-\\-help, \(Self.escaped(root.word)) help \\fIsubcommand\\fR\n"
        return text
    }

    /// `navstack import [--memory] [--store path] … file`, the names in bold.
    private func synopsis(_ spec: CommandSpec) -> String {
        var line = ".B \(Self.escaped(spec.name))\n"
        var parts: [String] = []
        for option in spec.options {
            let name = "\\fB\(Self.escaped(option.short.map { "-\($0)" } ?? "--\(option.long)"))\\fR"
            let value = option.valueName.map { " \\fI\(Self.escaped($0))\\fR" } ?? ""
            parts.append("[" + name + value + "]" + (option.repeatable ? " ..." : ""))
        }
        for argument in spec.arguments {
            let word = "\\fI\(Self.escaped(argument.name))\\fR" + (argument.repeating ? " ..." : "")
            parts.append(argument.optional ? "[" + word + "]" : word)
        }
        if !spec.subcommands.isEmpty { parts.append("[\\fIsubcommand\\fR]") }
        if !parts.isEmpty { line += parts.joined(separator: " ") + "\n" }
        return line
    }

    private func options(_ spec: CommandSpec, version: Bool) -> String {
        var text = ""
        for option in spec.options {
            let names = option.names.map { "\\fB\(Self.escaped($0))\\fR" }.joined(separator: ", ")
            text += ".TP\n" + names + (option.valueName.map { " \\fI\(Self.escaped($0))\\fR" } ?? "") + "\n"
            text += Self.escaped(option.help) + "\n"
        }
        if version { text += ".TP\n\\fB\\-\\-version\\fR\nShow the version.\n" }
        text += ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow help information.\n"
        return text
    }

    /// Each line of a discussion one roff paragraph; indented lines (commands to copy)
    /// kept as they are, unfilled.
    private func paragraphs(_ discussion: String) -> String {
        var text = ""
        var unfilled = false
        for line in discussion.split(separator: "\n", omittingEmptySubsequences: true) {
            let indented = line.hasPrefix(" ")
            if indented != unfilled || !indented {
                if unfilled { text += ".fi\n" }
                if !text.isEmpty { text += ".PP\n" }
                if indented { text += ".nf\n" }
            }
            unfilled = indented
            text += Self.escaped(String(line)) + "\n"
        }
        if unfilled { text += ".fi\n" }
        return text
    }

    /// Text as roff prints it: backslashes and hyphens escaped, characters outside ASCII
    /// as `\[uXXXX]`, and a line that would start with a control character (`.` or `'`)
    /// guarded.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    private static func quoted(_ text: String) -> String {
        "\"" + escaped(text).replacing("\"", with: "\\(dq") + "\""
    }
}
