import NavStackBytes
import NavStackCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's stdout and stderr as one ordered buffer: what the program prints waits
/// here, in the order it was written, until ``flush()`` writes it out.
///
/// A plain writer: it never writes on its own and never commits anything. The loop
/// decides when answers go out (after committing what they show); `main` flushes once
/// more before the process exits, so every exit path delivers its message.
public final class StandardStreams: OutputSink, Sendable {
    /// The one instance: stdout and stderr belong to the process. (navstack runs on one
    /// thread.)
    public static let shared = StandardStreams()

    /// What waits to be written, and the first failure: behind a lock, so the compiler
    /// checks that the one instance may be shared (navstack writes from one thread: the
    /// lock is never contended).
    private struct Pending {
        /// Everything not yet written, both streams.
        var buffer: [UInt8] = []
        /// Where each stretch of `buffer` goes: its descriptor and where it ends.
        var runs: [(fd: Int32, end: Int)] = []
        /// The first write that failed; nothing is written after it.
        var failure: FileError?
    }

    private let pending: Mutex<Pending>

    /// The first write that failed; nothing is written after it.
    public var failure: FileError? { pending.withLock { $0.failure } }

    /// Whether stdout and stderr are one terminal, pipe or device (`2>&1`): then errors
    /// are written through stdout, in the same writes as the screens around them.
    private let sameTarget = StandardStreams.shareTarget(1, 2)

    private init() {
        var pending = Pending()
        pending.buffer.reserveCapacity(1 << 16)
        self.pending = Mutex(pending)
    }

    /// How many bytes wait to be written.
    public var pendingBytes: Int { pending.withLock { $0.buffer.count } }

    public func write(_ text: String, to channel: Channel) {
        write(to: channel) { $0.append(contentsOf: text.utf8) }
    }

    public func write(to channel: Channel, _ fill: (inout [UInt8]) -> Void) {
        let fd: Int32 = channel == .error && !sameTarget ? 2 : 1
        pending.withLock { pending in
            fill(&pending.buffer)
            if let last = pending.runs.indices.last, pending.runs[last].fd == fd {
                pending.runs[last].end = pending.buffer.count
            } else {
                pending.runs.append((fd, pending.buffer.count))
            }
        }
    }

    /// Drops what waits to be written (answers whose changes were not kept).
    public func discard() {
        pending.withLock { Self.discard(&$0) }
    }

    private static func discard(_ pending: inout Pending) {
        pending.buffer.removeAll(keepingCapacity: true)
        pending.runs.removeAll(keepingCapacity: true)
    }

    /// Writes what waits, in order. After a failed write nothing more is written: the
    /// failure is thrown now and kept in ``failure``.
    public func flush() throws(FileError) {
        let failed = pending.withLock { pending -> FileError? in
            if let failure = pending.failure { return failure }
            defer { Self.discard(&pending) }
            var start = 0
            for run in pending.runs {
                if let code = Self.writeAll(pending.buffer[start..<run.end], to: run.fd) {
                    let failure = FileError(step: .output(fd: run.fd), reason: String(cString: strerror(code)))
                    pending.failure = failure
                    return failure
                }
                start = run.end
            }
            return nil
        }
        if let failed { throw failed }
    }

    /// Writes a message straight to stderr, after what waits: the last word of a process
    /// whose output failed. Errors are ignored: there is nowhere left to say them.
    public func writeLastWord(_ text: String) {
        let bytes = Array(text.utf8)
        _ = Self.writeAll(bytes[...], to: 2)
    }

    /// Whether two descriptors lead to the same terminal, pipe, socket or device. (Two
    /// descriptors of one regular file may keep offsets of their own, so those are not.)
    private static func shareTarget(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat()
        var second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0,
            first.st_dev == second.st_dev, first.st_ino == second.st_ino
        else { return false }
        switch first.st_mode & S_IFMT {
        case S_IFCHR, S_IFIFO, S_IFSOCK: return true
        default: return false
        }
    }

    /// Writes all the bytes; the `errno` of a failed write, else `nil`.
    private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Int32? {
        bytes.withBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.lend(from: offset) { Glibc.write(fd, $0, $1) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return nil
        }
    }
}
