import NavStackBytes

/// Where output goes: the screen stream or the error stream.
public enum Channel: Sendable {
    case output
    case error
}

/// Receives what the interpreter prints. The executable's sink flushes the output
/// stream before it writes an error, so a transcript keeps its order.
public protocol OutputSink: AnyObject {
    func write(_ text: String, to channel: Channel)
    /// Writes the UTF-8 text `fill` appends to the bytes it is given (a sink with a
    /// buffer gives its buffer).
    func write(to channel: Channel, _ fill: (inout [UInt8]) -> Void)
}

extension OutputSink {
    /// Collects the bytes and writes them as a `String`.
    public func write(to channel: Channel, _ fill: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        fill(&bytes)
        write(String(decoding: bytes, as: UTF8.self), to: channel)
    }
}

/// Turns input lines into router commands and their printed answers: echo, screens in
/// text or JSON, errors with their line numbers.
///
/// One interpreter serves the interactive terminal, piped scripts, `-c` commands and
/// the tests.
public struct Interpreter {
    public enum Format: String, CaseIterable, Sendable {
        case text
        case json
    }

    public struct Options: Sendable {
        public var format: Format
        /// Print each input line before its output: prefixed `> ` in text, as an
        /// `{"echo": …}` object in JSON Lines.
        public var echo: Bool
        /// Errors as `navstack: line N: …` (a script) rather than `error: …` (a person).
        public var numberErrors: Bool
        /// Columns of a text screen.
        public var width: Int
        /// Emphasis on screens (a colour terminal) or none.
        public var style: TextStyle
        /// Errors in red (stderr is a colour terminal).
        public var colorErrors: Bool
        /// Whether the text of screens printed before is printed again for the same
        /// screen, rather than laid out anew. Off only for the tests, which compare the
        /// bytes printed with and without it.
        public var memoizes = true

        public init(
            format: Format = .text, echo: Bool = false, numberErrors: Bool = true, width: Int = 80,
            style: TextStyle = .plain, colorErrors: Bool = false
        ) {
            self.format = format
            self.echo = echo
            self.numberErrors = numberErrors
            self.width = width
            self.style = style
            self.colorErrors = colorErrors
        }
    }

    /// What became of a line.
    public enum Outcome: Equatable, Sendable {
        /// A blank line or a comment.
        case nothing
        case succeeded
        case failed
        case quit
    }

    public var router: Router
    public var options: Options
    /// What is kept while what a screen's bytes depend on (the format, the width, the
    /// style and the language) stays the same: a terminal assigns its width again every
    /// line, which changes nothing when the window kept its size.
    private var kept: Kept?
    /// The screen printed last: what ``refresh(before:to:)`` compares with.
    private var shownScreen: Screen?
    /// The number of the last line handled.
    public private(set) var lineNumber = 0
    /// How many commands failed.
    public private(set) var failures = 0

    public init(router: Router, options: Options) {
        self.router = router
        self.options = options
    }

    /// Prints the first screen.
    public mutating func launch(to sink: some OutputSink) throws(NavError) {
        print(.screen(try router.show()), to: sink)
    }

    /// Handles one input line, given as the bytes read (without the line break).
    ///
    /// `length` is the line's full length when a reader kept only its first bytes.
    @discardableResult
    public mutating func handle(
        _ bytes: some Collection<UInt8>, length: Int? = nil,
        to sink: some OutputSink
    ) -> Outcome {
        handle(ArraySlice(bytes), length: length, to: sink)
    }

    /// Handles one input line, given as the bytes read (without the line break).
    @discardableResult
    public mutating func handle(_ bytes: [UInt8], length: Int? = nil, to sink: some OutputSink) -> Outcome {
        handle(bytes[...], length: length, to: sink)
    }

