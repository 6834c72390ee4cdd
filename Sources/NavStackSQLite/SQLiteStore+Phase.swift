import NavStackCore

/// A profile's navigation state as the store keeps it (JSON in `profile.state`).
struct SavedSession: Equatable {
    struct SavedDraft: Equatable {
        var owner: String
        var fields: DraftFields
        var original: DraftFields
        /// The task's uuid (absent on the sheet, and in states saved before uuids).
        var uuid: String?
    }

    var tab: String
    var tasks: [String]
    var account: [String]
    /// The agenda tab's path and the pages of its root and of the day on it (absent in
    /// states saved before the agenda).
    var agenda: [String] = []
    var agendaPage = 1
    var dayPage = 1
    var sheet: String?
    var drafts: [SavedDraft]
    var filter: String
    /// The filter's terms and the sort as a link's query has them (`tag=home&sort=-due`), "" for none.
    var terms: String
    var search: String?
    var page: Int

    init(_ session: Session) {
        tab = session.tab.rawValue
        tasks = session.tasksPath.map(\.description)
        account = session.accountPath.map(\.description)
        agenda = session.agendaPath.map(\.description)
        agendaPage = session.agendaPage
        dayPage = session.dayPage
        sheet = session.sheet?.rawValue
        drafts = session.drafts.map { owner, draft in
            SavedDraft(owner: owner.description, fields: draft.fields, original: draft.original, uuid: draft.uuid)
        }.sorted { $0.owner < $1.owner }
        filter = session.list.filter.rawValue
        // The terms and the sort as a list link's query has them.
        terms = DeepLink.list(ListState(terms: session.list.terms, sort: session.list.sort)).url.split(separator: "?").dropFirst().joined()
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
        let agendaPath = agenda.compactMap(Route.init(description:))
        guard tasksPath.count == tasks.count, accountPath.count == account.count, agendaPath.count == agenda.count else { return nil }
        session.tasksPath = tasksPath
        session.accountPath = accountPath
        session.agendaPath = agendaPath
        session.agendaPage = max(1, agendaPage)
        session.dayPage = max(1, dayPage)
        if let sheet {
            guard let value = Sheet(rawValue: sheet) else { return nil }
            session.sheet = value
        }
        for saved in drafts {
            guard let owner = DraftOwner(description: saved.owner) else { return nil }
            var draft = Draft(editing: saved.original, uuid: saved.uuid)
            draft.fields = saved.fields
            session.drafts[owner] = draft
        }
        var list = ListState(filter: filter, search: search, page: max(1, page))
        if !terms.isEmpty {
            guard case .list(let state)? = try? DeepLink(parsing: "navstack://tasks?" + terms) else { return nil }
            list.terms = state.terms
            list.sort = state.sort
        }
        session.list = list
        return session
    }
}

extension SavedSession {
    /// The JSON the store keeps: `tab`, `tasks`, `account`, `agenda`, `agendaPage` and
    /// `dayPage` (absent when empty or 1), `sheet` (absent when none),
    /// `drafts`, `filter`, `search` (absent when none), `page`.
    var json: String {
        var writer = JSONWriter()
        writer.object { json in
            json.key("tab"); json.string(tab)
            json.key("tasks"); json.strings(tasks)
            json.key("account"); json.strings(account)
            if !agenda.isEmpty { json.key("agenda"); json.strings(agenda) }
            if agendaPage > 1 { json.key("agendaPage"); json.number(agendaPage) }
            if dayPage > 1 { json.key("dayPage"); json.number(dayPage) }
            if let sheet { json.key("sheet"); json.string(sheet) }
            json.key("drafts")
            json.array(drafts) { json, draft in
                json.object { json in
                    json.key("owner"); json.string(draft.owner)
                    json.key("title"); json.string(draft.fields.title)
                    json.key("notes"); json.string(draft.fields.notes)
                    json.key("done"); json.bool(draft.fields.done)
                    draft.fields.writeSetAttributes(to: &json)
                    json.key("original")
                    json.object { json in
                        json.key("title"); json.string(draft.original.title)
                        json.key("notes"); json.string(draft.original.notes)
                        json.key("done"); json.bool(draft.original.done)
                        draft.original.writeSetAttributes(to: &json)
                    }
                    if let uuid = draft.uuid { json.key("uuid"); json.string(uuid) }
                }
            }
            json.key("filter"); json.string(filter)
            if !terms.isEmpty { json.key("terms"); json.string(terms) }
            if let search { json.key("search"); json.string(search) }
            json.key("page"); json.number(page)
        }
        return writer.text
    }

