import NavStackApp
import NavStackCore
import NavStackIO

/// `navstack completion SHELL`: prints the shell's completion script.
struct CompletionCommand: Subcommand {
    static let spec = CommandSpec(
        name: "navstack completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            The script completes options, subcommands, their options, --format and --lang \
            values and deep links. Install it with one line:
              bash: echo 'source <(navstack completion bash)' >> ~/.bashrc
              zsh:  echo 'source <(navstack completion zsh)' >> ~/.zshrc  (after compinit)
              fish: navstack completion fish > ~/.config/fish/completions/navstack.fish
            """,
        options: [],
        arguments: [
            .init(
                "shell", complete: .choices(CompletionScript.Shell.allCases.map(\.rawValue)),
                help: "bash, zsh or fish.")
        ])

    let shell: CompletionScript.Shell

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let name = parsed.arguments[0]
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            throw .invalidValue(option: "<shell>", value: name, problem: .notOneOf(CompletionScript.Shell.allCases.map(\.rawValue)))
        }
        self.shell = shell
    }

    func run() throws {
        let streams = StandardStreams.shared
        let script = CompletionScript(root: Navstack.spec, subcommands: Navstack.subcommands.map(\.spec))
        streams.write(script.script(for: shell), to: .output)
    }
}

/// `navstack man-page`: prints the manual page navstack(1), made from the same option
/// table as `--help`.
struct ManPageCommand: Subcommand {
    static let spec = CommandSpec(
        name: "navstack man-page",
        abstract: "Print the manual page navstack(1) in roff (read it with 'man ./navstack.1').",
        options: [])

    init(_ parsed: ParsedArguments) {}

    func run() throws {
        let streams = StandardStreams.shared
        let page = ManualPage(root: Navstack.spec, subcommands: Navstack.subcommands.map(\.spec), version: Navstack.version)
        streams.write(page.text, to: .output)
    }
}
