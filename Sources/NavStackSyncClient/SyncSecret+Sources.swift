import NavStackCore
import NavStackHTTP
import NavStackIO

extension SyncSecret {
    /// The bytes of the secret's file, a regular file or a pipe (`<(pass show navstack)`),
    /// `nil` past `limit` bytes.
    public func read(_ file: String, limit: Int) throws(SyncSecretError) -> [UInt8]? {
        do {
            return try Files.read(file, limit: limit)
        } catch {
            throw .unreadable(self, file: file, reason: error.reason)
        }
    }
}

/// The token of a `navstack sync`, which never needs the command line: `--token VALUE`,
/// `--token-file FILE`, NAVSTACK_TOKEN, the one the profile keeps, or a prompt without
/// echo at a terminal (docs/sync.md).
public enum SyncToken {
    /// The most bytes a token may have (the server's have 64).
    public static let maximumBytes = 1024

    /// The token given for this run: `--token`, else the contents of `--token-file`
    /// (without the spaces and line end around it), else NAVSTACK_TOKEN; `nil` when none
    /// is. The two options are not given together (their spec says so).
    public static func given(option: String?, file: String?, environment: String?) throws(SyncSecretError) -> String? {
        if let option { return try checked(option, from: "--token") }
        if let file {
            guard let bytes = try SyncSecret.token.read(file, limit: 4 * maximumBytes) else {
                throw .malformed(.token, source: "--token-file \(file)")
            }
            return try checked(String(decoding: SyncSecret.withoutByteOrderMark(bytes), as: UTF8.self), from: "--token-file \(file)")
        }
        if let environment { return try checked(environment, from: "NAVSTACK_TOKEN") }
        return nil
    }

    /// `text` without the white space around it, when what is left is a token: 1 to
    /// ``maximumBytes`` printable ASCII characters, none of them a space (it goes into an
    /// HTTP header, so no line end or control character can reach the request).
    public static func checked(_ text: String, from source: String) throws(SyncSecretError) -> String {
        let trimmed = text.utf8.drop { isSpace($0) }.reversed().drop { isSpace($0) }.reversed()
        guard (1...maximumBytes).contains(trimmed.count), trimmed.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformed(.token, source: source)
        }
        return String(decoding: trimmed, as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// At a terminal (standard input and standard error both), asks for the token of
    /// `server` without echoing what is typed; `nil` elsewhere, or when nothing was typed.
    public static func ask(for server: String, in t: Catalog) throws(SyncSecretError) -> String? {
        guard Terminal.isTTY(0), Terminal.isTTY(2) else { return nil }
        guard let line = Terminal.readSecret(prompt: t(.syncTokenPrompt, ("server", server.escapedForDisplay))),
            !line.allSatisfy(\.isWhitespace)
        else { return nil }
        return try checked(line, from: t(.syncTokenTyped))
    }
}

extension PassphraseSource {
    /// The passphrase of `--passphrase-file` (a byte-order mark before it and its last
    /// line end left out), else of NAVSTACK_SYNC_PASSPHRASE; `nil` when neither is given.
    public static func given(file: String?, environment: String?) throws(SyncSecretError) -> String? {
        if let file {
            let bytes = try SyncSecret.passphrase.read(file, limit: 4096)
            var text = String(decoding: SyncSecret.withoutByteOrderMark(bytes ?? []), as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            return try Self.checked(text, from: "--passphrase-file \(file)", whole: bytes != nil)
        }
        return try environment.map { text throws(SyncSecretError) in try PassphraseSource.checked(text, from: "NAVSTACK_SYNC_PASSPHRASE")
        }
    }

    /// The run's passphrase, `given`, else typed at this terminal when `mayAsk` (standard
    /// input and standard error both a terminal).
    public convenience init(given: String?, catalog: Catalog, mayAsk: Bool) {
        let ask: ((String) -> String?)? = mayAsk ? { Terminal.askSecret($0) } : nil
        self.init(given: given, catalog: catalog, ask: ask)
    }
}

extension TLSTrust {
    /// The authorities an https:// sync server's certificate must chain to: the file of
    /// `--ca` when given, else of NAVSTACK_CA (`environment`) when set, else the system's.
    public static func chosen(ca: String?, environment: String?) -> TLSTrust {
        guard let file = ca ?? environment, !file.isEmpty else { return .system }
        return .authority(file: file)
    }
}
