import Logging
import NavStackServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes one line to standard error.
func complain(_ message: String) {
    var line = "navstack-server: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let invocation: ServerOptions.Invocation
do {
    let environment = getenv("NAVSTACK_DATABASE").map { ["NAVSTACK_DATABASE": String(cString: $0)] } ?? [:]
    invocation = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
    complain(ServerOptions.usageLine(error))
    exit(64)
}

switch invocation {
case .help(let text):
    print(text, terminator: "")
case .version:
    print(ServerOptions.version)
case .run(let options):
    LoggingSystem.bootstrap(ServerLogHandler.standardError)
    var logger = Logger(label: "navstack-server")
    logger.logLevel = options.logLevel
    do {
        switch options.command {
        case .serve:
            try await SyncServer.serve(options, logger: logger)
        case .user(let command):
            let output = try await SyncServer.user(command, database: options.database, logger: logger)
            if !output.isEmpty { print(output) }
        }
    } catch let failure as ServerError {
        complain(failure.message)
        exit(1)
    } catch {
        complain("\(error)")
        exit(1)
    }
}
