import Logging
import NavStackSync
import PostgresNIO

extension OperationLog {
    /// Of the replicas a request names as set aside (``SyncRequest/aside``), those the
    /// account holds no operation of (`user drop-replica` removed them): one lookup each
    /// through the log's unique index, in a statement run only for a request that names
    /// some.
    struct Gone: PostgresPreparedStatement {
        static let name = "navstack.gone"
        static let sql = """
            SELECT aside.replica FROM unnest($2::text[]) AS aside(replica)
            WHERE NOT EXISTS (SELECT 1 FROM op WHERE account_id = $1 AND replica = aside.replica)
            """

        let account: Int64
        let replicas: [String]

        func makeBindings() throws -> PostgresBindings {
            try statementBindings(account, replicas)
        }

        func decodeRow(_ row: PostgresRow) throws -> String {
            try row.decode(String.self)
        }
    }

    /// The answer's ``SyncAnswer/gone`` for `request`, in the request's order.
    static func gone(of request: SyncRequest, account: Int64, on connection: PostgresConnection, logger: Logger) async throws
        -> [String]
    {
        var gone: Set<String> = []
        for try await replica in try await connection.execute(Gone(account: account, replicas: request.aside), logger: logger) {
            gone.insert(replica)
        }
        return request.aside.filter(gone.contains)
    }
}
