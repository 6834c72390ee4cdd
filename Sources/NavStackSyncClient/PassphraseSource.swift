import NavStackCore
import NavStackSync

/// Where a sync gets the passphrase of its account's tasks, which it asks for only while
/// the profile has no key: the one given for the run (NAVSTACK_SYNC_PASSPHRASE or
/// `--passphrase-file`), else typed at a terminal (twice for a new account). Kept for the
/// run only: the store keeps the key.
public final class PassphraseSource {
    private var known: String?
    /// Asks for a line at a terminal without echo, with the prompt given; `nil` when it
    /// cannot (no terminal) or nothing came.
    private let ask: ((String) -> String?)?
    private let catalog: Catalog

    /// `given`: the run's passphrase, if one was given; `ask`: how to ask for it at a
    /// terminal, when it may be asked for.
    public init(given: String?, catalog: Catalog, ask: ((String) -> String?)? = nil) {
        known = given
        self.ask = ask
        self.catalog = catalog
    }

    /// `text` when it can be a passphrase: 8 to 1024 bytes, no control characters.
    public static func checked(_ text: String, from source: String, whole: Bool = true) throws(SyncSecretError) -> String {
        guard whole, (8...1024).contains(text.utf8.count),
            !text.unicodeScalars.contains(where: \.isControlCharacter)
        else { throw .malformed(.passphrase, source: source) }
        return text
    }

    /// The passphrase: the one given or typed before in this run, else typed now at a
    /// terminal (`isNew`: the account has no key yet, so it is typed twice).
    func passphrase(user: String, isNew: Bool) throws(SyncError) -> String {
        if let known { return known }
        let t = catalog
        guard let ask, let typed = ask(t(isNew ? .syncPassphraseNewPrompt : .syncPassphrasePrompt)), !typed.isEmpty else {
            throw .noPassphrase(user: user)
        }
        if isNew {
            guard ask(t(.syncPassphraseAgainPrompt)) == typed else { throw .passphraseMismatch }
        }
        do {
            known = try Self.checked(typed, from: t(.syncPassphraseTyped))
        } catch {
            throw .store(error.message(in: t))
        }
        return typed
    }
}
