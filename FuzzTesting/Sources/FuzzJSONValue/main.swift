import NavStackCore

/// Any bytes as stored JSON: the reader returns a value or nil, never crashes, and a
/// string it reads is written back by JSONWriter as JSON that reads back to the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONValue(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let value = JSONValue(parsing: text) else { return 0 }
    var strings: [String] = []
    var pending = [value]
    while let next = pending.popLast() {
        switch next {
        case .string(let string): strings.append(string)
        case .array(let values): pending += values
        case .object(let members): pending += members.map(\.1)
            strings += members.map(\.0)
        default: break
        }
    }
    var writer = JSONWriter()
    writer.strings(strings)
    precondition(JSONValue(parsing: writer.text) == .array(strings.map(JSONValue.string)), "\(strings) does not read back")
    return 0
}
