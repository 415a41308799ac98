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
    ///
    /// Written out by arithmetic on the Gregorian calendar: a history page formats fifty dates,
    /// and `Date.ISO8601FormatStyle` took about a microsecond each. Years before 1583 (where
    /// Foundation's calendar is Julian) and after 9999 take the format style's path, so every
    /// instant prints exactly as it did.
    public static func formatDate(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var days = millis / 86_400_000
        var ofDay = millis % 86_400_000
        if ofDay < 0 {
            days -= 1
            ofDay += 86_400_000
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (1583...9999).contains(year) else { return formatDateWithStyle(millis: millis) }
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int64, at offset: Int, digits: Int) {
                var rest = value
                for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, at: 0, digits: 4)
            put(month, at: 5, digits: 2)
            put(day, at: 8, digits: 2)
            put(ofDay / 3_600_000, at: 11, digits: 2)
            put(ofDay / 60_000 % 60, at: 14, digits: 2)
            put(ofDay / 1000 % 60, at: 17, digits: 2)
            put(ofDay % 1000, at: 20, digits: 3)
            for (offset, byte) in separators { text[offset] = byte }
            text[19] = UInt8(ascii: ".")
            text[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// Year, month and day of the day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The same text through `Date.ISO8601FormatStyle`, for years the arithmetic leaves to it.
    static func formatDateWithStyle(millis: Int64) -> String {
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
    ///
    /// The contract's own forms (`yyyy-MM-ddTHH:mm:ss.SSSZ` and `yyyy-MM-ddTHH:mm:ssZ`, years
    /// 1583–9999) are read by arithmetic, as ``formatDate(_:)`` writes them; anything else goes to
    /// `Date.ISO8601FormatStyle`, which costs a few microseconds a date.
    public static func parseDate(_ text: String) -> Date? {
        if let millis = contractMillis(text) {
            return Date(timeIntervalSinceReferenceDate: Double(millis - 978_307_200_000) / 1000)
        }
        return parseDateWithStyle(text)
    }

    /// ``parseDate(_:)`` through `Date.ISO8601FormatStyle` alone.
    static func parseDateWithStyle(_ text: String) -> Date? {
        if let date = try? fractionalStyle.parse(text) { return date }
        return try? wholeSecondStyle.parse(text)
    }

    /// Milliseconds since 1970 of `text` when it is exactly one of the contract's forms with a
    /// valid Gregorian date and time from 1583 to 9999; otherwise `nil`.
    static func contractMillis(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { bytes -> Int64? in
            guard bytes.count == 24 || bytes.count == 20 else { return nil }
            func number(_ range: Range<Int>) -> Int64? {
                var value: Int64 = 0
                for index in range {
                    let digit = bytes[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int64(digit)
                }
                return value
            }
            guard separators.allSatisfy({ bytes[$0.offset] == $0.byte }), bytes[bytes.count - 1] == UInt8(ascii: "Z"),
                bytes.count == 20 || bytes[19] == UInt8(ascii: ".")
            else { return nil }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                let fraction = bytes.count == 24 ? number(20..<23) : 0,
                (1583...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60,
                day >= 1, day <= daysInMonth(month, year: year)
            else { return nil }
            let days = daysSince1970(year: year, month: month, day: day)
            return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + fraction
        }
    }

    /// Days from 1970-01-01 to a Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = year - (month <= 2 ? 1 : 0)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Where the contract's date form has its fixed separators (`yyyy-MM-ddTHH:mm:ss`), shared by
    /// the writer and the reader; `.` and `Z` follow the seconds.
    private static let separators: [(offset: Int, byte: UInt8)] = [
        (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
        (16, UInt8(ascii: ":")),
    ]

    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSecondStyle = Date.ISO8601FormatStyle()
}
