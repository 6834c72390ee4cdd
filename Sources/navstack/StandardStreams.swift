#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavStackCore

/// stdout and stderr for the interpreter: output is buffered and flushed before any
/// error is written, so a merged transcript keeps its order. When both go to one
/// terminal, pipe or device, errors join the buffer instead.
final class StandardStreams: OutputSink {
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 16
    /// Runs before anything reaches stdout or stderr: the store commits there, so what is
    /// printed is kept. It returns an error line when the changes could not be kept; then
    /// what was waiting is dropped, the line is printed, and navstack exits 1.
    var beforeOutput: (() -> String?)?

    /// Whether stdout and stderr are one terminal, pipe or device (`2>&1`): then errors
    /// join the buffer, which keeps their order without a write each.
    private let sameTarget = StandardStreams.shareTarget(1, 2)

    init() {
        buffer.reserveCapacity(flushThreshold)
    }

    func write(_ text: String, to channel: Channel) {
        write(to: channel) { $0.append(contentsOf: text.utf8) }
    }

    func write(to channel: Channel, _ fill: (inout [UInt8]) -> Void) {
        guard channel == .output || sameTarget else {
            var bytes: [UInt8] = []
            fill(&bytes)
            flush()
            Self.writeAll(bytes, to: 2)
            return
        }
        fill(&buffer)
        if buffer.count >= flushThreshold { flush() }
    }

    /// Whether two descriptors lead to the same terminal, pipe, socket or device. (Two
    /// descriptors of one regular file may keep offsets of their own, so those are not.)
    private static func shareTarget(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat()
        var second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0,
              first.st_dev == second.st_dev, first.st_ino == second.st_ino else { return false }
        switch first.st_mode & S_IFMT {
        case S_IFCHR, S_IFIFO, S_IFSOCK: return true
        default: return false
        }
    }

    /// Writes what is buffered for stdout.
    func flush() {
        if let failure = beforeOutput?() {
            buffer.removeAll()
            Self.writeAll(Array(failure.utf8), to: 2)
            exit(1)
        }
        guard !buffer.isEmpty else { return }
        Self.writeAll(buffer, to: 1)
        buffer.removeAll(keepingCapacity: true)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
