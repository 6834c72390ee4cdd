import NavStackCore

/// One input line, as the interpreter gets it: checked and decoded, then parsed; every
/// error's message is formatted in every language.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    do {
        let line = try Interpreter.decode(bytes)
        if let command = try Command.parse(line) {
            precondition(command.word.rawValue == command.word.rawValue.lowercased())
        }
    } catch {
        for language in Language.allCases {
            precondition(!error.message(in: Catalog(language)).isEmpty)
        }
    }
    return 0
}
