import CPosix
import NavStackBytes
import NavStackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file and process operations the subcommands need, on the C library.
public enum Files {
    /// Keeps up to 8 MiB freed at the top of the heap for the next allocation. SQLite
    /// frees its page cache and savepoint journal and asks for them again at every
    /// command of a burst; glibc gave back every freed top past 128 KiB to the kernel
    /// and took it again: 35,000 `brk` calls, a third of a second of system time, in the
    /// 100,000-command walk on a store file. Peak memory is unchanged.
    public static func keepFreedMemory() {
        _ = ns_keep_freed_memory(8 << 20)
    }

    public enum Kind {
        case missing, file, folder
    }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return info.st_mode & S_IFMT == S_IFDIR ? .folder : .file
    }

    /// Every byte of an open file descriptor, to its end; `nil` when there are more than
    /// `limit`. Reads no more than `limit + 1` bytes, so an endless input (`/dev/zero`)
    /// is refused once it passes the limit, and a regular file larger than the limit is
    /// refused before it is read.
    public static func readAll(_ fd: Int32, limit: Int) throws(FileError) -> [UInt8]? {
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            guard Int(info.st_size) <= limit else { return nil }
            bytes.reserveCapacity(Int(info.st_size) + 1)
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.fill { start, _ in Glibc.read(fd, start, wanted) }
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                throw .errno("read")
            }
            if count == 0 { return bytes }
            // Past the limit: refused before the bytes are kept (and the array grown).
            if bytes.count + count > limit { return nil }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// A file, or standard input, read a block at a time: what an import reads while it
    /// imports, holding one block, never the whole input. It reads no more than `limit`
    /// bytes in all; a regular file larger than that is known before it is read.
    public final class BlockReader {
        /// How many bytes a block holds at most.
        public static let blockSize = 1 << 20
        private let fd: Int32
        private let owned: Bool
        private let limit: Int
        private let name: String
        private var total = 0
        /// Whether the input goes on past `limit` (a regular file's size says so at once).
        public private(set) var passedLimit = false

        /// Opens `path`, or reads standard input when it is nil.
        public init(path: String?, limit: Int) throws(FileError) {
            self.limit = limit
            name = path ?? "standard input"
            if let path {
                fd = open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw .errno(path) }
                owned = true
            } else {
                fd = 0
                owned = false
            }
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > limit { passedLimit = true }
        }

        deinit {
            if owned { close(fd) }
        }

        /// The next block; nil at the end of the input, or once it passes the limit.
        public func next() throws(FileError) -> [UInt8]? {
            guard !passedLimit else { return nil }
            while true {
                let wanted = min(Self.blockSize, limit + 1 - total)
                var count = 0
                let block = [UInt8](capacity: wanted) { start, room in
                    count = Glibc.read(fd, start, room)
                    return count
                }
                if count < 0 {
                    if Glibc.errno == EINTR { continue }
                    throw .errno(name)
                }
                if count == 0 { return nil }
                total += block.count
                if total > limit {
                    passedLimit = true
                    return nil
                }
                return block
            }
        }
    }

    /// What ``readRegular(_:limit:)`` found: a regular file's bytes, or why it read nothing.
    public enum RegularFile {
        case bytes([UInt8])
        /// A named pipe, device, socket or folder: never read, so never waited on.
        case notRegular
        case tooLarge(bytes: Int)
        /// A symbolic link whose target is missing.
        case danglingLink
    }

    /// A regular file's bytes, up to `limit`. Anything else is refused without reading
    /// it: the file is opened without waiting (a named pipe with no writer) and checked
    /// once open.
    public static func readRegular(_ path: String, limit: Int) throws(FileError) -> RegularFile {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let failure = FileError.errno(path)
            var info = stat()
            if Glibc.errno == ENOENT, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { return .danglingLink }
            throw failure
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .errno(path) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notRegular }
        guard Int(info.st_size) <= limit else { return .tooLarge(bytes: Int(info.st_size)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.fill { Glibc.read(fd, $0, $1) }
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                throw .errno(path)
            }
            if count == 0 { return .bytes(bytes) }
            bytes.append(contentsOf: chunk[..<count])
            // The file grew while it was read.
            if bytes.count > limit { return .tooLarge(bytes: bytes.count) }
        }
    }

    /// Every byte of a file, or `nil` past `limit` (see ``readAll(_:limit:)``).
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .errno(path) }
        defer { close(fd) }
        return try readAll(fd, limit: limit)
    }

    /// Every byte of a file.
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        try read(path, limit: .max / 2) ?? []
    }

    /// Writes a whole file.
    public static func write(_ bytes: some Sequence<UInt8>, to path: String, mode: mode_t = 0o644) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .errno(path) }
        defer { close(fd) }
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withBytes { $0.lend(from: offset) { Glibc.write(fd, $0, $1) } }
            if written < 0 {
                if Glibc.errno == EINTR { continue }
                throw .errno(path)
            }
            offset += written
        }
    }

    /// Replaces a file's contents at once: written beside it, then renamed over it. A
    /// symbolic link is kept: the file it leads to is replaced.
    public static func replace(_ link: String, with text: String) throws(FileError) {
        var path = link
        var info = stat()
        if lstat(link, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(link, nil) else { throw .errno(link) }
            path = String(cString: resolved)
            free(resolved)
        }
        let mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
        let temporary = path + ".navstack-new"
        try write(text.utf8, to: temporary, mode: mode)
        guard rename(temporary, path) == 0 else {
            let failure = FileError.errno(path)
            unlink(temporary)
            throw failure
        }
    }

    /// The names in a folder, without "." and "..".
    private static func entries(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = String(cCharactersOf: entry.pointee.d_name)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether a path is a folder itself (a link to one is not followed).
    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Everything below a folder that is not a folder (files, links, named pipes,
    /// devices), as paths relative to it, in no particular order. Links to folders are
    /// not followed.
    public static func files(under folder: String) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            for name in entries(in: relative.isEmpty ? folder : folder + "/" + relative) {
                let path = relative.isEmpty ? name : relative + "/" + name
                if isFolder(folder + "/" + path) {
                    pending.append(path)
                } else {
                    found.append(path)
                }
            }
        }
        return found
    }

    /// A new private folder under `$TMPDIR` (else /tmp).
    public static func temporaryFolder(prefix: String) throws(FileError) -> String {
        let base = Terminal.environment("TMPDIR") ?? "/tmp"
        let (made, path) = (base + "/" + prefix + "XXXXXX").withMutableCString { mkdtemp($0) }
        guard made != nil else { throw .errno(.temporaryFolder(in: base)) }
        return path
    }

    /// Deletes a file, or a folder with everything in it.
    public static func remove(_ path: String) {
        guard isFolder(path) else {
            unlink(path)
            return
        }
        for name in entries(in: path) { remove(path + "/" + name) }
        rmdir(path)
    }

    /// The running binary.
    public static func ownPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }

    /// Runs a program in `folder` with `environment`, stdin from the file `input`, stdout
    /// and stderr both into the file `output`; returns its exit status.
    @discardableResult
    public static func run(
        _ program: String, _ arguments: [String], in folder: String, environment: [String: String],
        input: String, output: String
    ) throws(FileError) -> Int32 {
        let pid = try spawn(program, arguments, in: folder, environment: environment, input: .file(input), output: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard Glibc.errno == EINTR else { throw .errno("waitpid") }
        }
        return status
    }

    /// A program running beside this one (``start(_:_:in:environment:output:)``), its
    /// stdin a pipe this process holds open.
    public struct Background: Sendable {
        public let pid: pid_t
        fileprivate let input: Int32
    }

    /// Starts a program in `folder` with `environment`, stdout and stderr both into the
    /// file `output`, its stdin a pipe left open until ``finish(_:within:)``.
    public static func start(
        _ program: String, _ arguments: [String], in folder: String, environment: [String: String], output: String
    ) throws(FileError) -> Background {
        var ends: [Int32] = [0, 0]
        // Close-on-exec: no other program started meanwhile holds the pipe open.
        guard ns_pipe_cloexec(&ends) == 0 else { throw .errno("pipe") }
        defer { close(ends[0]) }
        do {
            let pid = try spawn(program, arguments, in: folder, environment: environment, input: .descriptor(ends[0]), output: output)
            return Background(pid: pid, input: ends[1])
        } catch {
            close(ends[1])
            throw error
        }
    }

    /// Ends a program started with ``start(_:_:in:environment:output:)``: closes its
    /// input, waits up to `seconds` for it to end, then sends SIGTERM and, a second
    /// later, SIGKILL. Returns its status as `waitpid` gives it.
    public static func finish(_ background: Background, within seconds: Double) -> Int32 {
        close(background.input)
        let clock = ContinuousClock()
        let start = clock.now
        var signalled: Int32 = 0
        while true {
            var status: Int32 = 0
            let ended = waitpid(background.pid, &status, WNOHANG)
            if ended == background.pid || (ended < 0 && Glibc.errno != EINTR) { return status }
            let waited = start.duration(to: clock.now)
            if signalled == 0, waited > .seconds(seconds) {
                signalled = SIGTERM
                kill(background.pid, SIGTERM)
            } else if signalled == SIGTERM, waited > .seconds(seconds + 1) {
                signalled = SIGKILL
                kill(background.pid, SIGKILL)
            }
            usleep(10_000)
        }
    }

    /// Where a started program reads its stdin from.
    private enum Input {
        case file(String)
        case descriptor(Int32)
    }

    /// Starts a program, stdout and stderr both into the file `output`; returns its pid.
    private static func spawn(
        _ program: String, _ arguments: [String], in folder: String, environment: [String: String], input: Input,
        output: String
    ) throws(FileError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch input {
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        ns_spawn_file_actions_addchdir(&actions, folder)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let code = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard code == 0 else { throw FileError(step: .running(program), reason: String(cString: strerror(code))) }
        return pid
    }

    /// A file's size in bytes, or nil when it cannot be had.
    public static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// The process's environment.
    public static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}

