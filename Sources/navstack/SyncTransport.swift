import NavStackCore
import NavStackHTTP
import NavStackSync

/// The sync protocol over HTTP (docs/sync.md): a request's body through the protocol's
/// one codec, and the server's answer, whose status codes are read here and nowhere else.
struct SyncTransport {
    let url: HTTPURL
    let token: String
    var client: HTTPClient

    init(server: String, token: String, trust: TLSTrust) throws(SyncError) {
        do {
            url = try HTTPURL(server).appending("/v1/sync")
        } catch {
            throw .unreachable(error.message(in: Navstack.messageCatalog))
        }
        self.token = token
        // A sync's requests follow one another: one connection serves them all.
        client = HTTPClient(trust: trust, keepsConnections: true)
    }

    /// Sends `request`, with what is left until `end`; its answer is read later.
    func send(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> HTTPExchange {
        let left = ContinuousClock.now.duration(to: end)
        guard left > .zero else { throw .outOfTime }
        do {
            return try client.start(
                HTTPRequest(
                    method: .post, url: url,
                    headers: ["Authorization": "Bearer " + token, "Content-Type": "application/json"],
                    body: request.json()), deadline: left)
        } catch {
            throw Self.failure(error)
        }
    }

    /// A failed exchange as a sync's failure: one that ran out of the time the run was
    /// given is the run's (`--timeout`), whatever the server did meanwhile.
    private static func failure(_ error: HTTPError) -> SyncError {
        if case .timedOut = error { return .outOfTime }
        return .unreachable(error.message(in: Navstack.messageCatalog))
    }

    /// The server's answer to a request sent: 200 and an answer, or why not.
    func answer(_ exchange: HTTPExchange) throws(SyncError) -> SyncAnswer {
        let response: HTTPResponse
        do {
            response = try exchange.response()
        } catch {
            throw Self.failure(error)
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
