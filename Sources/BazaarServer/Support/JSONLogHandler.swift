import BazaarAPI
import Foundation
import Logging

/// Writes each log line as one JSON object on standard error, for a log collector to parse:
/// `time` (UTC, milliseconds), `level`, `message`, `label`, then every metadata key at the top
/// level (a request's `request_id`, `http.route`, `http.status`, `duration_ms`; the server's
/// `replica`) but Hummingbird's `hb.request.id` (``RequestLogMetadata/hiddenKey``). Metadata is
/// kept as a dictionary and rendered only into lines that are written, as
/// ``LazyMetadataLogHandler`` does for text.
public struct JSONLogHandler: LogHandler {
    private let label: String
    private let write: @Sendable (String) -> Void
    private var own = HandlerMetadata()
    /// The logger's own metadata.
    public var metadata: Logger.Metadata {
        get { own.all }
        set { own.all = newValue }
    }
    /// The least severe level written.
    public var logLevel: Logger.Level = .info
    /// Adds metadata from the task context to each line.
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler writing to standard error.
    public static func standardError(label: String) -> JSONLogHandler {
        JSONLogHandler(label: label) { line in
            // One write per line, so lines of concurrent requests do not interleave.
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// A handler giving each line (newline included) to `write`.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { own[key] }
        set { own[key] = newValue }
    }

    /// Writes the line.
    public func log(event: LogEvent) {
        var fields = own.written
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let own = event.metadata { fields.merge(own) { _, new in new } }
        var line = "{\"time\":\"\(Self.timestamp(Date()))\",\"level\":\"\(event.level.rawValue)\",\"message\":"
        Self.appendString(event.message.description, to: &line)
        line += ",\"label\":"
        Self.appendString(label, to: &line)
        for key in fields.keys.sorted() where !Self.reserved.contains(key) {
            line += ","
            Self.appendString(key, to: &line)
            line += ":"
            Self.append(fields[key] ?? .string(""), to: &line)
        }
        line += "}\n"
        write(line)
    }

    /// Keys the line's own fields use; metadata under them is not written twice.
    private static let reserved: Set<String> = ["time", "level", "message", "label"]

    /// `2026-11-26T12:00:00.123Z`, written by arithmetic as the API's dates are.
    static func timestamp(_ date: Date) -> String {
        BazaarJSON.formatDate(date)
    }

    private static func append(_ value: Logger.Metadata.Value, to line: inout String) {
        switch value {
        case .string(let text): appendString(text, to: &line)
        case .stringConvertible(let value): appendString(value.description, to: &line)
        case .array(let values):
            line += "["
            for (index, value) in values.enumerated() {
                if index > 0 { line += "," }
                append(value, to: &line)
            }
            line += "]"
        case .dictionary(let values):
            line += "{"
            for (index, key) in values.keys.sorted().enumerated() {
                if index > 0 { line += "," }
                appendString(key, to: &line)
                line += ":"
                append(values[key] ?? .string(""), to: &line)
            }
            line += "}"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and every control character escaped.
    static func appendString(_ text: String, to line: inout String) {
        line += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                line +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }
}
