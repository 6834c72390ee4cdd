import NavStackCore
import NavStackHTTP
import NavStackSQLite
import NavStackSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one sync did.
struct SyncTotals: Equatable {
    var sent = 0
    var received = 0
    var conflicts = 0

    var line: String { "sent \(sent), received \(received), conflicts \(conflicts)" }
}

/// Runs sync rounds against the server (docs/sync.md): each sends up to a batch of this
/// replica's operations and applies what the server answers, until there is nothing
/// left either way.
struct Syncer {
    let store: SQLiteStore
    let user: String
    let settings: SyncSettings
    /// Told the totals after each round (a hand sync shows them at a terminal).
    var onRound: ((SyncTotals) -> Void)?
    /// The authorities an https:// server's certificate must chain to.
    var trust = TLSTrust.chosen(ca: nil)
    /// The passphrase, for a profile that has no key yet (NAVSTACK_SYNC_PASSPHRASE alone
    /// unless a hand sync says otherwise).
    var passphrase = PassphraseSource(given: Terminal.environment("NAVSTACK_SYNC_PASSPHRASE"), mayAsk: false)
    /// The largest snapshot this sync makes (automatic sync's are smaller).
    var snapshotLimit = SyncSnapshot.maximumSealedBytes

    /// Syncs within `budget`. A store whose (replica, seq) the server holds with other
    /// content (restored or copied) takes a new replica id and syncs again; stamps the
    /// server found ahead of its clock are made again from this machine's clock when that
    /// is right now, and the sync goes on; when it is not, the sync stops and says so.
    func run(within budget: Duration) throws(SyncError) -> SyncTotals {
        let end = ContinuousClock.now.advanced(by: budget)
        var totals = SyncTotals()
        // Each is done once a run: a second refusal of the same kind is the run's failure.
        var tookNewReplica = false
        var restamped = false
        var adopted = false
        var seal = try make { try store.syncSeal(user) }
        while true {
            do {
                var held: KeyProbe?
                if seal.state == .none { (seal, held) = try learnKey(until: end) }
                if seal.state == .offered { seal = try offerKey(seal, until: end, totals: &totals) }
                let since = try rounds(until: end, seal: seal, totals: &totals, from: held)
                if seal.state == .resending { seal = try dropClear(seal, until: end, totals: &totals) }
                if seal.state == .sealed, let since { offerSnapshot(seal, since: since, until: end, totals: &totals) }
                return totals
            } catch .keyTaken(let record) where !adopted {
                // Another replica gave the account its key first: this one takes it, if
                // the passphrase opens it.
                adopted = true
                seal = try opened(record, forgetting: true)
                try make { try store.setSyncSeal(user, seal) }
            } catch .replicaTaken where !tookNewReplica {
                tookNewReplica = true
                _ = try make { try store.restampUnsent(user, .newReplica) }
            } catch .stampsAhead(let serverMillis) {
                let wall = Int(SQLiteStore.milliseconds())
                guard wall - serverMillis <= SyncDrift.maximumMillis else { throw .clockAhead(millis: wall - serverMillis) }
                guard !restamped else { throw .stampsAhead(serverMillis: serverMillis) }
                restamped = true
                _ = try make { try store.restampUnsent(user, .clockSetBack(wall: wall)) }
            }
        }
    }

    /// Sync rounds until `end`, counted into `totals` as the server takes them: each
    /// sends up to a batch of this replica's operations and applies what the server
    /// answers, until there is nothing left either way. While the server works on one
    /// request, the next batch is made and sealed; once its answer is read, the next request goes
    /// out, and its answer is read, decoded and opened on a thread of its own while the
    /// one before is applied. `held`: the key probe's answer, the first round's. Returns
    /// how many operations the account took since its snapshot, as the last answer says.
    private func rounds(
        until end: ContinuousClock.Instant, seal: SyncSeal, totals: inout SyncTotals, from held: KeyProbe?
    ) throws(SyncError) -> Int64? {
        let transport = try transport(sealedWith: seal)
        var batch: SyncBatch
        var answering: SealedTransport.Answering
        if let held {
            batch = held.batch
            // The probe sent nothing: what waits in the outbox goes in the next request.
            batch.more = true
            answering = transport.opening(held.answer)
        } else {
            batch = try make { try store.syncRequest(user) }
            answering = transport.answering(try transport.send(batch.request, by: end))
        }
        while true {
            // Made and sealed while the server works on the request before.
            let next = batch.more ? transport.sealed(try make { try store.syncRequest(user, after: batch.through) }) : nil
            let answer = try answering.value().get()
            var following: (SyncBatch, SealedTransport.Answering)?
            if next.map({ $0.count > 0 }) == true || answer.more {
                var nextBatch: SyncBatch
                if let next {
                    nextBatch = next
                } else {
                    nextBatch = try make { try store.syncRequest(user, after: batch.through) }
                }
                // The pull goes on from this answer, not yet applied.
                nextBatch.request.after = answer.last
                following = (nextBatch, transport.answering(try transport.send(nextBatch.request, by: end)))
            }
            let round = try make { try store.applySyncAnswer(user, answer, to: batch) }
            totals.sent += batch.count
            totals.received += round.received
            totals.conflicts += round.conflicts
            onRound?(totals)
            guard let following else { return answer.sinceSnapshot }
            (batch, answering) = following
        }
    }

