import CSQLite
import NavStackBytes
import NavStackTime
import Synchronization

/// What SQLite reported when a call failed, kept as GRDB's `DatabaseError` keeps it: the
/// extended result code, SQLite's own words and the statement that failed. It is for
/// tests, logs and bug reports; a user is told the ``StoreError``'s sentence instead.
public struct SQLiteError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_CONSTRAINT_UNIQUE`, …);
    /// the primary one where SQLite gave no more.
    public let extendedCode: Int32
    /// SQLite's own words ("database is locked"), in English; never shown to a user.
    public let message: String
    /// The SQL that failed; `nil` for a failure outside a statement (opening the file).
    public let sql: String?
    /// The C library's `errno` behind an I/O failure (`ENOSPC` on a full disk), else 0.
    public let systemError: Int32

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …): the extended one's
    /// low byte.
    public var code: Int32 { extendedCode & 0xFF }

    init(code: Int32, message: String, sql: String? = nil, systemError: Int32 = 0) {
        extendedCode = code
        self.message = message
        self.sql = sql
        self.systemError = systemError
    }

    /// The facts on one line, for a developer: `SQLite error 2067: UNIQUE constraint
    /// failed: profile.name, while executing `INSERT …``.
    public var description: String {
        "SQLite error \(extendedCode): \(message)" + (sql.map { ", while executing `\($0)`" } ?? "")
    }
}

/// A value for a statement's `?`.
protocol SQLArgument {
    /// Binds the value to the `?` at `index` (from 1).
    func bind(to statement: Statement, at index: Int32) -> Int32
}

extension Int: SQLArgument {
    func bind(to statement: Statement, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement.handle, index, Int64(self))
    }
}

extension Int64: SQLArgument {
    func bind(to statement: Statement, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement.handle, index, self)
    }
}

extension Bool: SQLArgument {
    func bind(to statement: Statement, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement.handle, index, self ? 1 : 0)
    }
}

extension String: SQLArgument {
    /// Binds the text from the statement's own copy of it.
    func bind(to statement: Statement, at index: Int32) -> Int32 {
        statement.bindText(self, at: index)
    }

    /// Binds the text to a statement bound by hand, copied by SQLite.
    func bindCopied(to statement: OpaquePointer, at index: Int32) -> Int32 {
        // A non-nil pointer even for "" (nil would bind NULL): lendChars gives one.
        withUTF8Bytes { bytes in
            bytes.lendChars { sqlite3_bind_text(statement, index, $0, Int32($1), ns_sqlite_transient()) }
        }
    }
}

extension Optional: SQLArgument where Wrapped: SQLArgument {
    func bind(to statement: Statement, at index: Int32) -> Int32 {
        switch self {
        case .some(let value): value.bind(to: statement, at: index)
        case .none: sqlite3_bind_null(statement.handle, index)
        }
    }
}

