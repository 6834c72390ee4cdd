import NavStackCore
import NavStackSync

/// Any bytes as a sync request (what the server reads), as an answer (what navstack
/// reads) and as a sealed operation's payload once opened: a message or one failure whose
/// words render, never a crash; a message read is
/// written back and reads again as the same; each operation read becomes a change or is
/// skipped, and applying it to a register never crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncCodec(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let payload = Array(UnsafeBufferPointer(start: start, count: count))
    var operations: [SyncOperation] = []
    do {
        let request = try SyncRequest(json: payload)
        precondition((try? SyncRequest(json: request.json())) == request, "a request does not read back as written")
        operations += request.operations
    } catch {
        _ = error.message(in: .english)
    }
    do {
        let answer = try SyncAnswer(json: payload)
        precondition((try? SyncAnswer(json: answer.json())) == answer, "an answer does not read back as written")
        operations += answer.operations
    } catch {
        _ = error.message(in: .english)
    }
    // The same bytes as an opened payload (what a sealed operation holds) and as base64
    // text: read strictly or refused, never a crash; base64 read is written back the same.
    if let opened = try? SyncOperation.sealed("", seq: 1, millis: 0, counter: 0).opened(payload: payload) {
        precondition(
            (try? opened.opened(payload: opened.payloadJSON())) == opened, "a payload does not read back as written")
        operations.append(opened)
    }
    let text = String(decoding: payload, as: UTF8.self)
    if let decoded = Base64.decode(text) {
        precondition(Base64.encode(decoded) == text, "base64 does not read back as written")
    }
    var register = SyncRegister(uuid: "u")
    for operation in operations {
        guard let change = SyncChange(operation) else { continue }
        _ = register.apply(change, at: Stamp.text(millis: Int(operation.millis), counter: Int(operation.counter),
                                                  replica: operation.replica), replica: "r")
    }
    return 0
}