    /// A step of the store's, its failure as a sync's.
    func make<T>(_ step: () throws -> T) throws(SyncError) -> T {
        do {
            return try step()
        } catch {
            throw Self.failure(error)
        }
    }

    /// Any error of a sync's steps as a sync's failure.
    static func failure(_ error: any Error) -> SyncError {
        if let failure = error as? SyncError { return failure }
        return .store(Navstack.words(for: error).escapedForDisplay)
    }

    /// A failed sync's line, saying that the changes are kept and will be sent next time,
    /// unless its `reason` says what happens itself (a clock ahead: they wait for the
    /// clock), or the passphrase was what failed (its line is the contract's, alone).
    static func changesKept(after failure: SyncError, _ reason: String, in t: Catalog = Navstack.messageCatalog) -> String {
        switch failure {
        case .clockAhead, .wrongPassphrase, .passphraseMismatch: return reason
        default: return t(.syncChangesKept, ("reason", reason))
        }
    }

    /// The words of any error of a sync's steps; a run out of time names the time it had.
    static func describe(_ error: any Error, within budget: Duration? = nil, byOption: Bool = false) -> String {
        let failure = failure(error)
        let t = Navstack.messageCatalog
        if failure == .outOfTime, let budget {
            return t(byOption ? .syncTimedOutByOption : .syncTimedOut, ("seconds", budget.components.seconds))
        }
        return failure.message(in: t)
    }

    /// The notice lines for local values another device replaced, in `t`'s language.
    static func lines(_ notices: [SyncNotice], in t: Catalog = Navstack.messageCatalog) -> [String] {
        notices.map { notice in
            let task = ("task", notice.title.escapedForDisplay)
            if notice.fields.contains("task") { return "navstack: " + t(.syncNoticeDeleted, task) }
            let fields = notice.fields.map { field in
                switch field {
                case "title": t(.fieldTitle)
                case "notes": t(.fieldNotes)
                case "done": t(.syncFieldDone)
                case "parent": t(.syncFieldPlace)
                default: field
                }
            }
            return "navstack: " + t(.syncNoticeChanged, task, ("fields", fields.joined(separator: t(.syncNoticeAnd))))
        }
    }
}

