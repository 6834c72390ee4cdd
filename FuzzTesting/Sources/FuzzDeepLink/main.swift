import NavStackCore

/// Any text as a deep link: a link that parses prints a URL that parses back to it,
/// and rebuilds from its tab, path and sheet.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeepLink(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let link = try? DeepLink(parsing: text) else { return 0 }
    precondition((try? DeepLink(parsing: link.url)) == link, "\(link.url) does not parse back")
    precondition((try? DeepLink(parsing: link.path)) == link, "\(link.path) does not parse back")
    precondition(DeepLink(tab: link.tab, path: link.routes, sheet: link.sheet) == link)
    return 0
}
