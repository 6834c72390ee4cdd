import NavStackBytes

/// A key of a ``Memo``: a hash cheap to take, and a sameness that holds only when the
/// value made for one key serves the other.
protocol MemoKey {
    /// Keys that are the same give the same number (as far as the memo goes: keys that are
    /// the same but hashed apart only miss, and their value is made again). Taken without
    /// `Hasher`, whose seeded rounds cost more than the look-up they serve.
    var memoHash: Int { get }
    /// Whether the value made for `other` is the value for this key. For keys that hold
    /// text this is more than `==`, which takes canonically equivalent strings as equal
    /// (``Response/printsLike(_:)``).
    func isSameKey(as other: Self) -> Bool
}

/// The last few values computed, shared by the copies of the value that holds it.
///
/// A look-up compares the cheap hashes of at most `capacity` keys, then the keys whose
/// hash matches; a value made on a miss takes the place of the oldest.
final class Memo<Key: MemoKey, Value> {
    private let capacity: Int
    private var hashes: [Int] = []
    /// Each key with its value, at its hash's index.
    private var entries: [Entry] = []
    /// Where the next value made goes, once the memo is full.
    private var oldest = 0

    private struct Entry {
        let key: Key
        let value: Value
    }

    /// A memo of `capacity` values; of none (every value made when asked) with 0.
    init(capacity: Int = 32) {
        self.capacity = max(0, capacity)
        hashes.reserveCapacity(self.capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// The value kept for `key`, else the one `make` makes, kept for next time.
    func value(for key: Key, make: () -> Value) -> Value {
        guard capacity > 0 else { return make() }
        let hash = key.memoHash
        for index in hashes.indices where hashes[index] == hash && entries[index].key.isSameKey(as: key) {
            return entries[index].value
        }
        let value = make()
        if entries.count < capacity {
            hashes.append(hash)
            entries.append(Entry(key: key, value: value))
        } else {
            hashes[oldest] = hash
            entries[oldest] = Entry(key: key, value: value)
            oldest = oldest + 1 == capacity ? 0 : oldest + 1
        }
        return value
    }
}

/// Mixes numbers into a memo's hash (FNV-1a over whole words).
struct MemoHasher {
    private(set) var value = -3_750_763_034_362_895_579  // FNV's 64-bit offset basis

    mutating func combine(_ number: Int) {
        value = (value ^ number) &* 1_099_511_628_211
    }

    mutating func combine(_ flag: Bool) {
        combine(flag ? 1 : 0)
    }

    /// The text's length and its first 64 bytes, eight at a time.
    mutating func combine(_ text: String) {
        text.withUTF8Bytes { combine($0) }
    }

    private mutating func combine(_ utf8: ByteView) {
        combine(utf8.count)
        guard !utf8.isEmpty else { return }
        let count = min(utf8.count, 64)
        var index = 0
        while index + 8 <= count {
            combine(Int(truncatingIfNeeded: utf8.word(at: index)))
            index += 8
        }
        var word = 0
        while index < count {
            word = word << 8 | Int(utf8[index])
            index += 1
        }
        combine(word)
    }
}
