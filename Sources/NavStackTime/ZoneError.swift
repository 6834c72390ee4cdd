/// Why a zone could not be had: its name, its file, or what is wrong in the file. The
/// words are in ``description``; ``Zone/local(tz:directory:localtimePath:)`` turns every
/// one of them into UTC, ``Zone/resolve(tz:directory:localtimePath:)`` hands
/// them on for the executable to tell.
public enum ZoneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name that could reach outside the zone directory (`..`, or an absolute path
    /// elsewhere), refused before any file is opened.
    case unsafeName(String)
    /// No zone file has that name, and it is not a TZ string either.
    case unknown(String)
    /// No file at that path.
    case notFound(String)
    /// The file could not be opened or read (the C library's `errno`).
    case unreadable(String, errno: Int32)
    /// A directory, a FIFO or a device: not read.
    case notARegularFile(String)
    /// Larger than a zone file can be (``ZoneFile/sizeLimit``).
    case tooLarge(String, limit: Int)
    /// Its size changed while it was read.
    case changedWhileRead(String)
    /// It is not a well-formed TZif file.
    case malformed(String, Defect)
    /// The text is not a POSIX TZ string.
    case badRule(String)

    /// What is wrong with a TZif file.
    public enum Defect: Equatable, Sendable, CustomStringConvertible {
        /// It does not start with `TZif`.
        case notTZif
        /// Its version byte is none of 0 (version 1), `2`, `3` or `4`.
        case unknownVersion(UInt8)
        /// It ends before what its counts say it holds.
        case truncated
        /// A count, index, offset or order is not what RFC 9636 allows; the words say which.
        case invalid(String)
        /// Its footer is not a POSIX TZ string this module reads.
        case badFooter(String)

        public var description: String {
            switch self {
            case .notTZif: return "not a TZif file"
            case .unknownVersion(let byte): return "TZif version byte \(byte) is not 1 to 4"
            case .truncated: return "the TZif file ends early"
            case .invalid(let what): return "the TZif file's \(what)"
            case .badFooter(let text): return "the TZif footer '\(text)' is not a TZ string"
            }
        }
    }

    public var description: String {
        switch self {
        case .unsafeName(let name): return "'\(name)' is not a time zone name (it reaches outside the zone directory)"
        case .unknown(let name): return "'\(name)' is neither a time zone of the tz database nor a TZ string such as EST5EDT,M3.2.0,M11.1.0"
        case .notFound(let path): return "no time zone file at \(path)"
        case .unreadable(let path, let code): return "the time zone file \(path) could not be read (errno \(code))"
        case .notARegularFile(let path): return "\(path) is not a regular file, so it is not read as a time zone"
        case .tooLarge(let path, let limit): return "\(path) is larger than a time zone file can be (\(limit) bytes)"
        case .changedWhileRead(let path): return "the time zone file \(path) changed while it was read"
        case .malformed(let path, let defect): return "\(path) is not a time zone file: \(defect)"
        case .badRule(let text): return "'\(text)' is not a TZ string"
        }
    }
}
