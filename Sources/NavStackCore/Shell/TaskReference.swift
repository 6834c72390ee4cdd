/// A task as a command line names it: its id (the number in its URL), its uuid, or the
/// first 8 or more hexadecimal digits of its uuid.
public enum TaskReference: Equatable, Hashable, Sendable {
    case id(Int)
    /// A whole uuid, in lowercase.
    case uuid(String)
    /// The start of a uuid, in lowercase and in a uuid's shape (`0f3a2b1c-9d`).
    case uuidPrefix(String)

    /// The fewest hexadecimal digits a prefix has.
    public static let shortestPrefix = 8
    /// How many matches an ambiguous prefix lists.
    static let matchesListed = 5

    /// Reads `text`: digits are an id, hexadecimal digits (dashes anywhere) a uuid or its
    /// start.
    public init(parsing text: String) throws(NavError) {
        if text.isASCIIDigits, text.utf8.count < 19,
            let id = Int(text), id > 0
        {
            self = .id(id)
            return
        }
        self = try Self.hexDigits(text)
    }

    /// `text` read as a uuid or its start: 8 to 32 hexadecimal digits, any case, dashes
    /// anywhere.
    static func hexDigits(_ text: String) throws(NavError) -> TaskReference {
        var digits: [UInt8] = []
        for byte in text.utf8 where byte != UInt8(ascii: "-") {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digits.append(byte | 0x20)
            default: throw .badTaskReference(text.escapedForDisplay)
            }
        }
        guard (shortestPrefix...32).contains(digits.count) else { throw .badTaskReference(text.escapedForDisplay) }
        // Dashes where a uuid has them: after digits 8, 12, 16 and 20.
        var shaped: [UInt8] = []
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { shaped.append(UInt8(ascii: "-")) }
            shaped.append(digit)
        }
        let uuid = String(decoding: shaped, as: UTF8.self)
        return digits.count == 32 ? .uuid(uuid) : .uuidPrefix(uuid)
    }

    /// The one task `text` names in `user`'s profile: an id of 8 digits or more that no
    /// task has is read as the start of a uuid. An ambiguous prefix is one error listing
    /// the matches.
    public static func task(_ text: String, of user: String, in store: any TaskStore) throws(NavError) -> TaskItem {
        let reference = try TaskReference(parsing: text)
        let typed = text.escapedForDisplay
        if case .id(let id) = reference, text.utf8.count >= shortestPrefix,
            try storeCall({ try store.task(user, id: id) }) == nil
        {
            return try hexDigits(text).task(of: user, in: store, typed: typed)
        }
        return try reference.task(of: user, in: store, typed: typed)
    }

    private func task(of user: String, in store: any TaskStore, typed: String) throws(NavError) -> TaskItem {
        switch self {
        case .id(let id):
            guard let task = try storeCall({ try store.task(user, id: id) }) else { throw .noSuchTask(typed) }
            return task
        case .uuid(let uuid):
            guard let task = try storeCall({ try store.task(user, uuid: uuid) }) else { throw .noSuchTask(typed) }
            return task
        case .uuidPrefix(let prefix):
            let found = try storeCall { try store.tasks(user, uuidPrefix: prefix, limit: Self.matchesListed + 1) }
            guard let first = found.first else { throw .noSuchTask(typed) }
            guard found.count == 1 else {
                throw .ambiguousTaskReference(typed, matches: found.prefix(Self.matchesListed).map { "\($0.id) \($0.uuid)" })
            }
            return first
        }
    }
}