/// The current row of a statement being stepped; valid only inside the closure it is
/// given to.
struct Row {
    let statement: OpaquePointer

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(statement, column))
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func bool(_ column: Int32) -> Bool {
        sqlite3_column_int64(statement, column) != 0
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    /// The column as text ("" for NULL).
    func text(_ column: Int32) -> String {
        // The text first: SQLite counts its bytes once it is text.
        let bytes = sqlite3_column_text(statement, column)
        return String(decodingC: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// How many bytes the column's text has (0 for NULL).
    func textLength(_ column: Int32) -> Int {
        Int(sqlite3_column_bytes(statement, column))
    }

    func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }
}

/// Binds a statement's `?`s one after another, each by its kind: for the statements of
/// every change, with no list of arguments to gather and nothing generic to copy.
struct Binding {
    fileprivate let statement: Statement
    private var index: Int32 = 0
    /// The first failure to bind, else OK.
    fileprivate private(set) var code = SQLITE_OK

    fileprivate init(statement: Statement) {
        self.statement = statement
    }

    mutating func int(_ value: Int) {
        bound(sqlite3_bind_int64(statement.handle, index + 1, Int64(value)))
    }

    mutating func int(_ value: Int64) {
        bound(sqlite3_bind_int64(statement.handle, index + 1, value))
    }

    /// A number, or NULL.
    mutating func int(_ value: Int?) {
        if let value { int(value) } else { bound(sqlite3_bind_null(statement.handle, index + 1)) }
    }

    mutating func bool(_ value: Bool) {
        bound(sqlite3_bind_int64(statement.handle, index + 1, value ? 1 : 0))
    }

    mutating func text(_ value: String) {
        bound(statement.bindText(value, at: index + 1))
    }

    /// Text, or NULL.
    mutating func text(_ value: String?) {
        if let value { text(value) } else { bound(sqlite3_bind_null(statement.handle, index + 1)) }
    }

    private mutating func bound(_ result: Int32) {
        index += 1
        if code == SQLITE_OK { code = result }
    }
}

/// A prepared statement. It is reset after each use, so it never holds a read open.
final class Statement {
    let handle: OpaquePointer
    private unowned let connection: Connection
    /// The text bound to the statement's `?`s, copied here rather than by SQLite (which
    /// allocates a copy of each text, each time): bound as static, it stays as it is
    /// until the statement is bound again, before its next step.
    private let texts = KeptBytes(capacity: 256)

    fileprivate init(_ handle: OpaquePointer, of connection: Connection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Starts binding the statement anew: its texts so far are let go.
    private func startBinding() {
        sqlite3_reset(handle)
        // Texts in buffers outgrown were freed: the statement lets go of them too.
        if texts.letGo() { sqlite3_clear_bindings(handle) }
    }

    /// Binds text from the statement's own copy.
    fileprivate func bindText(_ text: String, at index: Int32) -> Int32 {
        // A non-nil pointer even for "": nil would bind NULL. (nil destructor: static.)
        text.withUTF8Bytes { texts.keep($0) { sqlite3_bind_text(handle, index, $0, Int32($1), nil) } }
    }

    /// The statement's SQL, as it was prepared.
    var sql: String {
        sqlite3_sql(handle).map { String(cString: $0) } ?? ""
    }

    /// Binds the arguments to the `?`s in order.
    func bind(_ arguments: [any SQLArgument]) throws(SQLiteError) {
        startBinding()
        for (offset, argument) in arguments.enumerated() {
            try connection.check(argument.bind(to: self, at: Int32(offset + 1)), sql: sql)
        }
    }

    /// Binds the `?`s as `bind` says, one after another.
    private func bind(_ bind: (inout Binding) -> Void) throws(SQLiteError) {
        startBinding()
        var binding = Binding(statement: self)
        bind(&binding)
        try connection.check(binding.code, sql: sql)
    }

    /// Runs the statement to its end.
    func run(_ arguments: [any SQLArgument] = []) throws(SQLiteError) {
        try bind(arguments)
        try runBound()
    }

    /// Runs the statement to its end, its `?`s bound by `bind`: for the statements of
    /// every change.
    func run(_ bind: (inout Binding) -> Void) throws(SQLiteError) {
        try self.bind(bind)
        try runBound()
    }

    private func runBound() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        try connection.check(code, done: true, sql: sql)
    }

    /// The first row, read by `read`, the `?`s bound by `bind`; `nil` when there is none.
    func first<T>(_ bind: (inout Binding) -> Void, reading read: (Row) throws -> T) throws -> T? {
        try self.bind(bind)
        return try firstBound(read)
    }

    /// The first row of the statement as bound, read by `read`; `nil` when there is none.
    private func firstBound<T>(_ read: (Row) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
            try connection.check(code, done: true, sql: sql)
            return nil
        }
        return try read(Row(statement: handle))
    }

    /// Calls `body` with each row.
    func each(_ arguments: [any SQLArgument] = [], _ body: (Row) throws -> Void) throws {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            guard code == SQLITE_ROW else { return try connection.check(code, done: true, sql: sql) }
            try body(Row(statement: handle))
        }
    }

    /// The first row, read by `read`; `nil` when there is none.
    func first<T>(_ arguments: [any SQLArgument] = [], _ read: (Row) throws -> T) throws -> T? {
        try bind(arguments)
        return try firstBound(read)
    }

    /// Every row, read by `read`.
    func all<T>(_ arguments: [any SQLArgument] = [], _ read: (Row) throws -> T) throws -> [T] {
        var rows: [T] = []
        try each(arguments) { rows.append(try read($0)) }
        return rows
    }
}

/// SQL a command runs again and again, whose prepared statement a connection finds by
/// the key's number instead of hashing its text (with interpolated SQL built anew each
/// time, that was a tenth of a toggle).
final class SQL: Sendable {
    let text: String
    /// The key's place in a connection's list of statements: numbered in the order
    /// keys are made.
    let number: Int

    private static let made = Atomic<Int>(0)

    init(_ text: String) {
        self.text = text
        number = Self.made.add(1, ordering: .relaxed).oldValue
    }

