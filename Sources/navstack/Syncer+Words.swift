import NavStackCore
import NavStackIO
import NavStackSQLite
import NavStackSync
import NavStackSyncClient

extension Syncer {
    /// Any error of a sync's steps as a sync's failure.
    static func failure(_ error: any Error) -> SyncError {
        SyncError(error, in: Navstack.messageCatalog)
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