/// A failed call, with the C library's reason.
public struct FileError: CatalogError {
    /// What failed.
    public enum Step: Sendable {
        /// A call on a file, or a call: the path, or the call's name (`waitpid`).
        case file(String)
        /// A write to standard output (1) or standard error (2): closed, full or gone.
        case output(fd: Int32)
        /// Making a temporary folder in this folder.
        case temporaryFolder(in: String)
        /// Starting this program.
        case running(String)
    }

    public let step: Step
    /// The C library's words for the failure.
    public let reason: String

    /// The message in a catalog's language.
    public func message(in t: Catalog) -> String {
        switch step {
        case .file(let what): "\(what): \(reason)"
        // The C library's words: a write fails the same in every language.
        case .output: reason
        case .temporaryFolder(let base): t(.ioCannotCreateTemporaryFolder, ("folder", base), ("reason", reason))
        case .running(let program): t(.ioCannotRunProgram, ("program", program), ("reason", reason))
        }
    }

    /// The failure of `step` with the reason `errno` gives now.
    public static func errno(_ step: Step) -> FileError {
        FileError(step: step, reason: String(cString: strerror(Glibc.errno)))
    }

    /// The failure of a call on `what` (a path or a call) with the reason `errno`
    /// gives now.
    public static func errno(_ what: String) -> FileError { errno(.file(what)) }
}
