/// The sizes the protocol fixes (docs/sync.md): one request, one answer.
public enum SyncLimits {
    /// The largest request body: 8 MiB. A bigger one is refused with 413, from its
    /// Content-Length before it is read, or as soon as it streams past this.
    public static let maximumBodyBytes = 8 << 20
    /// The most operations one request may push.
    public static let maximumOperationsPerRequest = 10_000
    /// The most operations one answer carries; `more` says there are others.
    public static let pageSize = 10_000
    /// The most bytes of operations one answer carries (one operation always goes, and
    /// none is larger than a request): clients read answers of up to 64 MiB.
    public static let maximumAnswerBytes = 8 << 20
    /// The longest task uuid text, in characters.
    public static let maximumTaskLength = 64
}
