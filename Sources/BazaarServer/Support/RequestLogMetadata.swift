import Logging

/// What a request adds to the log lines written while it is served, read when a line is written
/// rather than set on the request's logger.
///
/// Setting `request_id` on each request's logger copied the logger's storage and its metadata
/// dictionary (twice: Hummingbird's own `hb.request.id` was removed too), ~1 µs of every request
/// for lines that at the default level are rarely written. Now ``RequestIDMiddleware`` binds the
/// id to the request's task, ``provider`` (installed on the server's logger by ``BazaarServer``)
/// adds it to each line written in that task or its children, and the server's handlers leave
/// out ``hiddenKey``.
public enum RequestLogMetadata {
    /// The id of the request the current task serves; `nil` outside one.
    @TaskLocal public static var requestID: String?

    /// `request_id` while a request is served; nothing otherwise.
    public static let provider = Logger.MetadataProvider {
        guard let requestID else { return [:] }
        return ["request_id": .string(requestID)]
    }

    /// Hummingbird's own per-request id (a counter), which ``JSONLogHandler`` and
    /// ``LazyMetadataLogHandler`` do not write: a line has one request id, the one the caller
    /// and the response's `X-Request-ID` know.
    public static let hiddenKey = "hb.request.id"

    /// `logger` with ``provider`` added to its handler's own provider, if any.
    static func installed(on logger: Logger) -> Logger {
        var logger = logger
        logger.handler.metadataProvider = .multiplex([logger.metadataProvider, provider].compactMap { $0 })
        return logger
    }
}
