/// A small cache of computed values, shared by the copies of the value that holds it.
final class Memo<Key: Hashable, Value> {
    private var values: [Key: Value] = [:]

    subscript(key: Key) -> Value? {
        get { values[key] }
        set {
            // A bound, should keys keep changing.
            if values.count >= 256 { values.removeAll(keepingCapacity: true) }
            values[key] = newValue
        }
    }
}
