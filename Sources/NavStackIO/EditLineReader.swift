import CEditLine
import NavStackBytes
import NavStackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines typed at a terminal, through libedit: line editing, history kept in a file,
/// Tab completion, Ctrl-C to clear the line and Ctrl-D to quit.
public struct EditLineReader: LineReader {
    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let historyPath: String?

    /// Sets up libedit; `nil` when the terminal cannot be edited. `idle` runs while the
    /// prompt waits for a key, every `idleMilliseconds`: when it printed something
    /// (above the prompt, from the start of the prompt's line) it answers `true`, and the
    /// prompt is drawn again under it with the line being typed, the cursor where it was.
    public init?(
        historyPath: String?, complete: @escaping (String) -> Completion, idle: (() -> Bool)? = nil,
        idleMilliseconds: Int32 = 200
    ) {
        Self.useUTF8Locale()
        guard let editLine = ns_el_init("navstack"), let history = ns_history_init(1000) else { return nil }
        self.editLine = editLine
        self.history = history
        self.historyPath = historyPath
        ns_install_sigint()
        ns_el_set_editor(editLine, "emacs")
        ns_el_set_signal(editLine, 1)
        ns_el_set_prompt(editLine, promptCallback)
        ns_el_set_history(editLine, history)
        EditLineContext.complete = complete
        ns_el_add_function(editLine, "navstack-complete", "Complete the command or its argument", completeCallback)
        ns_el_bind(editLine, "^I", "navstack-complete")
        if let idle {
            EditLineContext.idle = idle
            ns_el_set_idle(editLine, idleCallback, idleMilliseconds)
        }
        el_source(editLine, nil)
        if let historyPath, Self.isPlainFile(historyPath) { ns_history_load(history, historyPath) }
    }

    /// Whether the history file is missing or a regular file of its own: a symbolic
    /// link (say to another file) is never followed, read or replaced.
    public static func isPlainFile(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        return info.st_mode & S_IFMT == S_IFREG
    }

    public mutating func next(prompt: () -> String) -> InputLine? {
        EditLineContext.setPrompt(prompt())
        while true {
            var count: Int32 = 0
            ns_take_interrupt()
            errno = 0  // a Ctrl-C earlier left EINTR here; end of input must not look like another
            guard let text = el_gets(editLine, &count) else {
                if ns_take_interrupt() != 0 || errno == EINTR {
                    // Ctrl-C: drop what was typed and ask again.
                    writeToTerminal("^C\n")
                    el_reset(editLine)
                    continue
                }
                writeToTerminal("\n")
                return nil
            }
            var bytes = [UInt8](copying: text, count: Int(count))
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            remember(bytes)
            return InputLine(bytes: bytes[...], length: bytes.count)
        }
    }

    /// Adds a non-blank line to the history and saves the file (mode 0600).
    private func remember(_ bytes: [UInt8]) {
        guard bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
            bytes.count <= Limits.lineBytes, !bytes.contains(0)
        else { return }
        ns_history_enter(history, String(decoding: bytes, as: UTF8.self))
        guard let historyPath, Self.isPlainFile(historyPath) else { return }
        Self.save(history, to: historyPath)
    }

    /// Writes the history to a new private file beside `path`, then renames it over
    /// `path`: a link put there is replaced, never followed, and a reader never sees
    /// half a file.
    private static func save(_ history: OpaquePointer, to path: String) {
        // The name mkstemp filled in.
        let (fd, temporary) = (path + ".XXXXXX").withMutableCString { mkstemp($0) }  // mode 0600
        guard fd >= 0 else { return }
        Glibc.close(fd)
        if ns_history_save(history, temporary) < 0 || rename(temporary, path) != 0 {
            unlink(temporary)
        }
    }

    /// libedit drops every non-ASCII byte unless the locale's encoding is UTF-8.
    private static func useUTF8Locale() {
        let current = setlocale(LC_ALL, "").map { String(cString: $0) } ?? ""
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if !(codeset == "UTF-8" || current.lowercased().contains("utf")) {
            setlocale(LC_ALL, "C.UTF-8")
        }
    }

    /// Where history lives: `$XDG_STATE_HOME/navstack/history`, else
    /// `~/.local/state/navstack/history`. The folder is created (mode 0700).
    public static func defaultHistoryPath() -> String? {
        guard let base = BaseDirectory.state.path(Terminal.environment) else { return nil }
        let folder = base + "/navstack"
        var path = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
            path += (path.isEmpty && part.isEmpty) ? "/" : (path.hasSuffix("/") ? "" : "/") + part
            if !part.isEmpty { mkdir(path, 0o700) }
        }
        return folder + "/history"
    }
}

/// State the C callbacks reach: libedit calls plain C functions with no context.
public enum EditLineContext {
    public nonisolated(unsafe) static let prompt = KeptCString("> ")
    public nonisolated(unsafe) static var complete: (String) -> Completion = { _ in Completion(typed: "", candidates: []) }
    public nonisolated(unsafe) static var idle: () -> Bool = { false }

    public static func setPrompt(_ text: String) {
        prompt.set(text)
    }
}

private let promptCallback: ns_prompt_fn = { _ in EditLineContext.prompt.characters }

private let idleCallback: ns_idle_fn = { EditLineContext.idle() ? 1 : 0 }

/// Tab: completes the word before the cursor as far as every candidate agrees; when
/// that adds nothing, lists the candidates under the line.
private let completeCallback: ns_command_fn = { editLine, _ in
    guard let editLine else { return UInt8(CC_ERROR) }
    var buffer = [CChar](repeating: 0, count: Limits.lineBytes + 1)
    let length = ns_el_line_before_cursor(editLine, &buffer, Int32(buffer.count))
    let before = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let completion = EditLineContext.complete(before)
    guard !completion.candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
    if completion.candidates.count == 1 {
        let whole = completion.candidates[0]
        let suffix = String(whole.dropFirst(completion.typed.count)) + (whole.hasSuffix("/") ? "" : " ")
        el_insertstr(editLine, suffix)
        return UInt8(CC_REDISPLAY)
    }
    let common = completion.commonPrefix
    if common.count > completion.typed.count {
        el_insertstr(editLine, String(common.dropFirst(completion.typed.count)))
        return UInt8(CC_REDISPLAY)
    }
    writeToTerminal("\n" + completion.candidates.joined(separator: "  ") + "\n")
    return UInt8(CC_REDISPLAY)
}

/// Writes straight to the terminal, around libedit's own output.
private func writeToTerminal(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(1, &bytes, bytes.count)
}