    /// Handles one input line, given as the bytes read (without the line break): a
    /// reader's slice of what it read, not copied.
    @discardableResult
    public mutating func handle(_ bytes: ArraySlice<UInt8>, length: Int? = nil, to sink: some OutputSink) -> Outcome {
        lineNumber += 1
        let length = length ?? bytes.count
        if options.echo { echo(bytes, length: length, to: sink) }
        do throws(NavError) {
            let split: (word: CommandWord, argument: String)?
            // A line of printable ASCII within the limit (nearly every line) is split from
            // its bytes, with nothing to decode or check first.
            switch length <= Limits.lineBytes ? Self.splitPlain(bytes) : nil {
            case .blank?: split = nil
            case .command(let word, let argument)?: split = (word, argument)
            case nil: split = try Command.split(try Self.decode(bytes, length: length))
            }
            guard let (word, argument) = split else { return .nothing }
            let response = try router.apply(try command(word, argument))
            if let failure = router.takeLinkFailure() {
                // Signed in, but the waiting link failed: the screen and the error.
                failures += 1
                print(response, failing: failure, to: sink)
                return .failed
            }
            // `undo` and `redo` say what they changed, in a line before the screen.
            if let step = router.takeStep(), options.format == .text {
                let catalog = router.configuration.catalog
                let words = OneShot.words(for: step, in: catalog)
                sink.write(catalog(word == .undo ? .shellUndid : .shellRedid, ("change", words)) + "\n", to: .output)
            }
            print(response, to: sink)
            return response == .quit ? .quit : .succeeded
        } catch {
            failures += 1
            report(error, to: sink)
            return .failed
        }
    }

    /// Prints an input line before its output: `> LINE` in text; in JSON Lines an object
    /// of its own, `{"echo": LINE, "line": N}`, so every line stays JSON.
    private func echo(_ bytes: ArraySlice<UInt8>, length: Int, to sink: some OutputSink) {
        let line = String(decoding: bytes.prefix(Limits.lineBytes), as: UTF8.self) + (length > Limits.lineBytes ? "…" : "")
        switch options.format {
        case .text: sink.write("> " + line.escapedForDisplay + "\n", to: .output)
        case .json: sink.write("{\"echo\":" + line.jsonQuoted + ",\"line\":\(lineNumber)}\n", to: .output)
        }
    }

    /// Handles one line of text.
    @discardableResult
    public mutating func handle(_ line: String, to sink: some OutputSink) -> Outcome {
        handle(ArraySlice(line.utf8), to: sink)
    }

    /// Parses a command's argument; when the argument is wrong and the command is not
    /// available here anyway, says that instead, which helps more.
    private func command(_ word: CommandWord, _ argument: String) throws(NavError) -> Command {
        do {
            return try Command(word: word, argument: argument)
        } catch {
            try router.ensureAvailable(word)
            throw error
        }
    }

    /// The line split from its bytes when it is printable ASCII; else `nil`.
    private static func splitPlain(_ bytes: ArraySlice<UInt8>) -> Command.PlainLine? {
        bytes.withBytes { bytes in
            bytes.isPrintableASCII ? Command.split(printableASCII: bytes) : nil
        }
    }

