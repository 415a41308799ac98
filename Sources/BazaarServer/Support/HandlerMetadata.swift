import Logging

/// A log handler's own metadata, with Hummingbird's per-request id kept beside the dictionary
/// rather than in it; what ``JSONLogHandler`` and ``LazyMetadataLogHandler`` store.
///
/// Hummingbird gives every request a copy of the server's logger with its own `hb.request.id`.
/// In the dictionary, that set copied the dictionary (shared with the server's logger) on every
/// request; beside it, the copy shares the dictionary and sets one field. The id is never
/// written: a line's request id is `request_id` (``RequestLogMetadata``).
struct HandlerMetadata: Sendable {
    /// Everything but Hummingbird's id: what a written line carries.
    private(set) var written: Logger.Metadata = [:]
    private var hummingbirdRequestID: Logger.Metadata.Value?

    /// Empty metadata.
    init() {}

    /// One value, Hummingbird's id included.
    subscript(key: String) -> Logger.Metadata.Value? {
        get { key == RequestLogMetadata.hiddenKey ? hummingbirdRequestID : written[key] }
        set {
            if key == RequestLogMetadata.hiddenKey {
                hummingbirdRequestID = newValue
            } else {
                written[key] = newValue
            }
        }
    }

    /// All of it, Hummingbird's id included.
    var all: Logger.Metadata {
        get {
            guard let hummingbirdRequestID else { return written }
            return written.merging([RequestLogMetadata.hiddenKey: hummingbirdRequestID]) { _, id in id }
        }
        set {
            hummingbirdRequestID = newValue[RequestLogMetadata.hiddenKey]
            written = newValue
            written[RequestLogMetadata.hiddenKey] = nil
        }
    }
}
