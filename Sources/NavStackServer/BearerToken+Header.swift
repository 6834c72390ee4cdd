import NavStackSync

extension BearerToken {
    /// The token of an `Authorization` header's `Bearer TOKEN`; anything not shaped like a
    /// token is refused here.
    public static func parse(authorization: String) throws(ServerError) -> String {
        let parts = authorization.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", isWellFormed(parts[1]) else {
            throw .badToken
        }
        return String(parts[1])
    }
}
