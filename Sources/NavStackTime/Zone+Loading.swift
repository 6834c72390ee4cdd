/// Where zones come from: the tz database's files by name, and `TZ` read as the C library
/// reads it.
extension Zone {
    /// Where the tz database's files are on the systems navstack runs on.
    public static let defaultDirectory = "/usr/share/zoneinfo"

    /// The system's zone when `TZ` is unset.
    public static let defaultLocaltimePath = "/etc/localtime"

    /// The zone of the tz database named `name` (`Europe/Madrid`), read from `directory`.
    ///
    /// Names can come from files (an import, a synced setting), so a name with `..` in it,
    /// or an absolute path outside `directory`, is refused before any file is opened; an
    /// absolute path inside it is read (`/usr/share/zoneinfo/Europe/Madrid`).
    public static func named(_ name: String, directory: String = defaultDirectory) throws(ZoneError) -> Zone {
        guard !name.isEmpty, !name.contains(".."), !name.utf8.contains(0) else { throw .unsafeName(name) }
        if name.hasPrefix("/") {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            guard name.hasPrefix(prefix), name.utf8.count > prefix.utf8.count else { throw .unsafeName(name) }
            return try load(path: name, name: String(name.dropFirst(prefix.count)))
        }
        return try load(path: directory + "/" + name, name: name)
    }

    /// The zone `TZ` names, as the C library reads it (glibc's `tzset`); never fails:
    /// whatever cannot be had is UTC.
    ///
    /// - unset (`nil`): the file at `localtimePath`, named by where its link points
    ///   (`Europe/Madrid`); UTC when there is none or it cannot be read;
    /// - empty: UTC;
    /// - `:Name` or `Name`: the zone file of that name; when there is none, the text read
    ///   as a POSIX TZ string (`UTC0`, `EST5EDT,M3.2.0,M11.1.0`); when it is neither, UTC
    ///   (glibc does the same, calling it by the text's first letters);
    /// - an absolute path (`:/etc/localtime`): that file, as libc reads it: `TZ` is the
    ///   user's own setting, unlike the names ``named(_:directory:)`` refuses.
    ///
    /// The executable that wants to say why it fell back to UTC calls
    /// ``resolve(tz:directory:localtimePath:)`` instead, which throws the reason.
    public static func local(tz: String?, directory: String = defaultDirectory, localtimePath: String = defaultLocaltimePath) -> Zone {
        (try? resolve(tz: tz, directory: directory, localtimePath: localtimePath)) ?? .utc
    }

    /// The zone `TZ` names, read as ``local(tz:directory:localtimePath:)`` reads it, or why
    /// it could not be had. An unset `TZ` with no file at `localtimePath` is UTC, not an
    /// error: that is how such a system keeps time.
    public static func resolve(
        tz: String?, directory: String = defaultDirectory, localtimePath: String = defaultLocaltimePath
    ) throws(ZoneError) -> Zone {
        guard var text = tz else {
            do {
                return try load(path: localtimePath, name: localtimeName(localtimePath, directory: directory))
            } catch ZoneError.notFound(_) {
                return .utc
            }
        }
        if text.isEmpty { return .utc }
        if text.hasPrefix(":") { text.removeFirst() }
        if text.isEmpty { return .utc }
        if text.hasPrefix("/") {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            let name = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : localtimeName(text, directory: directory)
            return try load(path: text, name: name)
        }
        let fileError: ZoneError
        do {
            return try named(text, directory: directory)
        } catch {
            fileError = error
        }
        if let rule = POSIXRule(text) {
            return Zone(name: text, transitions: [], transitionTypes: [], types: [rule.standard], rule: rule)
        }
        switch fileError {
        case .notFound, .notARegularFile: throw .unknown(text)
        default: throw fileError
        }
    }

    private static func load(path: String, name: String) throws(ZoneError) -> Zone {
        let bytes = try ZoneFile.read(path)
        do {
            return try Zone(tzif: bytes, name: name)
        } catch .malformed(_, let defect) {
            throw .malformed(path, defect)
        }
    }

    /// The name a zone file found by path goes by: the part of its link's target after
    /// `zoneinfo/` (`/etc/localtime` → `Europe/Madrid`), else the path.
    private static func localtimeName(_ path: String, directory: String) -> String {
        guard let target = ZoneFile.linkTarget(path) else { return path }
        for marker in [directory + "/", "zoneinfo/"] {
            if let range = target.firstRange(of: marker) { return String(target[range.upperBound...]) }
        }
        return path
    }
}
