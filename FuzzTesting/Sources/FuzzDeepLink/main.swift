import NavStackCore

/// Any text as a deep link: a link that parses prints a URL that parses back to it,
/// and rebuilds from its tab, path and sheet, with the list's state and the page it
/// names (of subtasks, of the agenda, of a day).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeepLink(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let link = try? DeepLink(parsing: text) else { return 0 }
    precondition((try? DeepLink(parsing: link.url)) == link, "\(link.url) does not parse back")
    precondition((try? DeepLink(parsing: link.path)) == link, "\(link.path) does not parse back")
    var list = ListState()
    var page = 1
    switch link {
    case .list(let state): list = state
    // The page a link names: of a task's subtasks, of the agenda, of a day.
    case .detail(_, let shown), .agenda(let shown), .day(_, let shown), .agendaTask(_, _, _, let shown): page = shown
    default: break
    }
    // A uuid names a task until it is resolved; the link rebuilt from a path names ids.
    guard link.uuid == nil else { return 0 }
    precondition(DeepLink(tab: link.tab, path: link.routes, sheet: link.sheet, list: list, page: page) == link)
    return 0
}
