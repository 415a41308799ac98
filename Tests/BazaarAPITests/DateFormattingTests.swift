import Foundation
import Testing

@testable import BazaarAPI

/// `BazaarJSON.formatDate` writes dates by arithmetic; `Date.ISO8601FormatStyle` is the reference.
@Suite("BazaarJSON.formatDate")
struct DateFormattingTests {
    static let edges: [Double] = [
        0, -0.001, -1, 0.0005, 0.9995, 951_782_400, 951_868_799.999,  // 1970, 1969, 2000-02-29
        -2_203_891_200, 4_107_542_400, 4_107_628_799.999,  // 1900-03-01, 2100-02-28
        // 0001, 9999-12-31, 2027, and one that rounds up to 2026
        -62_135_596_800, 253_402_300_799.999, 1_800_000_000.123, 1_767_225_599.9996,
    ]

    @Test("the arithmetic agrees with the ISO 8601 format style on edges and 4 000 random instants (new ones each run)")
    func arithmeticMatchesTheFormatStyle() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<4_000).map { _ in Double.random(in: -62_135_596_800...253_402_300_799, using: &generator) }
        for seconds in Self.edges + random {
            let date = Date(timeIntervalSince1970: seconds)
            let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
            #expect(BazaarJSON.formatDate(date) == BazaarJSON.formatDateWithStyle(millis: millis), "\(seconds)")
        }
    }

    @Test("known instants print as the contract shows them")
    func knownInstants() {
        #expect(BazaarJSON.formatDate(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(BazaarJSON.formatDate(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(BazaarJSON.formatDate(Date(timeIntervalSince1970: 1_767_225_599.9996)) == "2026-01-01T00:00:00.000Z")
        #expect(BazaarJSON.formatDate(Date(timeIntervalSince1970: 253_402_300_799.999)) == "9999-12-31T23:59:59.999Z")
    }

    @Test("years before 1583 (Julian in Foundation's calendar) and after 9999 take the format style's path")
    func outOfRangeYearsUseTheStyle() {
        let late = Date(timeIntervalSince1970: 253_402_300_800)  // 10000-01-01
        #expect(BazaarJSON.formatDate(late) == BazaarJSON.formatDateWithStyle(millis: 253_402_300_800_000))
        // 1582-10-04 in Foundation's Julian reckoning; the proleptic Gregorian day is 1582-10-14.
        #expect(BazaarJSON.formatDate(Date(timeIntervalSince1970: -12_219_379_200)) == "1582-10-04T00:00:00.000Z")
        #expect(BazaarJSON.civilDate(daysSince1970: -141_428) == (1582, 10, 14))
    }

    @Test("parsing the contract's forms by arithmetic gives the format style's very Date")
    func parsingMatchesTheFormatStyle() throws {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<4_000).map { _ in Double.random(in: -12_200_000_000...253_402_300_799, using: &generator) }
        for seconds in Self.edges + random {
            let text = BazaarJSON.formatDate(Date(timeIntervalSince1970: seconds))
            let parsed = try #require(BazaarJSON.parseDate(text), "\(text)")
            #expect(parsed == BazaarJSON.parseDateWithStyle(text), "\(text)")
            #expect(BazaarJSON.formatDate(parsed) == text)
            let whole = String(text.prefix(19)) + "Z"
            #expect(BazaarJSON.parseDate(whole) == BazaarJSON.parseDateWithStyle(whole), "\(whole)")
        }
    }

    @Test("anything but the contract's exact forms goes to the format style, which decides")
    func otherFormsGoToTheStyle() {
        for text in [
            "2026-02-30T00:00:00.000Z", "2026-13-01T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T03:22:60Z",
            "2026-11-22T03:22:12.1Z", "2026-11-22T03:22:12.123456Z", "2026-11-22T03:22:12+01:00",
            "2026-11-22 03:22:12Z",
            "1500-01-01T00:00:00Z", "２026-11-22T03:22:12Z", "", "not a date",
        ] {
            #expect(BazaarJSON.contractMillis(text) == nil, "\(text)")
            #expect(BazaarJSON.parseDate(text) == BazaarJSON.parseDateWithStyle(text), "\(text)")
        }
        #expect(BazaarJSON.contractMillis("2024-02-29T23:59:59.999Z") == 1_709_251_199_999)
        #expect(BazaarJSON.contractMillis("2023-02-29T00:00:00Z") == nil)
    }
}
