import Foundation

/// The JSON encoders and decoders configured for the Bazaar wire contract.
///
/// Dates travel as ISO 8601 strings in UTC with a `Z` and millisecond precision
/// (`2026-11-22T03:22:12.123Z`); decoding also accepts the form without fractional seconds.
public enum BazaarJSON {
    /// A new encoder for contract bodies: ISO 8601 UTC dates, sorted keys, unescaped slashes.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    /// A new decoder for contract bodies: accepts ISO 8601 dates with or without fractional seconds.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an ISO 8601 date, got \(text)")
            }
            return date
        }
        return decoder
    }

    /// Formats a date the way the contract writes it: `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC.
    public static func formatDate(_ date: Date) -> String {
        date.formatted(fractionalStyle)
    }

    /// Parses an ISO 8601 date with or without fractional seconds; `nil` when it is not one.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? fractionalStyle.parse(text) { return date }
        return try? wholeSecondStyle.parse(text)
    }

    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSecondStyle = Date.ISO8601FormatStyle()
}
