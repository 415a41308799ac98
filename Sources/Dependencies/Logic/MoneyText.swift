import Foundation

/// How every renderer writes an amount, so the terminal and the browser agree.
public enum MoneyText {
    /// `€120.00`, `$5.50`, `£3.00`, else `12.00 SEK`; the minor unit is taken as cents.
    public static func format(cents: Int, currency: String) -> String {
        let amount = amount(cents: cents)
        switch currency.uppercased() {
        case "EUR": return "€" + amount
        case "USD": return "$" + amount
        case "GBP": return "£" + amount
        default: return amount + " " + currency.uppercased()
        }
    }

    /// `120.00`: the amount without a currency (a price filter spans currencies).
    public static func amount(cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        return sign + "\(abs(cents) / 100).\(String(format: "%02d", abs(cents) % 100))"
    }
}
