import Foundation
import NavStackCore

/// A profile's navigation state as the store keeps it (JSON in `profile.state`).
struct SavedSession: Codable, Equatable {
    struct SavedDraft: Codable, Equatable {
        var owner: String
        var title: String
        var notes: String
        var done: Bool
        var original: Fields
    }

    struct Fields: Codable, Equatable {
        var title: String
        var notes: String
        var done: Bool
    }

    var tab: String
    var tasks: [String]
    var account: [String]
    var sheet: String?
    var drafts: [SavedDraft]
    var filter: String
    var search: String?
    var page: Int

    init(_ session: Session) {
        tab = session.tab.rawValue
        tasks = session.tasksPath.map(\.description)
        account = session.accountPath.map(\.description)
        sheet = session.sheet?.rawValue
        drafts = session.drafts.map { owner, draft in
            SavedDraft(owner: owner.description, title: draft.fields.title, notes: draft.fields.notes,
                       done: draft.fields.done,
                       original: Fields(title: draft.original.title, notes: draft.original.notes, done: draft.original.done))
        }.sorted { $0.owner < $1.owner }
        filter = session.list.filter.rawValue
        search = session.list.search
        page = session.list.page
    }

    /// The session, or `nil` when something in it does not read back.
    func session(user: String) -> Session? {
        guard let tab = Tab(rawValue: tab), let filter = ListFilter(rawValue: filter) else { return nil }
        var session = Session(user: user)
        session.tab = tab
        let tasksPath = tasks.compactMap(Route.init(description:))
        let accountPath = account.compactMap(Route.init(description:))
        guard tasksPath.count == tasks.count, accountPath.count == account.count else { return nil }
        session.tasksPath = tasksPath
        session.accountPath = accountPath
        if let sheet {
            guard let value = Sheet(rawValue: sheet) else { return nil }
            session.sheet = value
        }
        for saved in drafts {
            guard let owner = DraftOwner(description: saved.owner) else { return nil }
            var draft = Draft(editing: DraftFields(title: saved.original.title, notes: saved.original.notes,
                                                   done: saved.original.done))
            draft.fields = DraftFields(title: saved.title, notes: saved.notes, done: saved.done)
            session.drafts[owner] = draft
        }
        session.list = ListState(filter: filter, search: search, page: max(1, page))
        return session
    }
}

extension SQLiteStore {
    public func loadPhase() throws -> Phase {
        try reading { db in
            let row = try db.first("SELECT user, pending FROM session WHERE id = 1") { ($0.optionalText(0), $0.optionalText(1)) }
            let (user, pending) = row ?? (nil, nil)
            guard let user else {
                return .signedOut(pending: pending.flatMap { try? DeepLink(parsing: $0) })
            }
            let state = try db.first("SELECT state FROM profile WHERE name = ?", [user]) { $0.optionalText(0) } ?? nil
            let saved = state.flatMap { try? JSONDecoder().decode(SavedSession.self, from: Data($0.utf8)) }
            return .signedIn(saved?.session(user: user) ?? Session(user: user))
        }
    }

    public func savePhase(_ phase: Phase) throws {
        try writing { db in
            switch phase {
            case .signedOut(let pending):
                try db.run("UPDATE profile SET state = NULL WHERE name = (SELECT user FROM session WHERE id = 1)")
                try db.run("UPDATE session SET user = NULL, pending = ? WHERE id = 1", [pending?.url])
            case .signedIn(let session):
                let state = String(decoding: try JSONEncoder().encode(SavedSession(session)), as: UTF8.self)
                try db.run("UPDATE session SET user = ?, pending = NULL WHERE id = 1", [session.user])
                try db.run("UPDATE profile SET state = ? WHERE name = ?", [state, session.user])
            }
        }
    }
}
