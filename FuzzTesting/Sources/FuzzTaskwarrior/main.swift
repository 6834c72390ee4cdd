import NavStackCore
import NavStackSQLite

/// Any bytes as a `task export`: read whole and read in blocks (of a size the first byte
/// picks, 1 to 64), the reader gives the same records and templates kept, or the same
/// failure at the same offset, and never crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTaskwarrior(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let size = Int(start[0] % 64) + 1
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    func outcome(blockSize: Int?) -> String {
        var records: [String] = []
        do {
            let kept = try TaskwarriorReader.read(bytes, source: "fuzz", blockSize: blockSize) { record, index in
                precondition(index == records.count, "record \(index) given as number \(records.count)")
                records.append("\(record)")
            }
            return "\(records) \(kept.map { "\($0)" })"
        } catch {
            return "\(error)"
        }
    }
    let whole = outcome(blockSize: nil)
    let blocks = outcome(blockSize: size)
    precondition(whole == blocks, "read whole: \(whole)\nread in blocks of \(size): \(blocks)")
    return 0
}
