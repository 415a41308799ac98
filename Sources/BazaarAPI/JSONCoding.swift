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

    /// Formats a date the way the contract writes it: `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, rounded
    /// to the nearest millisecond (so the same instant always prints the same text).
    public static func formatDate(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = millis / 1000
        var fraction = millis % 1000
        if fraction < 0 {
            seconds -= 1
            fraction += 1000
        }
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(wholeSecondStyle)
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// The date rounded to the nearest millisecond, the precision the contract carries.
    public static func roundedToMillis(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(Int64((date.timeIntervalSince1970 * 1000).rounded())) / 1000)
    }

    /// Parses an ISO 8601 date with or without fractional seconds; `nil` when it is not one.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? fractionalStyle.parse(text) { return date }
        return try? wholeSecondStyle.parse(text)
    }

    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSecondStyle = Date.ISO8601FormatStyle()
}
