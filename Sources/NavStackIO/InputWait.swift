import CPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a loop that watches the store waits for between its looks: standard input, whose
/// end stops it (what comes in is read and dropped), or Ctrl-C or SIGTERM, which stop it too.
///
/// Only a terminal's or a pipe's end stops it (Ctrl-D, a closed pipe): input that is
/// `/dev/null` or a file, as a shell gives a background job (`navstack watch &`), ends at
/// once and says nothing, so it is not waited on.
public enum InputWait {
    public enum Event: Equatable {
        /// The time given passed, or input came: look again.
        case look
        /// Input ended, or a stop was asked for.
        case stop
    }

    /// From now on Ctrl-C and SIGTERM stop the wait instead of the process.
    public static func catchStopSignals() {
        _ = ns_install_stop_signals()
    }

    /// Whether standard input is a terminal, a pipe or a socket: an input whose end is news.
    public static let inputCanEnd: Bool = {
        if isatty(0) == 1 { return true }
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }()

    /// Waits at most `milliseconds` for input on standard input (when ``inputCanEnd``;
    /// else only for the time or a stop).
    public static func wait(milliseconds: Int32) -> Event {
        if ns_stop_was_requested() != 0 { return .stop }
        var descriptor = pollfd(fd: inputCanEnd ? 0 : -1, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ns_stop_was_requested() != 0 { return .stop }
        guard ready > 0 else { return .look }  // the time passed, or a signal that does not stop
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(0, &buffer, buffer.count)
        if count < 0 { return errno == EINTR || errno == EAGAIN ? .look : .stop }
        return count == 0 ? .stop : .look
    }
}
