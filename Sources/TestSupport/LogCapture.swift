import Foundation
import Logging
import Synchronization

/// Collects every log line (message and metadata) so a test can check what the server logs.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// A logger at trace level that writes into this capture.
    public func logger(label: String = "captured") -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Everything logged so far, one line per entry.
    public var all: [String] { lines.withLock { $0 } }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
            let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(rendered)")
        }
    }
}