/// `navstack sync`: sends this replica's changes to the server and applies the others'.
struct SyncCommand: Subcommand {
    static let spec = CommandSpec(
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
            .init("user", value: "name", help: "The profile (default: the signed-in one)."),
            .init("timeout", value: "seconds", help: "Give up after this many seconds, whatever the server does (default: 60)."),
        ])

    /// How long a sync may take when `--timeout` does not say.
    static let defaultTimeout = 60

    let storage: StoreOptions
    let server: String?
    /// The token of `--token`, `--token-file` or NAVSTACK_TOKEN, checked when the run starts.
    let token: Result<String?, SyncSecret.Failure>
    let user: String?
    /// The passphrase of `--passphrase-file` or NAVSTACK_SYNC_PASSPHRASE, checked when the run starts.
    let passphrase: Result<String?, SyncSecret.Failure>
    /// Seconds the whole run may take.
    let timeout: Int
    let trust: TLSTrust

    init(_ parsed: ParsedArguments) throws(UsageError) {
        storage = try StoreOptions(fileOnly: parsed, command: "sync")
        server = parsed.value("server")
        if parsed.value("token") != nil, parsed.value("token-file") != nil {
            throw .conflictingOptions("--token <token>", "--token-file <file>")
        }
        token = Result { () throws(SyncSecret.Failure) in
            try SyncToken.given(
                option: parsed.value("token"), file: parsed.value("token-file"), environment: Terminal.environment("NAVSTACK_TOKEN"))
        }
        user = parsed.value("user")
        passphrase = Result { () throws(SyncSecret.Failure) in
            try PassphraseSource.given(
                file: parsed.value("passphrase-file"), environment: Terminal.environment("NAVSTACK_SYNC_PASSPHRASE"))
        }
        timeout = try parsed.integer("timeout", in: 1...86_400) ?? Self.defaultTimeout
        trust = TLSTrust.chosen(ca: parsed.value("ca"))
    }

    func run() throws {
        let streams = StandardStreams.shared
        let user = try checkedUser(self.user, streams, command: "sync")
        if let server {
            do {
                try HTTPURL(server).checkPlainText()
            } catch {
                streams.write("navstack: sync: --server: \(error.message(in: Navstack.messageCatalog))\n", to: .error)
                // An address that is not one (another scheme, no host) or plain HTTP to another
                // machine is bad usage, refused before anything is kept or sent.
                throw ExitStatus(code: 64)
            }
        }
        var token: String?
        let passphrase: String?
        do throws(SyncSecret.Failure) {
            token = try self.token.get()
            passphrase = try self.passphrase.get()
        } catch {
            streams.write("navstack: sync: \(error.message(in: Navstack.messageCatalog))\n", to: .error)
            throw error.exitStatus
        }
        let store = try storage.open(streams, catalog: Navstack.messageCatalog)
        defer { store.close() }
        let progress = SyncProgress(streams: streams, catalog: Navstack.messageCatalog)
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
                token = try SyncToken.ask(for: server, in: Navstack.messageCatalog)
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
        } catch let failure as SyncSecret.Failure {
            throw fail(failure.message(in: Navstack.messageCatalog))
        } catch {
            throw fail(Syncer.describe(error))
        }
        let budget = Duration.seconds(timeout)
        let t = Navstack.messageCatalog
        do {
            var syncer = Syncer(store: store, user: profile, settings: settings, trust: trust)
            syncer.passphrase = PassphraseSource(given: passphrase, mayAsk: true)
            if let progress {
                syncer.onRound = { totals in progress.update(totals) { (try? store.unsentOperations(profile)) ?? 0 } }
            }
            let totals = try syncer.run(within: budget)
            progress?.end()
            streams.write(totals.line + "\n", to: .output)
        } catch {
            var message = Syncer.describe(error, within: budget, byOption: true)
            if error == .refusedToken && given {
                // A token the server refused is known to be wrong: the profile keeps what it had.
                do {
                    try store.restoreSync(profile, to: before, replacing: settings)
                    message = t(.syncGivenNotKept, ("reason", message))
                } catch {
                    message = t(.syncGivenKept, ("reason", message), ("why", Syncer.describe(error)))
                }
            }
            throw fail(Syncer.changesKept(after: error, message, in: t))
        }
    }
}

/// Sync by itself: at launch and after commands that changed tasks, for a profile with a
/// server, within 2 s each time. A failure prints one notice line; after one, the next
/// tries wait 30 s (a server that does not answer would otherwise cost 2 s a command).
final class AutoSync {
    static let budget: Duration = .seconds(2)
    static let pause: Duration = .seconds(30)

    let store: SQLiteStore
    let streams: StandardStreams
    private var quietUntil: ContinuousClock.Instant?
    private var failedLast = false

    /// `nil` for a store in memory, or with NAVSTACK_SYNC=0.
    init?(store: SQLiteStore, streams: StandardStreams, memory: Bool) {
        guard !memory, Terminal.environment("NAVSTACK_SYNC") != "0" else { return nil }
        self.store = store
        self.streams = streams
    }

    /// Syncs the profile when it has a server and (unless `always`) unsent changes, then
    /// prints the notices of local values another device replaced.
    func sync(_ user: String?, always: Bool) {
        guard let user else { return }
        if let quietUntil, ContinuousClock.now < quietUntil { return }
        do {
            // Each step is a transaction of its own: the store is never locked across the
            // exchange with the server, nor while the prompt waits for input after it.
            let synced = try store.committingEachStep { () throws -> Bool in
                guard let settings = try store.syncSettings(user), !settings.token.isEmpty else { return false }
                let unsent = try store.hasUnsentChanges(user)
                guard always || unsent else { return false }
                // The notices of this sync, and of one that ran before (`navstack sync`),
                // even when this one fails.
                defer { showNotices(user) }
                var syncer = Syncer(store: store, user: user, settings: settings)
                syncer.snapshotLimit = SyncSnapshot.automaticSealedBytes
                _ = try syncer.run(within: Self.budget)
                return true
            }
            guard synced else { return }
            quietUntil = nil
            failedLast = false
        } catch {
            quietUntil = ContinuousClock.now.advanced(by: Self.pause)
            // One line for a run of failures.
            if !failedLast {
                let reason = Syncer.describe(error, within: Self.budget)
                streams.write("navstack: sync: \(Syncer.changesKept(after: Syncer.failure(error), reason))\n", to: .error)
            }
            failedLast = true
        }
    }

    /// Prints the notices of local values another device replaced, once each.
    private func showNotices(_ user: String) {
        guard let notices = try? store.takeSyncNotices(user) else { return }
        for line in Syncer.lines(notices) { streams.write(line + "\n", to: .error) }
    }
}
