import NavStackCore
import NavStackHTTP
import NavStackIO
import NavStackSQLite
import NavStackSync
import NavStackSyncClient

/// `navstack sync`: sends this replica's changes to the server and applies the others'.
public struct SyncCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "navstack sync",
        abstract: "Send this store's changes to the sync server and apply the other devices' changes.",
        discussion: """
            Prints 'sent N, received N, conflicts N'. The server is reached with https:// \
            (TLS 1.2 or later): its certificate must be signed by an authority the system \
            trusts (SSL_CERT_FILE and SSL_CERT_DIR say where they are kept, when set; --ca or \
            NAVSTACK_CA trusts one authority instead) and be for its host name; http:// is \
            accepted only for this machine (localhost, 127.0.0.0/8, ::1). \
            The token never needs the command line: give it in NAVSTACK_TOKEN or in a file \
            (--token-file FILE), or type it when asked at a terminal (it is not shown); \
            --token TOKEN also works, but shows it to anyone who can list processes. \
            The server and the token are kept for the profile (in the store, which is \
            private to you), so later runs need neither; a token the server refuses is not \
            kept. Tasks are end-to-end encrypted: the server keeps them sealed with a key \
            made from a passphrase that only the account's devices know; the first sync of \
            a profile asks for it (NAVSTACK_SYNC_PASSPHRASE, --passphrase-file FILE, or typed \
            at a terminal), and the store keeps the key, never the passphrase. \
            The sync gives up after --timeout seconds, whatever the server does; at a \
            terminal, one that takes more than a second shows its progress on stderr. \
            An account whose tasks an earlier navstack sent in clear moves to encryption \
            only with --migrate; an operation the account's key does not open is set aside, \
            said once, and the rest applied. \
            A profile with a server also syncs by itself at launch and after commands that \
            change tasks (at most 2 s, never more); NAVSTACK_SYNC=0 turns that off. A failed \
            sync changes nothing here: your changes are kept and sent next time. \
            Exit status: 0 when the sync finished, 1 when it did not, 64 on bad usage.
            """,
        options: StoreOptions.fileOptions + [
            .init("server", value: "url", help: "The server, https://HOST[:PORT] (kept for the profile); http:// only for this machine."),
            .init(
                "token", value: "token",
                help:
                    "Your token, from navstack-server user add or user token (kept for the profile); NAVSTACK_TOKEN or --token-file keep it off the command line."
            ),
            .init(
                "token-file", value: "file", complete: .file,
                help: "Read the token from this file (or pipe), spaces and line end around it ignored (kept for the profile)."
            ),
            .init(
                "ca", value: "file", complete: .file,
                help:
                    "Trust only the certificate authority in this PEM file for the server's certificate, instead of the system's (this run; NAVSTACK_CA sets it for every run)."
            ),
            .init(
                "passphrase-file", value: "file", complete: .file,
                help:
                    "Read the passphrase of the account's tasks from this file (or pipe), its last line end left out; asked for only while the profile has no key."
            ),
            .init(
                "migrate",
                help:
                    "Move an account whose tasks the server holds in clear (from an earlier navstack) to end-to-end encryption, with a new key from the passphrase."
            ),
            .init("user", value: "name", help: "The profile (default: the signed-in one)."),
            .init("timeout", value: "seconds", help: "Give up after this many seconds, whatever the server does (default: 60)."),
        ])

    /// How long a sync may take when `--timeout` does not say.
    static let defaultTimeout = 60

    let storage: StoreOptions
    let server: String?
    /// The token of `--token`, `--token-file` or NAVSTACK_TOKEN, checked when the run starts.
    let token: Result<String?, SyncSecretError>
    let user: String?
    /// The passphrase of `--passphrase-file` or NAVSTACK_SYNC_PASSPHRASE, checked when the run starts.
    let passphrase: Result<String?, SyncSecretError>
    /// Seconds the whole run may take.
    let timeout: Int
    let trust: TLSTrust
    /// `--migrate`: an account held in clear moves to encryption with this run.
    let migrate: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(fileOnly: parsed, command: "sync")
        server = parsed.value("server")
        if parsed.value("token") != nil, parsed.value("token-file") != nil {
            throw .conflictingOptions("--token <token>", "--token-file <file>")
        }
        token = Result { () throws(SyncSecretError) in
            try SyncToken.given(
                option: parsed.value("token"), file: parsed.value("token-file"), environment: Terminal.environment("NAVSTACK_TOKEN"))
        }
        user = parsed.value("user")
        passphrase = Result { () throws(SyncSecretError) in
            try PassphraseSource.given(
                file: parsed.value("passphrase-file"), environment: Terminal.environment("NAVSTACK_SYNC_PASSPHRASE"))
        }
        timeout = try parsed.integer("timeout", in: 1...86_400) ?? Self.defaultTimeout
        trust = TLSTrust.chosen(ca: parsed.value("ca"), environment: Terminal.environment("NAVSTACK_CA"))
        migrate = parsed.flag("migrate")
    }

    public func run() throws {
        let streams = StandardStreams.shared
        let user = try checkedUser(self.user, streams, command: "sync")
        if let server {
            do {
                try HTTPURL(server).checkPlainText()
            } catch {
                streams.write("navstack: sync: --server: \(error.message(in: App.messageCatalog))\n", to: .error)
                // An address that is not one (another scheme, no host) or plain HTTP to another
                // machine is bad usage, refused before anything is kept or sent.
                throw ExitStatus(code: 64)
            }
        }
        var token: String?
        let passphrase: String?
        do throws(SyncSecretError) {
            token = try self.token.get()
            passphrase = try self.passphrase.get()
        } catch {
            streams.write("navstack: sync: \(error.message(in: App.messageCatalog))\n", to: .error)
            throw error.exitStatus
        }
        let store = try storage.open(streams, catalog: App.messageCatalog)
        defer { store.close() }
        let progress = SyncProgress(catalog: App.messageCatalog, terminal: Terminal.isTTY(2)) { text in
            streams.write(text, to: .error)
            // A failed write is kept by the streams and reported with the output.
            try? streams.flush()
        }
        func fail(_ message: String) -> ExitStatus {
            progress?.end()
            streams.write("navstack: sync: \(message)\n", to: .error)
            return ExitStatus.failure
        }
        let profile: String
        let settings: SyncSettings
        var given = false
        // What the profile kept before this run, restored when the server refuses what was given.
        var before: SyncSettings?
        do {
            profile = try store.profile(named: user, existing: true)
            before = try store.syncSettings(profile)
            guard let server = server ?? before?.server, !server.isEmpty else { throw SyncError.notConfigured(user: profile) }
            if token == nil, before?.token.isEmpty ?? true {
                token = try SyncToken.ask(for: server, in: App.messageCatalog)
            }
            given = self.server != nil || token != nil
            if given {
                settings = try store.configureSync(profile, server: self.server, token: token)
            } else if let before {
                settings = before
            } else {
                throw SyncError.notConfigured(user: profile)
            }
            guard !settings.token.isEmpty else { throw SyncError.noToken(user: profile) }
        } catch let failure as SyncSecretError {
            throw fail(failure.message(in: App.messageCatalog))
        } catch {
            throw fail(Syncer.describe(error, in: App.messageCatalog))
        }
        let budget = Duration.seconds(timeout)
        let t = App.messageCatalog
        do {
            let transport = try HTTPSyncTransport(server: settings.server, token: settings.token, trust: trust, catalog: t)
            var syncer = Syncer(
                store: store, user: profile, transport: transport,
                passphrase: PassphraseSource(given: passphrase, catalog: t, mayAsk: true),
                catalog: t)
            syncer.migrate = migrate
            if let progress {
                syncer.onRound = { totals in progress.update(totals) { (try? store.unsentOperations(profile)) ?? 0 } }
            }
            let totals = try syncer.run(within: budget)
            progress?.end()
            for notice in totals.notices(in: t) { streams.write("navstack: sync: \(notice)\n", to: .error) }
            streams.write(totals.line + "\n", to: .output)
        } catch {
            var message = Syncer.describe(error, within: budget, byOption: true, in: t)
            if error == .refusedToken && given {
                // A token the server refused is known to be wrong: the profile keeps what it had.
                do {
                    try store.restoreSync(profile, to: before, replacing: settings)
                    message = t(.syncGivenNotKept, ("reason", message))
                } catch {
                    message = t(.syncGivenKept, ("reason", message), ("why", Syncer.describe(error, in: t)))
                }
            }
            throw fail(Syncer.changesKept(after: error, message, in: t))
        }
    }
}

extension SyncSecretError {
    /// 64 for a secret that is malformed (bad usage), 1 for a file that cannot be read.
    var exitStatus: ExitStatus {
        if case .malformed = self { return ExitStatus(code: 64) }
        return .failure
    }
}
