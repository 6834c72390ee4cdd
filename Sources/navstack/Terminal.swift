#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the terminal, read when they are needed.
enum Terminal {
    static func isTTY(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The window's columns and rows, if stdout is a terminal that says.
    static func size() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether colour is allowed at all: `NO_COLOR` unset and a terminal that is not dumb.
    static var allowsColor: Bool {
        environment("NO_COLOR") == nil && environment("TERM") != "dumb"
    }

    /// The locale variables, for the default language.
    static func localeEnvironment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] { values[name] = environment(name) }
        return values
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
