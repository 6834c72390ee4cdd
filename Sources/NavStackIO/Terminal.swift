#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the terminal, read when they are needed.
public enum Terminal {
    public static func isTTY(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The window's columns and rows, if stdout is a terminal that says.
    public static func size() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether colour is allowed at all: `NO_COLOR` unset and a terminal that is not dumb.
    public static var allowsColor: Bool {
        environment("NO_COLOR") == nil && environment("TERM") != "dumb"
    }

    /// The locale variables, for the default language.
    public static func localeEnvironment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] { values[name] = environment(name) }
        return values
    }

    /// Writes `prompt` to standard error and reads one line from the terminal on standard
    /// input without echoing it (at most 4 KiB; `nil` at the end of input). The terminal's
    /// settings come back however the read ends: an interrupt, a hang-up or a termination
    /// restores them before the signal does what it does by default.
    public static func readSecret(prompt: String) -> String? {
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return nil }
        savedSettings = settings
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        quiet.c_lflag |= tcflag_t(ICANON)
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = { signal in
            var saved = Terminal.savedSettings
            tcsetattr(0, TCSAFLUSH, &saved)
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        var interrupt = sigaction(), hangUp = sigaction(), terminate = sigaction()
        sigaction(SIGINT, &handler, &interrupt)
        sigaction(SIGHUP, &handler, &hangUp)
        sigaction(SIGTERM, &handler, &terminate)
        StandardStreams.shared.write(prompt, to: .error)
        try? StandardStreams.shared.flush()
        tcsetattr(0, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(0, TCSAFLUSH, &settings)
            sigaction(SIGINT, &interrupt, nil)
            sigaction(SIGHUP, &hangUp, nil)
            sigaction(SIGTERM, &terminate, nil)
            // The Return typed was not echoed.
            StandardStreams.shared.write("\n", to: .error)
            try? StandardStreams.shared.flush()
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = read(0, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == 0x0A { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// The terminal's settings while ``readSecret(prompt:)`` has echo off, for its signal
    /// handler to put back.
    nonisolated(unsafe) private static var savedSettings = termios()

    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

extension Terminal {
    /// A line typed at the terminal without echo after `prompt`; `nil` unless standard
    /// input and standard error are both a terminal.
    public static func askSecret(_ prompt: String) -> String? {
        guard isTTY(0), isTTY(2) else { return nil }
        return readSecret(prompt: prompt)
    }
}
