import Hummingbird
import NavStackCore
import NavStackSync

/// The server's errors, and their words (here and nowhere else): why it answers a request
/// with an error, and the status it gets, or why a run of it stopped. Every error body is
/// `{"error": message}`; a route throws one and Hummingbird answers it
/// (``response(from:context:)``).
public enum ServerError: Error, Equatable, Sendable {
    /// The body is not the JSON the protocol asks for, or an operation sets a value the
    /// app would refuse: says which part and why.
    case malformed(SyncWireError)
    /// An operation stamped too far ahead of the server's clock (``SyncWireError/stampAhead``);
    /// the body also gives that clock, `server_millis`, for the client to stamp again by.
    case stampAhead(SyncWireError, serverMillis: Int64)
    /// An operation names a (replica, seq) the account holds with other content
    /// (``SyncWireError/replicaTaken``): nothing of the request is kept.
    case replicaTaken(SyncWireError)
    /// The request offers the account a key, and the account has another (`accountKey`,
    /// which the body gives): a replica made its key while another did.
    case keyTaken(accountKey: String)
    /// The body ended before its Content-Length: the client went away.
    case truncatedBody
    case missingToken
    case badToken
    /// A write to an account with a write check, without its write key
    /// (``SyncLogError/writeKeyNeeded``).
    case writeKeyNeeded
    /// The account holds operations of a newer format than the request's
    /// (``SyncLogError/formatNeeded(format:)``).
    case formatNeeded(format: Int)
    case notFound
    /// The path exists, but not for this method; `allowed` is what the Allow header says.
    case methodNotAllowed(allowed: String)
    case tooLarge
    /// The server has as many connections open as it takes; this one is closed at once.
    case tooBusy
    /// The bodies of the requests under way hold as much as the server keeps at once
    /// (``BodyBudget``): this one is not read.
    case bodiesFull
    /// The database did not answer in time, or the connection to it failed.
    case databaseUnavailable
    /// The database answered with an error the server did not expect.
    case databaseFailed
    /// Something else went wrong while answering.
    case failed
    /// The server, or a `user` command, could not run: never an answer; the executable
    /// prints the message and exits with 1.
    case run(Run)
    /// A URL that does not name a database (``DatabaseAddress/init(url:)``); the options
    /// word it as a usage error, never as an answer.
    case address(Address)

    /// Why a run of the server or of a `user` command stopped.
    public enum Run: Equatable, Sendable {
        case databaseUnreachable(DatabaseAddress, reason: String)
        case badTLSFiles(reason: String)
        case cannotListen(host: String, port: Int, reason: String)
        /// `user add NAME` on an account that exists.
        case accountExists(String)
        /// `user ACTION NAME` on an account that does not exist (every action but `add`).
        case noSuchAccount(String)

        public var message: String {
            switch self {
            case .databaseUnreachable(let address, let reason): "cannot use the database \(address.description): \(reason)"
            case .badTLSFiles(let reason): "cannot read the TLS certificate or key: \(reason)"
            case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
            case .accountExists(let name): "there is already an account '\(name)': 'user token \(name)' gives it another token"
            case .noSuchAccount(let name): "there is no account '\(name)' ('user list' names them)"
            }
        }
    }

    /// Why a URL does not name a database.
    public enum Address: Equatable, Sendable {
        case notPostgresURL
        /// The port as written.
        case badPort(String)
        /// The sslmode as written.
        case badSSLMode(String)
        case badEscape

        /// The words for the log; ``ServerOptions`` tells the user with a usage error.
        public var message: String {
            switch self {
            case .notPostgresURL: "the database URL is not postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
            case .badPort(let port): "the database URL's port \(port) is not 1 to 65535"
            case .badSSLMode(let mode): "the database URL's sslmode \(mode) is not disable, prefer or require"
            case .badEscape: "the database URL has a % that is not followed by two hexadecimal digits"
            }
        }
    }

    /// The refusal of an operation log's rule (``SyncLogError``), as the server answers it.
    public init(_ refusal: SyncLogError) {
        switch refusal {
        case .malformed(let failure): self = .malformed(failure)
        case .replicaTaken(let failure): self = .replicaTaken(failure)
        case .keyTaken(let accountKey): self = .keyTaken(accountKey: accountKey)
        case .badToken: self = .badToken
        case .writeKeyNeeded: self = .writeKeyNeeded
        case .formatNeeded(let format): self = .formatNeeded(format: format)
        }
    }

    public var status: HTTPResponse.Status {
        switch self {
        case .malformed, .stampAhead, .truncatedBody, .formatNeeded: .badRequest
        case .replicaTaken, .keyTaken: .conflict
        case .missingToken, .badToken: .unauthorized
        case .writeKeyNeeded: .forbidden
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .tooLarge: .contentTooLarge
        case .databaseUnavailable, .tooBusy, .bodiesFull: .serviceUnavailable
        case .databaseFailed, .failed, .run, .address: .internalServerError
        }
    }

    /// One line, for the error body and the log.
    public var message: String {
        switch self {
        case .malformed(let failure), .stampAhead(let failure, _), .replicaTaken(let failure): failure.message(in: .english)
        case .keyTaken: "the account's operations are sealed with another key"
        case .truncatedBody: "the body ended before its Content-Length"
        case .missingToken: "missing token: send Authorization: Bearer TOKEN"
        case .badToken: "bad token"
        case .formatNeeded(let format):
            "this account holds operations of a newer navstack (format \(format)) than this one: update navstack"
        case .writeKeyNeeded:
            "this account takes writes only with its write key, which comes from its passphrase: a token alone reads (a device with the passphrase and an earlier navstack: update navstack)"
        case .notFound: "no such path"
        case .methodNotAllowed(let allowed): "method not allowed here; use \(allowed)"
        case .tooLarge: "the body is larger than \(SyncLimits.maximumBodyBytes) bytes"
        case .tooBusy: "the server has too many connections open; try again shortly"
        case .bodiesFull: "the server is reading as many requests as it takes; try again shortly"
        case .databaseUnavailable: "the database did not answer"
        case .databaseFailed: "the database refused the request"
        case .failed: "the server could not answer this request"
        case .run(let failure): failure.message
        case .address(let failure): failure.message
        }
    }

    /// The answer's headers: the body's type, what a 405 allows, and the scheme a 401
    /// asks for (RFC 6750: a token that was sent and refused is an `invalid_token`).
    public var headers: HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json"]
        switch self {
        case .methodNotAllowed(let allowed): headers[.allow] = allowed
        case .missingToken: headers[.wwwAuthenticate] = "Bearer"
        case .badToken: headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
        default: break
        }
        return headers
    }
}

extension ServerError: HTTPResponseError {
    /// `{"error": message}` with the refusal's status and headers; a stamp ahead adds
    /// `"server_millis": N`, a key refused the account's `"key"`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// The answer's body.
    var body: ByteBuffer {
        var body = ByteBuffer()
        body.writeStaticString("{\"error\":")
        body.writeString(message.jsonQuoted)
        if case .stampAhead(_, let serverMillis) = self {
            body.writeStaticString(",\"server_millis\":")
            body.writeString(String(serverMillis))
        }
        if case .keyTaken(let key) = self {
            body.writeStaticString(",\"key\":")
            body.writeString(key.jsonQuoted)
        }
        body.writeStaticString("}")
        return body
    }
}
