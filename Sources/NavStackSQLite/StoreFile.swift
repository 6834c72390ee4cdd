import NavStackBytes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's file, checked before SQLite opens it: what it is, whether this run
/// created it, and whether it may be written.
struct StoreFile {
    let path: String
    /// Whether this run created the file: a failed open removes it again.
    private(set) var created = false
    /// Whether the file is opened read-only (a read-only command on a file it may not
    /// write).
    private(set) var readOnly = false
    /// The `-wal` and `-shm` files that did not exist before the open.
    private var absentCompanions: [String] = []

    /// A store file is a regular file that is empty or starts with SQLite's header.
    /// `.creating` creates a missing file (mode 0600) and its folders (0700); `.reading`
    /// creates nothing.
    init(path: String, mode: SQLiteStore.OpenMode) throws(StoreError) {
        self.path = path
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let folder = parent.isEmpty ? "/" : parent
        var info = stat()
        if stat(path, &info) != 0 {
            switch errno {
            case ENOENT: break
            case EACCES: throw .permissionDenied(path: path)
            case ENOTDIR: throw .notAFolder(path: path, folder: folder)
            default: throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            guard mode == .creating else { throw .missing(path: path) }
            try Self.createFolders(folder, for: path)
            try Self.checkWritable(folder: folder, path: path)
            absentCompanions = [path + "-wal", path + "-shm"].filter { access($0, F_OK) != 0 }
            // A new store is private to its user; SQLite gives its -wal and -shm files
            // the same mode.
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                _ = close(fd)
                created = true
                return
            }
            // Another process created it meanwhile: open it as the store it makes.
            guard errno == EEXIST, stat(path, &info) == 0 else {
                if errno == EACCES { throw .permissionDenied(path: path) }
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .isFolder(path: path)
        default: throw .notADatabase(path: path)
        }
        guard access(path, R_OK) == 0 else { throw .permissionDenied(path: path) }
        try Self.checkHeader(path, size: Int(info.st_size))
        let writable = access(path, W_OK) == 0 && info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0
        var folderInfo = stat()
        let folderWritable =
            stat(folder, &folderInfo) == 0 && access(folder, W_OK) == 0
            && folderInfo.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0
        switch mode {
        case .creating:
            guard writable && folderWritable else { throw .readOnly(path: path) }
        case .reading:
            readOnly = !writable || !folderWritable
        }
        absentCompanions = [path + "-wal", path + "-shm"].filter { access($0, F_OK) != 0 }
    }

    /// Refuses a file that is not empty and does not start as an SQLite database does
    /// (SQLite would take a file shorter than a page for an empty one and overwrite it).
    private static func checkHeader(_ path: String, size: Int) throws(StoreError) {
        guard size > 0 else { return }
        let header = Array("SQLite format 3\0".utf8)
        guard size >= 512 else { throw .notADatabase(path: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .permissionDenied(path: path) }
        defer { _ = close(fd) }
        var bytes = [UInt8](repeating: 0, count: header.count)
        let count = bytes.fill { read(fd, $0, $1) }
        guard count == header.count, bytes == header else { throw .notADatabase(path: path) }
    }

    private static func checkWritable(folder: String, path: String) throws(StoreError) {
        var info = stat()
        if stat(folder, &info) == 0, access(folder, W_OK) != 0 || info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 {
            throw .readOnly(path: path)
        }
    }

    /// `mkdir -p`, mode 0700.
    private static func createFolders(_ folder: String, for path: String) throws(StoreError) {
        var built = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            built += "/" + part
            var info = stat()
            if stat(built, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw .notAFolder(path: path, folder: built)
                }
                continue
            }
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                if errno == EACCES { throw .permissionDenied(path: built) }
                throw .cannotCreateFolder(path: path, folder: built, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Takes group and other permissions away from an existing store and its `-wal` and
    /// `-shm` files, so that what SQLite creates next to it is private too.
    func tighten() {
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & 0o077 != 0 else { continue }
            _ = chmod(file, info.st_mode & 0o7700)
        }
    }

    /// After a failed open: removes the file, and its `-wal` and `-shm`, if this run
    /// created them.
    func removeIfCreated() {
        guard created else { return }
        _ = unlink(path)
        for companion in absentCompanions { _ = unlink(companion) }
    }

    /// After a read-only open: removes the `-wal` and `-shm` files SQLite made for it
    /// and leaves behind (a read-only connection cannot remove them), when the `-wal`
    /// holds nothing.
    func removeLeftovers() {
        guard readOnly, absentCompanions.count == 2 else { return }
        var info = stat()
        guard stat(path + "-wal", &info) != 0 || info.st_size == 0 else { return }
        for companion in absentCompanions { _ = unlink(companion) }
    }
}
