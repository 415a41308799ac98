import Foundation

/// Reads a `Retry-After` header: delta-seconds (`120`) or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// The wait the header asks for from `now`; `nil` when it is neither form. Past dates give zero.
    static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        return .milliseconds(Int64(max(0, interval) * 1000))
    }
}

/// HTTP dates (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), read and written.
enum HTTPDate {
    private static func makeFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    /// Parses an IMF-fixdate; `nil` for anything else.
    static func parse(_ value: String) -> Date? {
        makeFormatter().date(from: value)
    }

    /// Formats a date as an IMF-fixdate.
    static func format(_ date: Date) -> String {
        makeFormatter().string(from: date)
    }
}
