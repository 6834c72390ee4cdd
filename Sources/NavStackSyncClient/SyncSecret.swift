import NavStackCore

/// A secret a sync is given outside the command line: the account's token or the
/// passphrase of its tasks (docs/sync.md). Both come from an option's file, a variable,
/// or a prompt without echo, and are refused the same ways.
public enum SyncSecret: Equatable, Sendable {
    case token
    case passphrase

    /// A secret file's bytes without the UTF-8 byte-order mark some editors write first:
    /// the secret is what follows it (a passphrase read with it made another key).
    public static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }
}

/// Why the secret given for a run cannot be used.
public enum SyncSecretError: CatalogError, Equatable {
    /// Not what a token or a passphrase may be: `source` says where it came from (the
    /// option, the file, the variable, the prompt). Bad usage.
    case malformed(SyncSecret, source: String)
    /// The file of `--token-file` or `--passphrase-file` could not be read.
    case unreadable(SyncSecret, file: String, reason: String)

    public func message(in t: Catalog) -> String {
        switch self {
        case .malformed(let secret, let source):
            t(secret == .token ? .syncBadToken : .syncBadPassphrase, ("source", source.escapedForDisplay))
        case .unreadable(let secret, let file, let reason):
            t(
                secret == .token ? .syncTokenFileUnreadable : .syncPassphraseFileUnreadable,
                ("file", file.escapedForDisplay), ("reason", reason))
        }
    }
}