    /// Reads back ``json``; `nil` when something in it is missing or of the wrong kind.
    init?(json text: String) {
        guard let value = JSONValue(parsing: text), let tab = value["tab"]?.string,
            let tasks = value["tasks"]?.array?.compactMap(\.string), let account = value["account"]?.array?.compactMap(\.string),
            let drafts = value["drafts"]?.array, let filter = value["filter"]?.string, let page = value["page"]?.number
        else { return nil }
        self.tab = tab
        self.tasks = tasks
        self.account = account
        agenda = value["agenda"]?.array?.compactMap(\.string) ?? []
        agendaPage = value["agendaPage"]?.number ?? 1
        dayPage = value["dayPage"]?.number ?? 1
        sheet = value["sheet"]?.string
        self.filter = filter
        terms = value["terms"]?.string ?? ""
        search = value["search"]?.string
        self.page = page
        self.drafts = []
        for draft in drafts {
            guard let owner = draft["owner"]?.string, let title = draft["title"]?.string, let notes = draft["notes"]?.string,
                let done = draft["done"]?.bool, let original = draft["original"],
                let originalTitle = original["title"]?.string, let originalNotes = original["notes"]?.string,
                let originalDone = original["done"]?.bool
            else { return nil }
            var fields = DraftFields(title: title, notes: notes, done: done)
            var originalFields = DraftFields(title: originalTitle, notes: originalNotes, done: originalDone)
            guard fields.readSetAttributes(from: draft), originalFields.readSetAttributes(from: original) else { return nil }
            self.drafts.append(SavedDraft(owner: owner, fields: fields, original: originalFields, uuid: draft["uuid"]?.string))
        }
    }
}

extension SQLiteStore {
    public func loadPhase() throws -> Phase {
        try loadPhase(user: nil)
    }

    /// The phase kept, or `user`'s session in it (where that profile was) when given.
    public func loadPhase(user named: String?) throws -> Phase {
        try reading { db in
            let row = try db.first("SELECT user, pending FROM session WHERE id = 1") { ($0.optionalText(0), $0.optionalText(1)) }
            var (user, pending) = row ?? (nil, nil)
            if let named { user = named }
            guard let user else {
                return .signedOut(pending: pending.flatMap { try? DeepLink(parsing: $0) })
            }
            let state = try db.first("SELECT state FROM profile WHERE name = ?", [user]) { $0.optionalText(0) } ?? nil
            let saved = state.flatMap(SavedSession.init(json:))
            return .signedIn(saved?.session(user: user) ?? Session(user: user))
        }
    }

    public func savePhase(_ phase: Phase) throws {
        // In a burst of commands, where a signed-in session is goes to the file once, as
        // the burst commits (the commit that keeps the commands keeps it with them).
        if deferringPhase, case .signedIn = phase {
            deferredPhase = phase
            return
        }
        if let deferred = deferredPhase {
            deferredPhase = nil
            try writePhase(deferred)
        }
        try writePhase(phase)
    }

    /// Writes the phase a burst of commands left, before the burst commits.
    func writeDeferredPhase() throws {
        guard let deferred = deferredPhase else { return }
        deferredPhase = nil
        try writePhase(deferred)
    }

    private func writePhase(_ phase: Phase) throws {
        try writing(touching: .navigation) { db in
            switch phase {
            case .signedOut(let pending):
                try db.run("UPDATE profile SET state = NULL WHERE name = (SELECT user FROM session WHERE id = 1)")
                try db.run("UPDATE session SET user = NULL, pending = ? WHERE id = 1", [pending?.url])
            case .signedIn(let session):
                let state = SavedSession(session).json
                try db.run("UPDATE session SET user = ?, pending = NULL WHERE id = 1", [session.user])
                try db.run("UPDATE profile SET state = ? WHERE name = ?", [state, session.user])
            }
        }
    }
}

extension SQLiteStore {
    /// A number that changes when another connection commits to the store (SQLite's
    /// `data_version`): what a screen left on view is checked against.
    public func dataVersion() throws -> Int {
        try reading { db in try Self.dataVersion(db) }
    }

    /// SQLite's `data_version` of the connection, from one statement prepared once.
    static func dataVersion(_ db: Connection) throws -> Int {
        try db.statement(dataVersionSQL).first({ _ in }, reading: { $0.int(0) }) ?? 0
    }

    private static let dataVersionSQL = SQL("PRAGMA data_version")
}