    /// Checks and decodes a line: within the length limit, UTF-8, no NUL, no control
    /// character other than tab (``FieldRules/refuses(_:lines:)``). A bidi control or a
    /// zero-width character is taken, and shown escaped. `length` is the line's full length when only its
    /// first bytes were kept.
    public static func decode(_ bytes: some Collection<UInt8>, length: Int? = nil) throws(NavError) -> String {
        let length = length ?? bytes.count
        guard length <= Limits.lineBytes else { throw .lineTooLong(bytes: length) }
        // Printable ASCII and tabs need no more checks.
        if bytes.allSatisfy({ $0.isPrintableASCII || $0 == 0x09 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        guard !bytes.contains(0) else { throw .nulByte }
        guard let line = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        if let bad = line.unicodeScalars.first(where: { FieldRules.refuses($0, lines: false) }) {
            throw .controlCharacter(bad)
        }
        return line
    }

    /// The text renderer, and the text of what was printed so far: a session shows the
    /// same few screens again and again (back and forth, `where`, the list).
    private final class Kept {
        /// The options and the language it was made for.
        let format: Format
        let width: Int
        let style: TextStyle
        let memoizes: Bool
        let language: Language
        let renderer: TextRenderer
        let printed: Memo<Response, PrintedBytes>

        init(_ options: Options, _ language: Language, renderer: TextRenderer) {
            format = options.format
            width = options.width
            style = options.style
            memoizes = options.memoizes
            self.language = language
            self.renderer = renderer
            printed = Memo(capacity: memoizes ? 32 : 0)
        }

        /// Whether what was kept prints as `options` and `wanted` would.
        func serves(_ options: Options, _ wanted: Language) -> Bool {
            format == options.format && width == options.width && style == options.style
                && memoizes == options.memoizes && language == wanted
        }
    }

    /// What is kept for the options and the router's language, made anew when what a
    /// screen's bytes depend on changed.
    private mutating func keptNow() -> Kept {
        let language = router.configuration.catalog.language
        if let kept, kept.serves(options, language) { return kept }
        let fresh = Kept(options, language, renderer: renderer)
        kept = fresh
        return fresh
    }

    private mutating func print(_ response: Response, to sink: some OutputSink) {
        if case .screen(let screen) = response { shownScreen = screen }
        let kept = keptNow()
        let printed = kept.printed.value(for: response) { Self.rendered(response, kept) }
        if !printed.isEmpty { sink.write(to: .output) { output in printed.withBytes { output.append(contentsOf: $0) } } }
    }

    /// A screen with the error of a command that did part of its work (`login` whose
    /// waiting link failed): in text the screen, then the error line; in JSON Lines one
    /// object, the screen's members and `error`.
    private mutating func print(_ response: Response, failing error: NavError, to sink: some OutputSink) {
        guard options.format == .json else {
            print(response, to: sink)
            return report(error, to: sink)
        }
        if case .screen(let screen) = response { shownScreen = screen }
        var text = ""
        JSONRenderer().render(response, to: &text)
        guard text.hasSuffix("}\n") else { return sink.write(text, to: .output) }
        text.removeLast(2)
        let quoted = error.message(in: router.configuration.catalog).jsonQuoted
        sink.write(text + ",\"error\":{\"message\":" + quoted + ",\"line\":\(lineNumber)}}\n", to: .output)
    }

    /// Reads the screen printed last again and, when what it prints changed (another
    /// process committed to the store), prints `before`, in text a line saying what
    /// changed, and the screen as it is now; whether it printed. A draft is never changed
    /// here: an edit screen shows its draft rebased on its task as stored now, with the
    /// fields both changed, as `save` will find them.
    public mutating func refresh(before: String = "", to sink: some OutputSink) -> Bool {
        guard let old = shownScreen, let new = try? router.show() else { return false }
        guard bytes(of: .screen(new)) != bytes(of: .screen(old)) else {
            shownScreen = new
            return false
        }
        var lead = before
        if options.format == .text {
            let t = router.configuration.catalog
            let line =
                switch new.tasksChanged(since: old) {
                case 0: t(.refreshScreen)
                case 1: t(.refreshOne)
                case let count: t(.refreshMany, ("count", count))
                }
            lead += line + "\n"
        }
        if !lead.isEmpty { sink.write(lead, to: .output) }
        print(.screen(new), to: sink)
        return true
    }

    /// What `response` prints, made afresh.
    private mutating func bytes(of response: Response) -> [UInt8] {
        Self.rendered(response, keptNow()).withBytes { Array($0) }
    }

    /// What `response` prints in the kept format.
    private static func rendered(_ response: Response, _ kept: Kept) -> PrintedBytes {
        switch kept.format {
        case .text: return kept.renderer.printed(response)
        case .json:
            var rendered: [UInt8] = []
            JSONRenderer().render(response, into: &rendered)
            return PrintedBytes(rendered)
        }
    }

    /// The text renderer for the current options and language.
    public var renderer: TextRenderer {
        TextRenderer(
            width: options.width, catalog: router.configuration.catalog, style: options.style, memoizes: options.memoizes,
            zone: router.configuration.clock.zone)
    }

    /// Writes an error as the options say: as JSON on the output, or on the error stream
    /// with its line number (a script) or `error:` (a person).
    private func report(_ error: NavError, to sink: some OutputSink) {
        let message = error.message(in: router.configuration.catalog)
        switch options.format {
        case .json:
            var text = ""
            JSONRenderer().renderError(message, line: lineNumber, to: &text)
            sink.write(text, to: .output)
        case .text:
            let (start, end) = options.colorErrors ? TextStyle.ansi.codes(for: .error) : ("", "")
            let prefix = options.numberErrors ? "navstack: line \(lineNumber): " : "error: "
            sink.write(start + prefix + message + end + "\n", to: .error)
        }
    }
}
