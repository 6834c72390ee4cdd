import NavStackHTTP
import NavStackIO

extension TLSTrust {
    /// The authorities an https:// sync server's certificate must chain to: the file of
    /// `--ca` when given, else of NAVSTACK_CA when set, else the system's.
    static func chosen(ca: String?) -> TLSTrust {
        guard let file = ca ?? Terminal.environment("NAVSTACK_CA"), !file.isEmpty else { return .system }
        return .authority(file: file)
    }
}
