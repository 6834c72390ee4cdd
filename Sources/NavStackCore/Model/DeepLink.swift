import NavStackBytes
import NavStackTime

/// A `navstack://` URL: one per screen of the signed-in app.
///
/// `go` opens a link by selecting its tab and replacing that tab's path with the
/// synthesised back stack: `tasks/1/4/edit` becomes `[detail/1, detail/4, edit/4]`. A
/// task's link names the chain of tasks from the top of the tree down to it; the short
/// form (`tasks/4`) names the task alone, and `go` builds the chain from the tree.
public enum DeepLink: Equatable, Hashable, Sendable {
    /// The list, with what differs from its default state: `tasks?filter=open&q=fruit&page=2`.
    case list(ListState)
    /// A task's detail screen, with the page of its subtasks shown (`?page=2`).
    case detail(chain: [Int], page: Int)
    case edit(chain: [Int])
    /// The new-task sheet, over the list (`tasks/new`) or over a task's detail, for a
    /// subtask of it (`tasks/1/4/new`).
    case sheet(under: [Int])
    case account
    case settings
    case about
    /// `tasks/<uuid>` and `tasks/<uuid>/edit`: a task named by its uuid, which `go`
    /// resolves to its chain before it opens the link (a screen's own link names ids).
    case taskByUUID(String)
    case editTaskByUUID(String)
    /// The agenda's root, with its page shown: `agenda`, `agenda?page=2`.
    case agenda(page: Int)
    /// A day of the agenda: `agenda/2026-12-01`.
    case day(CivilDate, page: Int)
    /// A task opened from the agenda (or from a day of it), then its subtasks opened
    /// from it: `agenda/4/9`, `agenda/2026-12-01/4/edit`. Its chain starts at the task
    /// opened from the agenda, not at the top of the tree.
    case agendaTask(day: CivilDate?, chain: [Int], editing: Bool, page: Int)

    public static let scheme = "navstack"

    /// The list in its default state: `tasks`.
    public static let tasks = DeepLink.list(ListState())
    /// The new-task sheet over the list: `tasks/new`.
    public static let newTask = DeepLink.sheet(under: [])

    /// The short link of a task's detail screen: `tasks/ID`.
    public static func task(_ id: Int) -> DeepLink { .detail(chain: [id], page: 1) }
    /// The short link of a task's edit screen: `tasks/ID/edit`.
    public static func editTask(_ id: Int) -> DeepLink { .edit(chain: [id]) }

    /// The full URL, `navstack://tasks/2/edit`.
    public var url: String {
        switch self {
        // A screen's own link, made once a command: written in one go.
        case .detail(let chain, 1): Self.chainPath(chain, scheme: true, last: "")
        case .edit(let chain): Self.chainPath(chain, scheme: true, last: "/edit")
        case .list(let state) where state == ListState(): "navstack://tasks"
        default: "navstack://" + path
        }
    }

    /// The part after the scheme, `tasks/2/edit`.
    public var path: String {
        switch self {
        case .list(let state): "tasks" + Self.query(state)
        case .detail(let chain, let page):
            Self.chainPath(chain, scheme: false, last: "") + (page > 1 ? "?page=\(page)" : "")
        case .edit(let chain): Self.chainPath(chain, scheme: false, last: "/edit")
        case .sheet(let chain): Self.chainPath(chain, scheme: false, last: "/new")
        case .account: "account"
        case .settings: "account/settings"
        case .about: "account/about"
        case .taskByUUID(let uuid): "tasks/\(uuid)"
        case .editTaskByUUID(let uuid): "tasks/\(uuid)/edit"
        case .agenda(let page): "agenda" + Self.pageQuery(page)
        case .day(let date, let page): "agenda/" + date.isoText + Self.pageQuery(page)
        case .agendaTask(let day, let chain, let editing, let page):
            "agenda" + (day.map { "/" + $0.isoText } ?? "") + chain.map { "/\($0)" }.joined()
                + (editing ? "/edit" : Self.pageQuery(page))
        }
    }

    /// `?page=N` past the first page, else nothing.
    private static func pageQuery(_ page: Int) -> String {
        page > 1 ? "?page=\(page)" : ""
    }

    /// The full URL's bytes, lent to `body`: a task's own link (the usual screen's) is
    /// written on the stack, any other comes from ``url``.
    public func withURLBytes<R>(_ body: (ByteView) -> R) -> R {
        switch self {
        case .detail(let chain, 1): Self.withChainURLBytes(chain, count: chain.count, last: "", body)
        case .edit(let chain): Self.withChainURLBytes(chain, count: chain.count, last: "/edit", body)
        default:
            url.withUTF8Bytes(body)
        }
    }

