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

/// HTTP dates in the IMF-fixdate form every current server sends (`Sun, 06 Nov 1994 08:49:37 GMT`).
///
/// Parsed by hand: the cache reads `Date`, `Expires` and `Last-Modified` on every lookup, and a
/// `DateFormatter` would cost far more than the lookup itself.
enum HTTPDate {
    private static let months: [String: Int] = [
        "Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6,
        "Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12,
    ]

    /// Parses an IMF-fixdate; `nil` for anything else (obsolete RFC 850 and asctime forms included).
    static func parse(_ value: String) -> Date? {
        let bytes = Array(value.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " "),
            bytes[25...] == [UInt8(ascii: " "), UInt8(ascii: "G"), UInt8(ascii: "M"), UInt8(ascii: "T")],
            let day = number(bytes[5..<7]),
            let month = months[String(decoding: bytes[8..<11], as: UTF8.self)],
            let year = number(bytes[12..<16]),
            let hour = number(bytes[17..<19]), bytes[19] == UInt8(ascii: ":"),
            let minute = number(bytes[20..<22]), bytes[22] == UInt8(ascii: ":"),
            let second = number(bytes[23..<25]),
            (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
