/// The ids of the profiles found by name, the last one found kept apart: a session asks
/// for its own again and again, and a short name compares faster than it hashes.
struct ProfileIDs {
    private var ids: [String: Int64] = [:]
    private var last: (name: String, id: Int64)?

    mutating func id(of name: String) -> Int64? {
        if let last, last.name == name { return last.id }
        guard let id = ids[name] else { return nil }
        last = (name, id)
        return id
    }

    /// Keeps what was found for `name` (`nil`: no such profile, forgotten).
    mutating func remember(_ id: Int64?, of name: String) {
        ids[name] = id
        last = id.map { (name, $0) }
    }
}
