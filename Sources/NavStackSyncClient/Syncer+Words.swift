import NavStackCore
import NavStackSQLite
import NavStackSync

extension Syncer {
    /// Any error of a sync's steps as a sync's failure.
    public static func failure(_ error: any Error, in t: Catalog) -> SyncError {
        SyncError(error, in: t)
    }

    /// A failed sync's line, saying that the changes are kept and will be sent next time,
    /// unless its `reason` says what happens itself (a clock ahead: they wait for the
    /// clock), or the passphrase was what failed (its line is the contract's, alone).
    public static func changesKept(after failure: SyncError, _ reason: String, in t: Catalog) -> String {
        switch failure {
        case .clockAhead, .wrongPassphrase, .passphraseMismatch: return reason
        default: return t(.syncChangesKept, ("reason", reason))
        }
    }

    /// The words of any error of a sync's steps; a run out of time names the time it had.
    public static func describe(_ error: any Error, within budget: Duration? = nil, byOption: Bool = false, in t: Catalog) -> String {
        let failure = failure(error, in: t)
        if failure == .outOfTime, let budget {
            return t(byOption ? .syncTimedOutByOption : .syncTimedOut, ("seconds", budget.components.seconds))
        }
        return failure.message(in: t)
    }

    /// The notice lines for local values another device replaced, in `t`'s language.
    public static func lines(_ notices: [SyncNotice], in t: Catalog) -> [String] {
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
