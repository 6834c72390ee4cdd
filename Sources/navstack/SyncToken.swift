import NavStackCore

/// The token of a `navstack sync`, which never needs the command line: `--token VALUE`,
/// `--token-file FILE`, NAVSTACK_TOKEN, the one the profile keeps, or a prompt without
/// echo at a terminal (docs/sync.md).
enum SyncToken {
    /// Why the token given for a run cannot be used.
    enum Failure: Error, Equatable {
        /// Not 1 to ``maximumBytes`` printable ASCII characters without spaces: `source`
        /// says where it came from (`--token`, the file, NAVSTACK_TOKEN). Bad usage.
        case malformed(source: String)
        /// The file of `--token-file` could not be read.
        case unreadable(file: String, reason: String)

        func message(in t: Catalog) -> String {
            switch self {
            case .malformed(let source): t(.syncBadToken, ("source", source.escapedForDisplay))
            case .unreadable(let file, let reason):
                t(.syncTokenFileUnreadable, ("file", file.escapedForDisplay), ("reason", reason))
            }
        }
    }

    /// The most bytes a token may have (the server's have 64).
    static let maximumBytes = 1024

    /// The token given for this run: `--token`, else the contents of `--token-file`
    /// (without the spaces and line end around it), else NAVSTACK_TOKEN; `nil` when none
    /// is. The two options are not given together (their spec says so).
    static func given(option: String?, file: String?, environment: String?) throws(Failure) -> String? {
        if let option { return try checked(option, from: "--token") }
        if let file {
            let bytes: [UInt8]?
            do {
                // Not only a regular file: `--token-file <(pass show navstack)` is a pipe.
                bytes = try Files.read(file, limit: 4 * maximumBytes)
            } catch {
                throw .unreadable(file: file, reason: error.reason)
            }
            guard let bytes else { throw .malformed(source: "--token-file \(file)") }
            return try checked(String(decoding: bytes, as: UTF8.self), from: "--token-file \(file)")
        }
        if let environment { return try checked(environment, from: "NAVSTACK_TOKEN") }
        return nil
    }

    /// `text` without the white space around it, when what is left is a token: 1 to
    /// ``maximumBytes`` printable ASCII characters, none of them a space (it goes into an
    /// HTTP header, so no line end or control character can reach the request).
    static func checked(_ text: String, from source: String) throws(Failure) -> String {
        let trimmed = text.utf8.drop { isSpace($0) }.reversed().drop { isSpace($0) }.reversed()
        guard (1...maximumBytes).contains(trimmed.count), trimmed.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformed(source: source)
        }
        return String(decoding: trimmed, as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// At a terminal (standard input and standard error both), asks for the token of
    /// `server` without echoing what is typed; `nil` elsewhere, or when nothing was typed.
    static func ask(for server: String, in t: Catalog) throws(Failure) -> String? {
        guard Terminal.isTTY(0), Terminal.isTTY(2) else { return nil }
        guard let line = Terminal.readSecret(prompt: t(.syncTokenPrompt, ("server", server.escapedForDisplay))),
            !line.allSatisfy(\.isWhitespace)
        else { return nil }
        return try checked(line, from: t(.syncTokenTyped))
    }
}
