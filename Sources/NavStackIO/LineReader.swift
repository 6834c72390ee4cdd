import NavStackBytes
import NavStackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of input: its first bytes (enough to judge it) and its full length.
public struct InputLine {
    public var bytes: ArraySlice<UInt8>
    public var length: Int
}

/// Where lines come from: the terminal, a pipe, or `-c` arguments.
public protocol LineReader {
    /// The next line, or `nil` at the end of input; `prompt` is asked for only by a
    /// reader that shows one.
    mutating func next(prompt: () -> String) -> InputLine?
    /// Why input ended early: it could not be read (`nil` at a real end of input).
    var failure: String? { get }
}

extension LineReader {
    public var failure: String? { nil }
}

/// Lines from `-c` options.
public struct ArgumentLineReader: LineReader {
    public var commands: IndexingIterator<[String]>

    public init(_ commands: [String]) {
        self.commands = commands.makeIterator()
    }

    public mutating func next(prompt: () -> String) -> InputLine? {
        commands.next().map { InputLine(bytes: ArraySlice($0.utf8), length: $0.utf8.count) }
    }
}

/// Lines from a pipe or file on stdin, read in large blocks. A line is kept up to one
/// byte past the limit, so a huge line is refused without being held in memory.
///
/// Before each read that may wait for input, `willWait` runs: the answers are delivered
/// then, so a program talking to navstack through pipes sees each answer, while a
/// script read in bulk is written in large blocks. When it answers `false` (the answers
/// could not be delivered), no more is read.
public struct PipedLineReader: LineReader {
    public let willWait: () -> Bool
    private var block = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEnd = false
    private let keep = Limits.lineBytes + 1
    public private(set) var failure: String?

    public init(willWait: @escaping () -> Bool) {
        self.willWait = willWait
    }

    public mutating func next(prompt: () -> String) -> InputLine? {
        var line = InputLine(bytes: [], length: 0)
        while true {
            if start == end {
                if atEnd || !refill() {
                    return line.length > 0 ? finish(line) : nil
                }
            }
            let newline = newlineIndex()
            let stop = newline ?? end
            let piece = block[start..<stop]
            if line.length == 0, newline != nil {
                // The whole line is in the block: it is handed on as a slice of it.
                line.bytes = piece.prefix(keep)
            } else if line.bytes.count < keep {
                line.bytes.append(contentsOf: piece.prefix(keep - line.bytes.count))
            }
            line.length += piece.count
            if let newline {
                start = newline + 1
                return finish(line)
            }
            start = end
        }
    }

    /// Where the next newline in the block is, from `start`: found by the C library,
    /// which looks at many bytes at a time.
    private func newlineIndex() -> Int? {
        block.withBytes { $0.firstIndex(of: 0x0A, in: start..<end) }
    }

    /// Reads the next block; `false` at the end of input.
    private mutating func refill() -> Bool {
        guard willWait() else {
            atEnd = true
            return false
        }
        let count = block.fill { start, room in
            while true {
                let n = read(0, start, room)
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
        guard count > 0 else {
            // A read that fails (stdin is a folder, or closed) is not an end of input.
            if count < 0 { failure = String(cString: strerror(errno)) }
            atEnd = true
            return false
        }
        start = 0
        end = count
        return true
    }

    /// Drops a trailing carriage return (a line from a Windows editor).
    private func finish(_ line: InputLine) -> InputLine {
        var line = line
        if line.bytes.count == line.length, line.bytes.last == UInt8(ascii: "\r") {
            line.bytes.removeLast()
            line.length -= 1
        }
        return line
    }
}
