import Logging
import NIOCore

/// Passes log events on to another handler, except one that is not an error for Bazaar:
/// hummingbird-websocket logs "Error handling upgrade result" at error level whenever the server
/// closes a connection before its first request head (NIO fails the pending upgrade with
/// `inappropriateOperationForState`). Bazaar closes such connections on purpose (idle and header
/// timeouts, the per-address cap, a stop), by the thousand under a slow-loris attack, so that
/// one event is demoted to debug.
struct ExpectedCloseLogFilter: LogHandler {
    /// The handler events go to.
    var wrapped: any LogHandler

    private static let upgradeFailure: Logger.Message = "Error handling upgrade result"
    private static let closedBeforeFirstRequest = "\(ChannelError.inappropriateOperationForState)"

    func log(event: LogEvent) {
        var event = event
        if event.level >= .error, event.message == Self.upgradeFailure,
            event.metadata?["error.type"]?.description == Self.closedBeforeFirstRequest
        {
            guard wrapped.logLevel <= .debug else { return }
            event.level = .debug
        }
        wrapped.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }
}

extension Logger {
    /// This logger with ``ExpectedCloseLogFilter`` in front of its handler.
    var filteringExpectedCloses: Logger {
        var logger = self
        logger.handler = ExpectedCloseLogFilter(wrapped: handler)
        return logger
    }
}