    /// The URL of a task's screen from the routes of the path to it (what a detail or an
    /// edit screen's link is made from), its bytes lent to `body` from the stack.
    static func withTaskURLBytes<R>(path: [Route], editing: Bool, _ body: (ByteView) -> R) -> R {
        let chain = path.lazy.compactMap { route -> Int? in
            if case .detail(let id) = route { return id }
            return nil
        }
        return withChainURLBytes(chain, count: path.count, last: editing ? "/edit" : "", body)
    }

    /// `navstack://tasks/1/4` and `last` written on the stack for `body`; `count` is at
    /// least how many ids `chain` has.
    private static func withChainURLBytes<R>(
        _ chain: some Sequence<Int>, count: Int, last: StaticString, _ body: (ByteView) -> R
    ) -> R {
        withStackBytes(
            capacity: chainPathCapacity(count, scheme: true, last: last),
            write: { writeChainPath(chain, scheme: true, last: last, into: &$0) }, body)
    }

    /// `[navstack://]tasks/1/4` and `last`, written byte by byte.
    private static func chainPath(_ chain: [Int], scheme: Bool, last: StaticString) -> String {
        String(capacity: chainPathCapacity(chain.count, scheme: scheme, last: last)) { bytes in
            writeChainPath(chain, scheme: scheme, last: last, into: &bytes)
        }
    }

    /// The most bytes ``writeChainPath(_:scheme:last:into:)`` writes for `count` ids: an
    /// id is at most 20 digits and a sign.
    private static func chainPathCapacity(_ count: Int, scheme: Bool, last: StaticString) -> Int {
        (scheme ? 16 : 5) + count * 22 + last.utf8CodeUnitCount
    }

    /// Writes `[navstack://]tasks/1/4` and `last` into `bytes`.
    private static func writeChainPath(
        _ chain: some Sequence<Int>, scheme: Bool, last: StaticString, into bytes: inout ByteWriter
    ) {
        bytes.append(scheme ? "navstack://tasks" : "tasks")
        for id in chain {
            bytes.append(UInt8(ascii: "/"))
            bytes.appendDecimal(id)
        }
        bytes.append(last)
    }

    /// `?filter=open&q=fruit&sort=-due&page=2`: what differs from the list's default state.
    private static func query(_ state: ListState) -> String {
        var items: [String] = []
        if state.filter != .all { items.append("filter=" + state.filter.word) }
        let terms = state.terms
        if !terms.tags.isEmpty { items.append("tag=" + terms.tags.map(\.percentEncoded).joined(separator: ",")) }
        if !terms.withoutTags.isEmpty { items.append("notag=" + terms.withoutTags.map(\.percentEncoded).joined(separator: ",")) }
        if let project = terms.project { items.append("project=" + project.percentEncoded) }
        if let priority = terms.priority { items.append("priority=" + priority.rawValue) }
        if let due = terms.dueWord { items.append("due=" + due.percentEncoded) }
        if let before = terms.dueBefore { items.append("due.before=" + before.percentEncoded) }
        if let after = terms.dueAfter { items.append("due.after=" + after.percentEncoded) }
        if let search = state.search { items.append("q=" + search.percentEncoded) }
        if let sort = state.sort { items.append("sort=" + sort.word) }
        if state.page > 1 { items.append("page=\(state.page)") }
        return items.isEmpty ? "" : "?" + items.joined(separator: "&")
    }

    /// The uuid a link names its task by, until it is resolved.
    public var uuid: String? {
        switch self {
        case .taskByUUID(let uuid), .editTaskByUUID(let uuid): uuid
        default: nil
        }
    }

    /// The link with its task's chain, as the tree has it now.
    public func resolved(chain: [Int]) -> DeepLink {
        switch self {
        case .taskByUUID: .detail(chain: chain, page: 1)
        case .detail(_, let page): .detail(chain: chain, page: page)
        case .editTaskByUUID, .edit: .edit(chain: chain)
        case .sheet: .sheet(under: chain)
        default: self
        }
    }

    /// The tab the link selects.
    public var tab: Tab {
        switch self {
        case .list, .detail, .edit, .sheet, .taskByUUID, .editTaskByUUID: .tasks
        case .agenda, .day, .agendaTask: .agenda
        case .account, .settings, .about: .account
        }
    }

