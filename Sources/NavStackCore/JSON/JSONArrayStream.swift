import NavStackBytes

/// Reads the elements of a document's top array one at a time from an input given a
/// block at a time (a file read in pieces), as ``JSONArrayReader`` reads them from the
/// whole input: the same elements, and the same failures at the same offsets (counted
/// from the input's first byte). Only the element being read and one block are held.
///
/// An element that the end of the bytes so far cuts (or that fails within its last few
/// bytes, where a cut character or number would) is read again once the next block is in.
public struct JSONArrayStream {
    /// The bytes not yet read, from `position` on.
    private var buffer: [UInt8]
    private var position: Int
    /// Where `buffer` starts in the input.
    private var base: Int
    /// Whether the input has no more blocks.
    private var exhausted = false
    /// Whether an element was read (a comma comes before the next).
    private var started = false
    private var finished = false

    /// A failure this close to the end of the bytes so far may come from a cut, not from
    /// the input: it is looked at again with the next block.
    static let cutMargin = 4096

    /// Starts after the array's `[`: `buffer` from `position` is what follows it, and
    /// `buffer` starts at `base` in the input.
    public init(after buffer: [UInt8], position: Int, base: Int) {
        self.buffer = buffer
        self.position = position
        self.base = base
    }

    private enum Step {
        case element(JSONValue, through: Int)
        case end(through: Int)
        case needMore
        case failed(JSONError)
    }

    /// The next element; nil once the array has ended and nothing but blanks follows it.
    /// `more` gives the input's next block, nil at its end.
    public mutating func next(more: () throws -> [UInt8]?) throws -> JSONValue? {
        guard !finished else { return nil }
        while true {
            switch step() {
            case .element(let value, let through):
                position += through
                started = true
                return value
            case .end(let through):
                finished = true
                position += through
                // Nothing but blanks may follow the array.
                while let block = try more() {
                    base += buffer.count
                    buffer = block
                    position = 0
                    if let index = block.firstIndex(where: { !JSONReader.isBlank($0) }) {
                        throw Self.failure(in: block, at: index).shifted(by: base)
                    }
                }
                return nil
            case .needMore:
                guard !exhausted else { throw JSONError.unexpectedEnd }
                try readMore(more)
            case .failed(let error):
                let left = buffer.count - position
                if !exhausted, error.offset.map({ $0 >= left - Self.cutMargin }) ?? true {
                    try readMore(more)
                } else {
                    throw error.shifted(by: base + position)
                }
            }
        }
    }

    /// Keeps what is not read yet and adds the next block to it, or marks the end.
    private mutating func readMore(_ more: () throws -> [UInt8]?) throws {
        guard let block = try more() else {
            exhausted = true
            return
        }
        buffer = Array(buffer[position...]) + block
        base += position
        position = 0
    }

    /// One element (or the array's end) read from the bytes so far.
    private func step() -> Step {
        buffer[position...].withByteView { view in
            do throws(JSONError) {
                var reader = try JSONReader(view)
                reader.skipBlanks()
                guard let byte = reader.peek else { return .needMore }
                if byte == UInt8(ascii: "]") {
                    reader.index += 1
                    reader.skipBlanks()
                    guard reader.index == reader.end else { return .failed(reader.unexpected()) }
                    return .end(through: reader.index)
                }
                if started { try reader.expect(UInt8(ascii: ",")) }
                guard let value = try JSONValue.read(&reader, depth: 1, decimalsAsText: true) else {
                    return .failed(.badNumber(at: reader.index))
                }
                // A value that ends where the bytes so far end may go on (a number).
                if reader.index == reader.end && !exhausted { return .needMore }
                return .element(value, through: reader.index)
            } catch {
                return .failed(error)
            }
        }
    }

    /// The failure a byte that may not stand somewhere is, as ``JSONReader`` says it.
    static func failure(in bytes: [UInt8], at index: Int) -> JSONError {
        bytes.withByteView { view in
            guard var reader = try? JSONReader(view) else { return .tooLarge(bytes: view.count) }
            reader.index = index
            return reader.unexpected()
        }
    }
}

extension JSONError {
    /// Where in its input the failure is; nil for one that is not at a byte.
    public var offset: Int? {
        switch self {
        case .unexpected(_, let at), .tooDeep(let at), .badNumber(let at), .controlCharacter(let at), .badEscape(let at),
            .loneSurrogate(let at), .invalidUTF8(let at):
            at
        case .unexpectedEnd, .tooLarge: nil
        }
    }

    /// The same failure, its offset moved by `distance`: a part's failure as the whole
    /// input's.
    public func shifted(by distance: Int) -> JSONError {
        switch self {
        case .unexpected(let scalar, let at): .unexpected(scalar, at: at + distance)
        case .tooDeep(let at): .tooDeep(at: at + distance)
        case .badNumber(let at): .badNumber(at: at + distance)
        case .controlCharacter(let at): .controlCharacter(at: at + distance)
        case .badEscape(let at): .badEscape(at: at + distance)
        case .loneSurrogate(let at): .loneSurrogate(at: at + distance)
        case .invalidUTF8(let at): .invalidUTF8(at: at + distance)
        case .unexpectedEnd, .tooLarge: self
        }
    }
}
