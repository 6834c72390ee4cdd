import NavStackCore
import NavStackIO

/// A command of the command line: built from what was parsed, then run.
public protocol Subcommand: Sendable {
    static var spec: CommandSpec { get }
    init(_ parsed: ParsedArguments) throws
    func run() throws
}

/// A command as the dispatcher sees it: its name, its spec, and how to run it.
public struct CommandEntry: Sendable {
    public let name: String
    public let spec: CommandSpec
    public let launch: @Sendable (ParsedArguments) throws -> Void
}

extension Subcommand {
    public static var entry: CommandEntry {
        CommandEntry(
            name: spec.name.split(separator: " ").last.map(String.init) ?? spec.name, spec: spec,
            launch: { try Self($0).run() })
    }
}

/// Ends the program with a status once what it printed is out.
public struct ExitStatus: Error {
    public var code: Int32

    public init(code: Int32) {
        self.code = code
    }

    public static let failure = ExitStatus(code: 1)
}

/// `--user NAME` held to the rules of `login NAME`, with the same messages.
public func checkedUser(_ user: String?, _ streams: StandardStreams, command: String) throws -> String? {
    guard let user else { return nil }
    do {
        return try Command.loginName(user)
    } catch {
        streams.write("navstack: \(command): --user: \(error.message(in: App.messageCatalog))\n", to: .error)
        throw ExitStatus.failure
    }
}