    static let begin = SQL("BEGIN IMMEDIATE")
    static let commit = SQL("COMMIT")
    static let rollback = SQL("ROLLBACK")
}

/// One SQLite connection, used from one thread, with its statements prepared once.
final class Connection {
    let handle: OpaquePointer
    /// The instant the write under way is made at: what it stamps on the tasks it
    /// changes (``SQLiteStore/writing(touching:_:)`` sets it).
    var now = Instant(secondsSinceEpoch: 0)
    private var statements: [String: Statement] = [:]
    /// The statements of `SQL` keys, at their numbers.
    private var keyed: [Statement?] = []
    private var isOpen = true

    /// SQLite set up once, before its first connection: without memory statistics,
    /// which navstack never reads and which lock a mutex on every allocation; and with
    /// statement and savepoint journals always kept in memory (-1; by default one past
    /// 64 KiB moves to a temporary file): a command of a burst that rewrites pages the
    /// burst already changed saves them there, and each that passed 64 KiB created,
    /// wrote and deleted a file.
    private static let configured: Void = {
        _ = ns_sqlite_config_no_memory_statistics()
        _ = ns_sqlite_config_statement_journal_spill(-1)
    }()

    /// Opens the database at `path` (":memory:" for one in memory): creating it if
    /// needed, or only an existing one (`creating` false), or only to read it.
    init(path: String, creating: Bool = true, readOnly: Bool = false) throws(SQLiteError) {
        Self.configured
        var handle: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0))
            | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else { throw SQLiteError(code: code, message: "out of memory") }
        self.handle = handle
        guard code == SQLITE_OK else {
            let error = Self.failure(code, of: handle, sql: nil)
            sqlite3_close_v2(handle)
            isOpen = false
            throw error
        }
    }

    deinit {
        close()
    }

    /// Finalizes the statements and closes the connection; the last connection to a
    /// WAL database checkpoints it and removes the WAL.
    func close() {
        guard isOpen else { return }
        isOpen = false
        statements = [:]
        keyed = []
        sqlite3_close_v2(handle)
    }

    /// The statement for `sql`, prepared on first use and kept.
    func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The statement for `sql`, prepared on first use and kept.
    func statement(_ sql: SQL) throws(SQLiteError) -> Statement {
        if sql.number < keyed.count, let statement = keyed[sql.number] { return statement }
        let statement = try prepare(sql.text)
        if sql.number >= keyed.count { keyed += repeatElement(nil, count: sql.number + 1 - keyed.count) }
        keyed[sql.number] = statement
        return statement
    }

    /// Runs one statement, prepared once.
    func run(_ sql: SQL, _ arguments: [any SQLArgument] = []) throws(SQLiteError) {
        try statement(sql).run(arguments)
    }

    /// A statement of its own, finalized when released.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var handle: OpaquePointer?
        try check(sqlite3_prepare_v3(self.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil), sql: sql)
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement", sql: sql) }
        return Statement(handle, of: self)
    }

    /// Runs statements separated by semicolons, without arguments.
    func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Runs one statement, prepared once.
    func run(_ sql: String, _ arguments: [any SQLArgument] = []) throws(SQLiteError) {
        try statement(sql).run(arguments)
    }

    /// The first row of a query, prepared once.
    func first<T>(_ sql: String, _ arguments: [any SQLArgument] = [], _ read: (Row) throws -> T) throws -> T? {
        try statement(sql).first(arguments, read)
    }

    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The rows the last statement inserted, changed or deleted.
    var changes: Int32 {
        sqlite3_changes(handle)
    }

    /// Turns a result code other than OK (or DONE, when `done`) into an error with
    /// SQLite's extended code and message, and the SQL that failed (read only then).
    func check(_ code: Int32, done: Bool = false, sql: @autoclosure () -> String? = nil) throws(SQLiteError) {
        if code == SQLITE_OK || (done && code == SQLITE_DONE) { return }
        throw Self.failure(code, of: handle, sql: sql())
    }

    /// The failure `code` reports on `handle`: the extended code the connection holds
    /// for it (SQLite keeps the last call's), else `code` as it was returned.
    private static func failure(_ code: Int32, of handle: OpaquePointer, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        return SQLiteError(
            code: extended & 0xFF == code & 0xFF ? extended : code,
            message: String(cString: sqlite3_errmsg(handle)), sql: sql,
            systemError: sqlite3_system_errno(handle))
    }
}
