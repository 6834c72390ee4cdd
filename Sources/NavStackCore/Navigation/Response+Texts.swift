/// Byte-exact sameness of answers, for the memo of printed screens.
///
/// Swift's `==` on strings is canonical equivalence: `Cafe\u{301}` equals `Caf\u{e9}`,
/// though the two print different bytes. Two answers print the same bytes only when they
/// are equal and every text they show has the same bytes too. Once `==` holds, the two
/// have the same shape (cases, counts), so their texts are compared side by side.
extension Response {
    /// Whether `other` prints exactly what this answer prints: equal, and each text the
    /// same bytes.
    func printsLike(_ other: Response) -> Bool {
        guard self == other else { return false }
        switch (self, other) {
        case (.screen(let one), .screen(let another)): return one === another || one.textsMatch(another)
        case (.help(let one, let oneDetails), .help(let another, let anotherDetails)):
            return zip(one, another).allSatisfy { $0.command.hasSameBytes(as: $1.command) && $0.summary.hasSameBytes(as: $1.summary) }
                && sameBytes(oneDetails, anotherDetails)
        case (.location(let oneURL, let one), .location(let anotherURL, let another)):
            return sameBytes(oneURL, anotherURL) && sameBytes(one, another)
        default: return true
        }
    }
}

extension Screen {
    /// Whether every text of two equal screens has the same bytes.
    fileprivate func textsMatch(_ other: Screen) -> Bool {
        guard title.hasSameBytes(as: other.title), sameBytes(breadcrumb, other.breadcrumb),
            sameBytes(list.search, other.list.search)
        else { return false }
        // One case at a time (a switch over the pair would copy both payloads first).
        switch content {
        case .login(let one?):
            guard case .login(let another?) = other.content else { return true }
            return one.textsMatch(another)
        case .list(let one):
            guard case .list(let another) = other.content else { return true }
            return one.textsMatch(another)
        case .detail(let one, let oneRows):
            guard case .detail(let another, let anotherRows) = other.content else { return true }
            return one.textsMatch(another) && oneRows.textsMatch(anotherRows)
        case .draft(let one, let oneConflicts, _):
            guard case .draft(let another, let anotherConflicts, _) = other.content else { return true }
            return one.fields.textsMatch(another.fields) && one.original.textsMatch(another.original)
                && zip(oneConflicts, anotherConflicts).allSatisfy { one, another in
                    one.base.textsMatch(another.base) && one.mine.textsMatch(another.mine)
                        && one.theirs.textsMatch(another.theirs)
                }
        case .account(let one, _):
            guard case .account(let another, _) = other.content else { return true }
            return one.hasSameBytes(as: another)
        case .settings(let one):
            guard case .settings(let another) = other.content else { return true }
            return one.store.hasSameBytes(as: another.store) && one.language.hasSameBytes(as: another.language)
        case .about(let one):
            guard case .about(let another) = other.content else { return true }
            return one.hasSameBytes(as: another)
        case .confirm(let one, _, let oneMessage):
            guard case .confirm(let another, _, let anotherMessage) = other.content else { return true }
            return one.textsMatch(another) && oneMessage.hasSameBytes(as: anotherMessage)
        case .agenda(let one):
            guard case .agenda(let another) = other.content else { return true }
            for (mine, theirs) in zip(one.sections, another.sections) {
                for index in mine.rows.indices where !mine.rows[index].task.textsMatch(theirs.rows[index].task) { return false }
            }
            return true
        case .day(_, let one):
            guard case .day(_, let another) = other.content else { return true }
            return one.textsMatch(another)
        case .login(nil), .notFound: return true
        }
    }
}

extension ListPage {
    fileprivate func textsMatch(_ other: ListPage) -> Bool {
        guard sameBytes(search, other.search) else { return false }
        for index in rows.indices where !rows[index].task.textsMatch(other.rows[index].task) { return false }
        return true
    }
}

extension TaskItem {
    fileprivate func textsMatch(_ other: TaskItem) -> Bool {
        uuid.hasSameBytes(as: other.uuid) && fields.textsMatch(other.fields)
    }
}

extension DraftFields {
    /// Every text the fields hold: the title, the notes and each text of ``TaskExtra``.
    fileprivate func textsMatch(_ other: DraftFields) -> Bool {
        title.hasSameBytes(as: other.title) && notes.hasSameBytes(as: other.notes) && extra.textsMatch(other.extra)
    }
}

extension TaskExtra {
    fileprivate func textsMatch(_ other: TaskExtra) -> Bool {
        // Both without fields (most tasks), or the same values behind one reference.
        if isEmpty && other.isEmpty { return true }
        return sameBytes(project, other.project) && sameBytes(recur, other.recur) && sameBytes(tags, other.tags)
            && sameBytes(depends, other.depends) && sameBytes(annotations.map(\.text), other.annotations.map(\.text))
            && sameBytes(custom.map(\.name), other.custom.map(\.name))
            && sameBytes(custom.map(\.value), other.custom.map(\.value))
    }
}

extension FieldValue {
    /// Every text the value holds (equal values have the same case and counts).
    fileprivate func textsMatch(_ other: FieldValue) -> Bool {
        switch (self, other) {
        case (.text(let one), .text(let another)): one.hasSameBytes(as: another)
        case (.name(let one), .name(let another)): sameBytes(one, another)
        case (.words(let one), .words(let another)): sameBytes(one, another)
        case (.annotations(let one), .annotations(let another)): sameBytes(one.map(\.text), another.map(\.text))
        case (.custom(let one), .custom(let another)):
            sameBytes(one.map(\.name), another.map(\.name)) && sameBytes(one.map(\.value), another.map(\.value))
        default: true
        }
    }
}

extension DeepLink {
    fileprivate func textsMatch(_ other: DeepLink) -> Bool {
        switch (self, other) {
        case (.list(let one), .list(let another)): sameBytes(one.search, another.search)
        case (.taskByUUID(let one), .taskByUUID(let another)), (.editTaskByUUID(let one), .editTaskByUUID(let another)):
            one.hasSameBytes(as: another)
        default: true
        }
    }
}

private func sameBytes(_ one: String?, _ another: String?) -> Bool {
    guard let one, let another else { return one == nil && another == nil }
    return one.hasSameBytes(as: another)
}

private func sameBytes(_ one: [String], _ another: [String]) -> Bool {
    guard one.count == another.count else { return false }
    for index in one.indices where !one[index].hasSameBytes(as: another[index]) { return false }
    return true
}
