/// The process's arguments as the kernel gave them, before the Swift runtime made strings
/// of them (it puts U+FFFD in place of bytes that are not UTF-8, which would then reach a
/// task's title unseen).
public enum ProcessArguments {
    /// The place (1 is the first after the program's name) of the first argument whose
    /// bytes are not UTF-8, if any.
    public static func firstNotUTF8() -> Int? {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: argument) == nil { return index }
        }
        return nil
    }
}
