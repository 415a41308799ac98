import Logging

/// swift-log's `StreamLogHandler` with metadata rendered when a line is written, not when it is set.
///
/// `StreamLogHandler` renders its metadata to text on every change, and Hummingbird gives each
/// request a logger with its own `hb.request.id`: that was 5% of a product page's server CPU in
/// the load run, for lines that at the default level are never written. This keeps the metadata
/// as a dictionary and hands it to the stream handler with each line it logs, so the output is
/// exactly the stream handler's, less `hb.request.id`.
public struct LazyMetadataLogHandler: LogHandler {
    private var stream: StreamLogHandler
    private var own = HandlerMetadata()

    /// The logger's own metadata, rendered only into lines that are written.
    public var metadata: Logger.Metadata {
        get { own.all }
        set { own.all = newValue }
    }

    /// A handler writing to standard error, as swift-log's default handler does.
    public static func standardError(label: String) -> LazyMetadataLogHandler {
        LazyMetadataLogHandler(stream: .standardError(label: label))
    }

    /// Wraps `stream`, which should carry no metadata of its own.
    public init(stream: StreamLogHandler) {
        self.stream = stream
    }

    /// The least severe level written.
    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    /// Adds metadata from the task context to each line.
    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { own[key] }
        set { own[key] = newValue }
    }

    /// Writes the line with this logger's metadata under the line's own, leaving out Hummingbird's
    /// `hb.request.id` (``RequestLogMetadata/hiddenKey``): the line's request id is `request_id`.
    public func log(event: LogEvent) {
        var event = event
        if !own.written.isEmpty {
            event.metadata = own.written.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        stream.log(event: event)
    }
}
