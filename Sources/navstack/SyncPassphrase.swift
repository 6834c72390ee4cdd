import NavStackCore
import NavStackSync

/// Where a sync gets the passphrase of its account's tasks, which it asks for only while
/// the profile has no key: NAVSTACK_SYNC_PASSPHRASE or `--passphrase-file`, else typed at a
/// terminal (twice for a new account). Kept for the run only: the store keeps the key.
final class PassphraseSource {
    private var known: String?
    private let mayAsk: Bool

    /// `given`: the run's passphrase, if one was given; `mayAsk`: whether it may be asked
    /// for at a terminal.
    init(given: String?, mayAsk: Bool) {
        known = given
        self.mayAsk = mayAsk
    }

    /// The passphrase of `--passphrase-file` (its last line end left out), else of
    /// NAVSTACK_SYNC_PASSPHRASE; `nil` when neither is given.
    static func given(file: String?, environment: String?) throws(SyncSecret.Failure) -> String? {
        if let file {
            let bytes = try SyncSecret.passphrase.read(file, limit: 4096)
            var text = String(decoding: bytes ?? [], as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            return try checked(text, from: "--passphrase-file \(file)", whole: bytes != nil)
        }
        return try environment.map { text throws(SyncSecret.Failure) in try checked(text, from: "NAVSTACK_SYNC_PASSPHRASE") }
    }

    /// `text` when it can be a passphrase: 8 to 1024 bytes, no control characters.
    static func checked(_ text: String, from source: String, whole: Bool = true) throws(SyncSecret.Failure) -> String {
        guard whole, (8...1024).contains(text.utf8.count),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .malformed(.passphrase, source: source) }
        return text
    }

    /// The passphrase: the one given or typed before in this run, else typed now at a
    /// terminal (`isNew`: the account has no key yet, so it is typed twice).
    func passphrase(user: String, isNew: Bool) throws(SyncError) -> String {
        if let known { return known }
        let t = Navstack.messageCatalog
        guard mayAsk, Terminal.isTTY(0), Terminal.isTTY(2),
            let typed = Terminal.readSecret(prompt: t(isNew ? .syncPassphraseNewPrompt : .syncPassphrasePrompt)), !typed.isEmpty
        else { throw .noPassphrase(user: user) }
        if isNew {
            guard Terminal.readSecret(prompt: t(.syncPassphraseAgainPrompt)) == typed else { throw .passphraseMismatch }
        }
        do {
            known = try Self.checked(typed, from: t(.syncPassphraseTyped))
        } catch {
            throw .store(error.message(in: t))
        }
        return typed
    }
}
