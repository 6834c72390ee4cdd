#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a client may take of the server: how long it may be slow, and how many clients
/// may be connected at once. A slow client (slowloris) holds a connection and its file;
/// these bound both.
public struct ConnectionLimits: Equatable, Sendable {
    /// How long a new connection may take to send its first request's head.
    public var headerTimeout: Duration
    /// How long a request's body may take to arrive, from the end of its head.
    public var bodyTimeout: Duration
    /// How long a connection may wait, after an answer, for the whole head of its next
    /// request.
    public var idleTimeout: Duration
    /// The most connections served at once; past it, a new connection is answered 503
    /// and closed.
    public var maximumConnections: Int

    public static let defaultHeaderSeconds = 10
    public static let defaultBodySeconds = 30
    public static let defaultIdleSeconds = 30
    public static let defaultMaximumConnections = 512
    /// The files kept for what is not a client's connection: the database's connections,
    /// the listening socket, standard streams, the event loops' own.
    static let filesKept = 64

    public init(
        headerTimeout: Duration = .seconds(defaultHeaderSeconds), bodyTimeout: Duration = .seconds(defaultBodySeconds),
        idleTimeout: Duration = .seconds(defaultIdleSeconds), maximumConnections: Int = defaultMaximumConnections
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }

    /// The most connections that can be served with this process's limit on open files:
    /// ``maximumConnections``, after raising the soft limit towards the hard one if it is
    /// lower, or what the limit leaves once ``filesKept`` are set aside. A server that runs
    /// out of files cannot even answer 503; one at its cap can.
    public func connectionsWithinOpenFiles() -> Int {
        var limit = rlimit()
        guard getrlimit(Self.openFiles, &limit) == 0 else { return maximumConnections }
        let wanted = rlim_t(maximumConnections + Self.filesKept)
        if limit.rlim_cur != Self.unlimited && limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == Self.unlimited ? wanted : min(wanted, limit.rlim_max)
            if setrlimit(Self.openFiles, &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur != Self.unlimited else { return maximumConnections }
        return max(1, min(maximumConnections, Int(limit.rlim_cur) - Self.filesKept))
    }

    #if canImport(Glibc)
        private static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        /// RLIM_INFINITY, all bits set (Swift does not import glibc's macro).
        private static let unlimited = rlim_t.max
    #else
        private static let openFiles = RLIMIT_NOFILE
        private static let unlimited = RLIM_INFINITY
    #endif
}