    /// The synthesised back stack of the link's tab.
    public var routes: [Route] {
        switch self {
        case .list, .account, .taskByUUID, .editTaskByUUID, .agenda: []
        case .detail(let chain, _), .sheet(let chain): chain.map(Route.detail)
        case .edit(let chain): chain.map(Route.detail) + [.edit(chain.last ?? 0)]
        case .settings: [.settings]
        case .about: [.about]
        case .day(let date, _): [.day(date)]
        case .agendaTask(let day, let chain, let editing, _):
            (day.map { [Route.day($0)] } ?? []) + chain.map(Route.detail) + (editing ? [.edit(chain.last ?? 0)] : [])
        }
    }

    /// The sheet the link presents.
    public var sheet: Sheet? {
        if case .sheet = self { return .newTask }
        return nil
    }

    /// The task the link names (the one a sheet would add a subtask to), which must exist
    /// when it is opened.
    public var taskID: Int? {
        switch self {
        case .detail(let chain, _), .edit(let chain), .sheet(let chain), .agendaTask(_, let chain, _, _): chain.last
        default: nil
        }
    }

    /// The chain of ids the link gives, as it gives it.
    public var chain: [Int] {
        switch self {
        case .detail(let chain, _), .edit(let chain), .sheet(let chain), .agendaTask(_, let chain, _, _): chain
        default: []
        }
    }

    /// The link of a screen: a tab, its path and the sheet over it; the list's state and
    /// the page of the subtasks of the task on top.
    ///
    /// Every state the app can reach has a link, so `go` can rebuild any state.
    public init(tab: Tab, path: [Route], sheet: Sheet?, list: ListState = ListState(), page: Int = 1) {
        let chain = path.compactMap { route -> Int? in
            if case .detail(let id) = route { return id }
            return nil
        }
        if tab == .agenda {
            let day: CivilDate? = if case .day(let date)? = path.first { date } else { nil }
            switch path.last {
            case nil: self = .agenda(page: page)
            case .day(let date)?: self = .day(date, page: page)
            case .edit?: self = .agendaTask(day: day, chain: chain, editing: true, page: 1)
            default: self = .agendaTask(day: day, chain: chain, editing: false, page: page)
            }
            return
        }
        switch (tab, path.last, sheet) {
        case (.tasks, _, .newTask): self = .sheet(under: chain)
        case (.tasks, nil, nil): self = .list(list)
        case (.tasks, .detail?, nil): self = .detail(chain: chain, page: page)
        case (.tasks, .edit?, nil): self = .edit(chain: chain)
        case (.account, .settings?, _): self = .settings
        case (.account, .about?, _): self = .about
        default: self = tab == .tasks ? .tasks : .account
        }
    }

