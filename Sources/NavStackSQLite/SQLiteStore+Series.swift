import NavStackCore
import NavStackSync

/// Which series an instance is of, as far as the store can show it: completing an instance
/// makes no instance its series holds already, and settling leaves the series users did
/// not make in navstack as they are.
extension SQLiteStore {
    /// A series: one imported from Taskwarrior, named by its template's uuid (which its
    /// instances keep in the custom field `parent`); else one of navstack's own, named by
    /// the key of its first instance (``firstKey(of:)``), which the uuids of the instances
    /// derived from it begin with (``nextInstanceUUID(after:)``).
    enum Series: Hashable {
        case template(String)
        case own([UInt8])
    }

    /// The Taskwarrior template an imported instance names in its custom field `parent`
    /// (lowercased), if it names one.
    static func templateUUID(of fields: DraftFields) -> String? {
        guard let value = fields.custom.first(where: { $0.name == templateUUIDField })?.value, value.isUUID else { return nil }
        return value.lowercased()
    }

    /// The custom field in which an instance imported from Taskwarrior keeps the uuid of
    /// its series' template (Taskwarrior's `parent`).
    static let templateUUIDField = "parent"

    /// Tells the series of a profile's instances. A version-8 uuid (as any import may
    /// bring) is taken as derived when the profile holds a task whose key
    /// (``firstKey(of:)``) its first 8 bytes are; or, that first instance gone, when its
    /// last 62 bits count fewer than 2³² instances down from the top, as no uuid drawn at
    /// random does. Any other is the first of a series of its own: two imported series
    /// whose uuids share their first 8 bytes stay two.
    struct SeriesFinder {
        /// Below this many instances a count is taken as one navstack made.
        static let plausibleCount: UInt64 = 1 << 32
        /// The profile's tasks by their key as first instances.
        private let firsts: [[UInt8]: String]
        private let db: Connection
        private let user: String

        init(_ db: Connection, _ user: String) throws {
            self.db = db
            self.user = user
            var firsts: [[UInt8]: String] = [:]
            try db.prepare("SELECT uuid FROM task WHERE profile_id = \(SQLiteStore.profileID)").each([user]) {
                let uuid = $0.text(0)
                firsts[SQLiteStore.firstKey(of: uuid)] = uuid
            }
            self.firsts = firsts
        }

        /// The series of an instance: its template's, when it or the first instance it was
        /// derived from names one; else navstack's own of its first instance.
        func series(of task: StoredTask) throws -> Series {
            if let template = SQLiteStore.templateUUID(of: task.fields) { return .template(template) }
            let number = SQLiteStore.instanceNumber(of: task.uuid)
            guard let bytes = SQLiteStore.uuidBytes(task.uuid), number > 0 else { return .own(SQLiteStore.firstKey(of: task.uuid)) }
            let key = Array(bytes.prefix(8))
            guard let first = firsts[key], first != task.uuid else {
                return .own(number < Self.plausibleCount ? key : SQLiteStore.firstKey(of: task.uuid))
            }
            let template = try SQLiteStore.stored(db, user, uuid: first).flatMap { SQLiteStore.templateUUID(of: $0.fields) }
            return template.map(Series.template) ?? .own(key)
        }
    }

    /// Whether the series of `done` holds an instance due at `due` besides it (open or
    /// done): Taskwarrior made it before the import, or another replica did. One indexed
    /// look-up by the due date; the series are told only when a task is due then.
    static func seriesHolds(_ db: Connection, _ user: String, instanceAfter done: StoredTask, due: Int64) throws -> Bool {
        let dueThen = try db.statement(dueAtOnce).all([user, due, done.uuid], storedTask)
        guard !dueThen.isEmpty else { return false }
        let finder = try SeriesFinder(db, user)
        let series = try finder.series(of: done)
        return try dueThen.contains { try finder.series(of: $0) == series }
    }

    /// The profile's other tasks due at one instant.
    private static let dueAtOnce = SQL(
        "SELECT \(storedColumns) FROM task WHERE profile_id = \(profileID) AND due = ? AND due IS NOT NULL AND uuid <> ?")

    /// The key of the series whose first instance has `uuid`: 8 bytes of a SHA-256 of it
    /// (RFC 9562's name-based way), the version nibble 8.
    static func firstKey(of uuid: String) -> [UInt8] {
        var key = Array(SHA256.hash(recurrenceNamespace + [0x73] + Array(uuid.lowercased().utf8)).prefix(8))
        key[6] = key[6] & 0x0F | 0x80
        return key
    }

    /// navstack's namespace for the uuids of recurring instances.
    static let recurrenceNamespace: [UInt8] = [
        0x6e, 0x61, 0x76, 0x73, 0x74, 0x61, 0x63, 0x6b, 0x2d, 0x72, 0x65, 0x63, 0x75, 0x72, 0x00, 0x01,
    ]

    /// Leaves one open instance in each series navstack made: replicas that completed and
    /// undid instances of one series concurrently can end with an earlier instance open
    /// beside a later one. The later (by due date, then uuid) stays open; the others are
    /// marked done, as this replica's own change (sent like any other, outside the undo
    /// history). A series imported from Taskwarrior, and any instance derived from one,
    /// is left as it is: Taskwarrior may hold several open instances, and settling never
    /// completes what nobody completed. Every replica decides alike from the same tasks.
    /// Returns how many it marked done.
    @discardableResult
    static func settleSeries(_ db: Connection, _ user: String, profile: Int64) throws -> Int {
        let open = try db.prepare(
            "SELECT uuid, due FROM task WHERE profile_id = ? AND done = 0 AND recur IS NOT NULL AND due IS NOT NULL"
        ).all([profile]) { ($0.text(0), $0.int64(1)) }
        guard open.count > 1 else { return 0 }
        // Instances of one series begin alike (``seriesKey(of:)``); only those that do
        // need the store's word on which series they are of.
        var alike: [[UInt8]: [String]] = [:]
        for (uuid, _) in open { alike[seriesKey(of: uuid), default: []].append(uuid) }
        let crowded = alike.values.filter { $0.count > 1 }.joined()
        guard !crowded.isEmpty else { return 0 }
        let finder = try SeriesFinder(db, user)
        var bySeries: [[UInt8]: [StoredTask]] = [:]
        for uuid in crowded {
            guard let task = try stored(db, user, uuid: uuid), case .own(let key) = try finder.series(of: task) else { continue }
            bySeries[key, default: []].append(task)
        }
        var settled = 0
        var log: ChangeLog?
        for instances in bySeries.values where instances.count > 1 {
            let kept = instances.max { ($0.fields.due!, $0.uuid) < ($1.fields.due!, $1.uuid) }!
            for before in instances where before.uuid != kept.uuid {
                var after = before
                after.fields.done = true
                after.rev += 1
                if log == nil { log = ChangeLog(outsideHistory: ChangeKind.sync.rawValue, of: profile) }
                _ = try change(db, user, ChangePair(before: before, after: after), &log!)
                settled += 1
            }
        }
        return settled
    }
}
