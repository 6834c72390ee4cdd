/// The XDG base directories navstack keeps files in. A variable's value counts only when
/// it is an absolute path: the XDG Base Directory spec says a relative one is invalid
/// and is to be ignored, so the default under `$HOME` is used instead.
public enum BaseDirectory: Sendable {
    /// `$XDG_DATA_HOME`, else `$HOME/.local/share`: the store.
    case data
    /// `$XDG_STATE_HOME`, else `$HOME/.local/state`: the line history.
    case state

    public var variable: String {
        switch self {
        case .data: "XDG_DATA_HOME"
        case .state: "XDG_STATE_HOME"
        }
    }

    /// The folder, read from `environment` (a variable's value, `nil` when unset or
    /// empty); `nil` when neither the variable nor `HOME` gives one.
    public func path(_ environment: (String) -> String?) -> String? {
        if let value = environment(variable), value.hasPrefix("/") { return value }
        guard let home = environment("HOME") else { return nil }
        switch self {
        case .data: return home + "/.local/share"
        case .state: return home + "/.local/state"
        }
    }
}
