import NavStackCore
import NavStackHTTP
import NavStackSync
import Synchronization

/// The sync protocol over HTTP (docs/sync.md): a request's body through the protocol's
/// one codec, and the server's answer, whose status codes are read here and nowhere else.
public struct HTTPSyncTransport: SyncTransport {
    let url: HTTPURL
    let token: String
    let client: HTTPClient
    /// The words of its failures.
    let catalog: Catalog

    public init(server: String, token: String, trust: TLSTrust, catalog: Catalog) throws(SyncError) {
        do {
            url = try HTTPURL(server).appending("/v1/sync")
        } catch {
            throw .unreachable(error.message(in: catalog))
        }
        self.token = token
        self.catalog = catalog
        // A sync's requests follow one another: one connection serves them all.
        client = HTTPClient(trust: trust, keepsConnections: true)
    }

    public func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        let left = ContinuousClock.now.duration(to: end)
        guard left > .zero else { throw .outOfTime }
        do {
            let exchange = try client.start(
                HTTPRequest(
                    method: .post, url: url,
                    headers: ["Authorization": "Bearer " + token, "Content-Type": "application/json"],
                    body: request.json()), deadline: left)
            return HTTPSyncReply(exchange, catalog: catalog)
        } catch {
            throw Self.failure(error, in: catalog)
        }
    }

    /// A failed exchange as a sync's failure: one that ran out of the time the run was
    /// given is the run's (`--timeout`), whatever the server did meanwhile.
    static func failure(_ error: HTTPError, in t: Catalog) -> SyncError {
        if case .timedOut = error { return .outOfTime }
        return .unreachable(error.message(in: t))
    }
}

/// A request sent over HTTP. The exchange is this reply's alone (handed over when it is
/// made): whichever thread reads the answer reads it through the lock.
final class HTTPSyncReply: SyncReply {
    private let exchange: Mutex<HTTPExchange>
    private let catalog: Catalog

    init(_ exchange: sending HTTPExchange, catalog: Catalog) {
        self.exchange = Mutex(exchange)
        self.catalog = catalog
    }

    /// The server's answer to the request: 200 and an answer, or why not.
    func answer() throws(SyncError) -> SyncAnswer {
        let response: HTTPResponse
        do {
            response = try exchange.withLock { exchange throws(HTTPError) in try exchange.response() }
        } catch {
            throw HTTPSyncTransport.failure(error, in: catalog)
        }
        switch response.status {
        case 200:
            do {
                return try SyncAnswer(json: response.body)
            } catch {
                throw .malformedAnswer(error)
            }
        case 401:
            throw .refusedToken
        default:
            let body = JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
            if response.status == 409 {
                // The account's key, when the one offered was not it; else a (replica, seq) held.
                if let record = body?["key"]?.string { throw .keyTaken(record: record) }
                throw .replicaTaken
            }
            if response.status == 400, let serverMillis = body?["server_millis"]?.number {
                throw .stampsAhead(serverMillis: serverMillis)
            }
            throw .server(status: response.status, message: body?["error"]?.string ?? "")
        }
    }
}
