import Hummingbird
import NavStackSync
import Synchronization

/// The context of one request: Hummingbird's, plus what the sync route learned for the
/// request's log line (the context is copied down the middleware chain, so the route
/// writes into a shared box the log middleware reads afterwards).
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    let facts: RequestFacts
    /// The connection the request came on (``OpenConnections``).
    let connection: ObjectIdentifier

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        facts = RequestFacts()
        connection = ObjectIdentifier(source.channel)
    }

    /// Bodies are read with ``SyncLimits/maximumBodyBytes`` as their limit.
    public var maxUploadSize: Int { SyncLimits.maximumBodyBytes }
}

/// The account a request was made for and how many operations came in and went out.
final class RequestFacts: Sendable {
    struct Values {
        var account: Int64?
        var operationsIn = 0
        var operationsOut = 0
    }

    private let values = Mutex(Values())

    var current: Values { values.withLock { $0 } }

    func record(_ change: (inout Values) -> Void) {
        values.withLock { change(&$0) }
    }
}
