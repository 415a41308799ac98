import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// How renderers write money, dates and ids, the same on every screen.
enum Formats {
    /// `€120.00`, `$5.50`, `£3.00`, else `12.00 SEK`; the minor unit is taken as cents.
    static func money(cents: Int, currency: String) -> String {
        MoneyText.format(cents: cents, currency: currency)
    }

    /// `120.00`, with no currency.
    static func amount(cents: Int) -> String {
        MoneyText.amount(cents: cents)
    }

    /// `url` (a path the server gave) as a full URL on `server`.
    static func absolute(_ url: String, on server: URL) -> String {
        URL(string: url, relativeTo: server)?.absoluteString ?? url
    }

    /// A product's price, styled.
    static func price(_ product: Product) -> ConsoleText {
        money(cents: product.priceCents, currency: product.currency).consoleText(.price)
    }

    /// `2026-11-22 08:20` (UTC), the same on every machine.
    static func date(_ date: Date) -> String {
        let iso = BazaarJSON.formatDate(date)
        return String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    /// `08:20` (UTC), for chat lines.
    static func time(_ date: Date) -> String {
        String(self.date(date).suffix(5))
    }

    /// `Ada Lovelace (@ada)`.
    static func person(_ user: User) -> String {
        "\(user.displayName) (@\(user.username))"
    }
}
