import Logging

/// The lines of swift-log's `StreamLogHandler` on standard error, with the logger's own
/// metadata rendered only when a line is written. The database driver sets a connection's
/// id on the logger it is given at every statement, and `StreamLogHandler` renders all of
/// its metadata again at every such set: 3% of the server's CPU under many small syncs,
/// for lines that are almost never written. (The server sets no metadata provider: with
/// one, a provided value would not override the logger's own of the same key here.)
public struct ServerLogHandler: LogHandler {
    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    init(stream: StreamLogHandler) {
        self.stream = stream
    }

    public static func standardError(label: String) -> ServerLogHandler {
        ServerLogHandler(stream: .standardError(label: label))
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        stream.log(event: event)
    }
}