    /// Parses a full URL (`navstack://tasks/2`) or the part after the scheme (`tasks/2`).
    public init(parsing text: String) throws(NavError) {
        var rest = Substring(text)
        if let range = text.firstRange(of: "://") {
            let scheme = text[..<range.lowerBound]
            guard scheme.lowercased() == Self.scheme else {
                throw .foreignScheme(String(scheme).escapedForDisplay)
            }
            rest = text[range.upperBound...]
        } else if let colon = text.firstIndex(of: ":") {
            let scheme = text[..<colon]
            if scheme.lowercased() != Self.scheme, scheme.allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
                !scheme.isEmpty
            {
                throw .foreignScheme(String(scheme).escapedForDisplay)
            }
            throw .malformedLink(text.escapedForDisplay)
        }
        let malformed = NavError.malformedLink(text.escapedForDisplay)
        var query: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            guard let items = Self.queryItems(rest[rest.index(after: mark)...]) else { throw malformed }
            query = items
            rest = rest[..<mark]
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        func id(_ part: Substring) throws(NavError) -> Int {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw malformed }
            guard part.count <= 18, let value = Int(part), value > 0 else {
                throw .noSuchTask(String(part))
            }
            return value
        }
        func page() throws(NavError) -> Int {
            guard let text = query.removeValue(forKey: "page") else { return 1 }
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                let page = Int(text), page > 0
            else { throw malformed }
            return page
        }
        switch parts.first {
        case "tasks" where parts.count == 1:
            var state = ListState()
            // The terms as the words `filter` takes, read by the same reader.
            var words: [String] = []
            if let filter = query.removeValue(forKey: "filter") {
                guard ListFilter(word: filter) != nil else { throw malformed }
                words.append(filter)
            }
            for (key, word) in Self.termKeys {
                guard let value = query.removeValue(forKey: key) else { continue }
                guard let decoded = value.percentDecoded else { throw malformed }
                if key == "tag" || key == "notag" {
                    words += decoded.split(separator: ",", omittingEmptySubsequences: false).map { word + $0 }
                } else {
                    words.append(word + decoded)
                }
            }
            guard let (status, terms) = try? ListTerms.read(words) else { throw malformed }
            state.filter = status ?? .all
            state.terms = terms
            if let search = query.removeValue(forKey: "q") {
                guard let decoded = search.percentDecoded, !decoded.isBlank,
                    !decoded.unicodeScalars.contains(where: { FieldRules.refuses($0, lines: false) })
                else { throw malformed }
                state.search = decoded
            }
            if let sort = query.removeValue(forKey: "sort") {
                guard let value = ListSort(word: sort), value.word == sort else { throw malformed }
                state.sort = value
            }
            state.page = try page()
            self = .list(state)
        case "tasks" where (parts.count == 2 || parts.count == 3) && String(parts[1]).isUUID:
            let uuid = parts[1].lowercased()
            if parts.count == 2 {
                self = .taskByUUID(uuid)
            } else {
                guard parts[2] == "edit" else { throw malformed }
                self = .editTaskByUUID(uuid)
            }
        case "tasks":
            var chain: [Int] = []
            for part in parts.dropFirst().dropLast() { chain.append(try id(part)) }
            switch parts.last! {
            case "new": self = .sheet(under: chain)
            case "edit":
                guard !chain.isEmpty else { throw malformed }
                self = .edit(chain: chain)
            case let last:
                chain.append(try id(last))
                self = .detail(chain: chain, page: try page())
            }
        case "agenda":
            var rest = parts.dropFirst()
            var day: CivilDate?
            if let first = rest.first, first.contains("-") {
                guard let date = CivilDate(isoText: first), CivilDate.agendaDays.contains(date) else { throw malformed }
                day = date
                rest = rest.dropFirst()
            }
            let editing = rest.last == "edit"
            if editing { rest = rest.dropLast() }
            var chain: [Int] = []
            for part in rest { chain.append(try id(part)) }
            switch (day, chain.isEmpty) {
            case (_, false): self = .agendaTask(day: day, chain: chain, editing: editing, page: editing ? 1 : try page())
            case (nil, true) where !editing: self = .agenda(page: try page())
            case (let date?, true) where !editing: self = .day(date, page: try page())
            default: throw malformed
            }
        case "account" where parts.count == 1: self = .account
        case "account" where parts.count == 2 && parts[1] == "settings": self = .settings
        case "account" where parts.count == 2 && parts[1] == "about": self = .about
        default: throw malformed
        }
        // Keys the link's screen does not take.
        guard query.isEmpty else { throw malformed }
    }

    /// A list link's keys of filter terms and the word each value follows in a filter:
    /// `tag=home,work` is `+home +work`, `due.before=eow` is `due.before:eow`.
    private static let termKeys = [
        ("tag", "+"), ("notag", "-"), ("project", "project:"), ("priority", "priority:"), ("due", "due:"),
        ("due.before", "due.before:"), ("due.after", "due.after:"),
    ]

    /// A query's `key=value` items; `nil` for an item without `=`, an empty value or a key
    /// given twice.
    private static func queryItems(_ text: Substring) -> [String: String]? {
        var items: [String: String] = [:]
        for item in text.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "="), item.index(after: equals) != item.endIndex else { return nil }
            let key = String(item[..<equals])
            guard items[key] == nil else { return nil }
            items[key] = String(item[item.index(after: equals)...])
        }
        return items
    }

    /// Every link form, for help and for completion.
    public static let forms = [
        "tasks",
        "tasks?filter=open&tag=NAME,NAME&notag=NAME&project=NAME&priority=H&due=week&due.before=DATE&due.after=DATE&q=TEXT"
            + "&sort=-due&page=N",
        "tasks/ID", "tasks/ID/ID…", "tasks/ID/edit",
        "tasks/new",
        "tasks/ID/new", "agenda", "agenda/YYYY-MM-DD", "agenda/ID…", "agenda/YYYY-MM-DD/ID…", "agenda/…/edit", "account",
        "account/settings", "account/about",
    ]
}

extension String {
    /// The text as a URL query value: bytes other than letters, digits and `-._~` as `%XX`.
    var percentEncoded: String {
        var text = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                text += "%"
                text.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                text.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 15)]))
            }
        }
        return text
    }

    /// A query value decoded: `%XX` as a byte and `+` as a space; `nil` for a bad escape or
    /// bytes that are not UTF-8.
    var percentDecoded: String? {
        var bytes: [UInt8] = []
        var input = utf8.makeIterator()
        func hexValue(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case let b? where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b): b - UInt8(ascii: "0")
            case let b? where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b): b - UInt8(ascii: "a") + 10
            case let b? where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b): b - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = input.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = hexValue(input.next()), let low = hexValue(input.next()) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
