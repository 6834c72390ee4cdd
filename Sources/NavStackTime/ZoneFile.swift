import Glibc
import NavStackBytes

/// The one place this module touches the file system: a zone file read whole, within a
/// bound.
enum ZoneFile {
    /// The most a zone file may hold. The tz database's largest is under 4 KiB (Debian 12's
    /// fat files: Asia/Hebron 3,872 bytes, Europe/Madrid 2,614, Etc/UTC 114); anything near
    /// this is not a zone. Reading one takes about 10 µs with the file cached (open, fstat,
    /// two reads, close, then the parse), about 0.1 ms as a process's first call.
    static let sizeLimit = 1 << 20

    /// The bytes of the regular file at `path`, or why not. A FIFO, a device or a
    /// directory is refused before it is read, so that a `TZ` naming one cannot block.
    static func read(_ path: String) throws(ZoneError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOENT || code == ENOTDIR ? .notFound(path) : .unreadable(path, errno: code)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path, errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile(path) }
        guard status.st_size <= sizeLimit else { throw .tooLarge(path, limit: sizeLimit) }
        // One byte more than fstat said, to see a file that grew while it was read.
        let expected = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: expected + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.fill(from: count) { Glibc.read(descriptor, $0, $1) }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path, errno: errno)
            }
            count += got
        }
        guard count == expected else { throw .changedWhileRead(path) }
        bytes.removeLast()
        return bytes
    }

    /// Where the symbolic link at `path` points, or nil when it is not one.
    static func linkTarget(_ path: String) -> String? {
        String(capacity: 4095, writtenByC: { readlink(path, $0, $1) })
    }
}
