import NavStackCore
import NavStackIO
import NavStackSyncClient

extension PassphraseSource {
    /// The passphrase of `--passphrase-file` (its last line end left out), else of
    /// NAVSTACK_SYNC_PASSPHRASE; `nil` when neither is given.
    static func given(file: String?, environment: String?) throws(SyncSecretError) -> String? {
        if let file {
            let bytes = try SyncSecret.passphrase.read(file, limit: 4096)
            var text = String(decoding: bytes ?? [], as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            return try Self.checked(text, from: "--passphrase-file \(file)", whole: bytes != nil)
        }
        return try environment.map { text throws(SyncSecretError) in try PassphraseSource.checked(text, from: "NAVSTACK_SYNC_PASSPHRASE")
        }
    }

    /// The run's passphrase, `given`, else typed at this terminal when `mayAsk` (standard
    /// input and standard error both a terminal).
    convenience init(given: String?, mayAsk: Bool) {
        let ask: ((String) -> String?)? = mayAsk ? { Terminal.askSecret($0) } : nil
        self.init(given: given, catalog: Navstack.messageCatalog, ask: ask)
    }
}

extension Terminal {
    /// A line typed at the terminal without echo after `prompt`; `nil` unless standard
    /// input and standard error are both a terminal.
    static func askSecret(_ prompt: String) -> String? {
        guard isTTY(0), isTTY(2) else { return nil }
        return readSecret(prompt: prompt)
    }
}
