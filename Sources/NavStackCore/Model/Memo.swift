/// A small cache of computed values, shared by the copies of the value that holds it.
///
/// A key is hashed once a look-up, found or not: the value made on a miss is kept under
/// the hash already taken (keys such as screens cost more to hash than to compare).
final class Memo<Key: Hashable, Value> {
    private var values: [Hashed: Value] = [:]

    /// A key with its hash, taken once.
    private struct Hashed: Hashable {
        let key: Key
        let hash: Int

        init(_ key: Key) {
            self.key = key
            hash = key.hashValue
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        static func == (lhs: Hashed, rhs: Hashed) -> Bool {
            lhs.hash == rhs.hash && lhs.key == rhs.key
        }
    }

    /// The value kept for `key`, else the one `make` makes, kept for next time.
    func value(for key: Key, make: () -> Value) -> Value {
        let hashed = Hashed(key)
        if let value = values[hashed] { return value }
        let value = make()
        // A bound, should keys keep changing.
        if values.count >= 256 { values.removeAll(keepingCapacity: true) }
        values[hashed] = value
        return value
    }
}
