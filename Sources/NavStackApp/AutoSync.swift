import NavStackHTTP
import NavStackIO
import NavStackSQLite
import NavStackSync
import NavStackSyncClient

/// Sync by itself: at launch and after commands that changed tasks, for a profile with a
/// server, within 2 s each time. A failure prints one notice line; after one, the next
/// tries wait 30 s (a server that does not answer would otherwise cost 2 s a command).
public final class AutoSync {
    public static let budget: Duration = .seconds(2)
    public static let pause: Duration = .seconds(30)

    public let store: SQLiteStore
    public let streams: StandardStreams
    private var quietUntil: ContinuousClock.Instant?
    private var failedLast = false

    /// `nil` for a store in memory, or with NAVSTACK_SYNC=0.
    public init?(store: SQLiteStore, streams: StandardStreams, memory: Bool) {
        guard !memory, Terminal.environment("NAVSTACK_SYNC") != "0" else { return nil }
        self.store = store
        self.streams = streams
    }

    /// Syncs the profile when it has a server and (unless `always`) unsent changes, then
    /// prints the notices of local values another device replaced. Whether it synced.
    @discardableResult
    public func sync(_ user: String?, always: Bool) -> Bool {
        guard let user else { return false }
        if let quietUntil, ContinuousClock.now < quietUntil { return false }
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
                let transport = try HTTPSyncTransport(
                    server: settings.server, token: settings.token,
                    trust: TLSTrust.chosen(ca: nil, environment: Terminal.environment("NAVSTACK_CA")), catalog: App.messageCatalog)
                // Checked as `navstack sync` checks it: a key made from a passphrase that
                // command refuses would let no other device join.
                let given: String?
                do throws(SyncSecretError) {
                    given = try PassphraseSource.given(file: nil, environment: Terminal.environment("NAVSTACK_SYNC_PASSPHRASE"))
                } catch {
                    throw SyncError.store(error.message(in: App.messageCatalog))
                }
                let passphrase = PassphraseSource(given: given, catalog: App.messageCatalog, mayAsk: false)
                var syncer = Syncer(
                    store: store, user: user, transport: transport, passphrase: passphrase, catalog: App.messageCatalog)
                syncer.snapshotLimit = SyncSnapshot.automaticSealedBytes
                let totals = try syncer.run(within: Self.budget)
                for notice in totals.notices(in: App.messageCatalog) {
                    streams.write("navstack: sync: \(notice)\n", to: .error)
                }
                return true
            }
            guard synced else { return false }
            quietUntil = nil
            failedLast = false
            return true
        } catch {
            quietUntil = ContinuousClock.now.advanced(by: Self.pause)
            // One line for a run of failures.
            if !failedLast {
                let t = App.messageCatalog
                let reason = Syncer.describe(error, within: Self.budget, in: t)
                streams.write("navstack: sync: \(Syncer.changesKept(after: Syncer.failure(error, in: t), reason, in: t))\n", to: .error)
            }
            failedLast = true
            return false
        }
    }

    /// Prints the notices of local values another device replaced, once each.
    private func showNotices(_ user: String) {
        guard let notices = try? store.takeSyncNotices(user) else { return }
        for line in Syncer.lines(notices, in: App.messageCatalog) { streams.write(line + "\n", to: .error) }
    }
}
