import Foundation

/// Reads a price typed by a person, in the currency's major unit (`4.50`), as minor units.
public enum Price {
    /// `"120"` → 12000, `"4.5"` → 450, `"4.50"` → 450; `nil` for anything else (negative, three
    /// decimals, letters, absurdly large).
    public static func cents(from text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int(parts[0]), whole >= 0, whole < 100_000_000,
            parts[0].allSatisfy(\.isASCII)
        else { return nil }
        guard parts.count == 2 else { return whole * 100 }
        let fraction = parts[1]
        guard (1...2).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int(fraction)
        else {
            return nil
        }
        return whole * 100 + (fraction.count == 1 ? value * 10 : value)
    }

    /// Minor units as a person reads them, with the currency: 12000, `EUR` → `120.00 EUR`.
    public static func text(cents: Int, currency: String) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction) \(currency)"
    }
}
