import NavStackCore

/// A secret a sync is given outside the command line: the account's token or the
/// passphrase of its tasks (docs/sync.md). Both come from an option's file, a variable,
/// or a prompt without echo, and are refused the same ways.
enum SyncSecret: Equatable {
    case token
    case passphrase

    /// Why the secret given for a run cannot be used.
    enum Failure: Error, Equatable {
        /// Not what a token or a passphrase may be: `source` says where it came from (the
        /// option, the file, the variable, the prompt). Bad usage.
        case malformed(SyncSecret, source: String)
        /// The file of `--token-file` or `--passphrase-file` could not be read.
        case unreadable(SyncSecret, file: String, reason: String)

        func message(in t: Catalog) -> String {
            switch self {
            case .malformed(let secret, let source):
                t(secret == .token ? .syncBadToken : .syncBadPassphrase, ("source", source.escapedForDisplay))
            case .unreadable(let secret, let file, let reason):
                t(
                    secret == .token ? .syncTokenFileUnreadable : .syncPassphraseFileUnreadable,
                    ("file", file.escapedForDisplay), ("reason", reason))
            }
        }

        /// 64 for a secret that is malformed (bad usage), 1 for a file that cannot be read.
        var exitStatus: ExitStatus {
            if case .malformed = self { return ExitStatus(code: 64) }
            return .failure
        }
    }

    /// The bytes of the secret's file, a regular file or a pipe (`<(pass show navstack)`),
    /// `nil` past `limit` bytes.
    func read(_ file: String, limit: Int) throws(Failure) -> [UInt8]? {
        do {
            return try Files.read(file, limit: limit)
        } catch {
            throw .unreadable(self, file: file, reason: error.reason)
        }
    }
}
