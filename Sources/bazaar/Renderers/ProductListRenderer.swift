import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws the product list (browse and search); no logic.
struct ProductListRenderer {
    /// The lines for `content`, showing at most `limit` products, at `width` columns.
    func lines(for content: ProductListContent, limit: Int, width: Int?) -> [ConsoleText] {
        let shown = content.products.prefix(limit)
        guard !shown.isEmpty else {
            return [content.query.map { "No products match “\($0)”." } ?? "Nothing is for sale yet."].map { $0.consoleText(.muted) }
        }
        let table = Table(
            columns: [.init("ID"), .init("TITLE", flexible: true), .init("PRICE", alignRight: true), .init("LISTED")],
            rows: shown.map { product in
                [KnownIDs.short(product.id).consoleText(.muted), product.title.consoleText(), Formats.price(product), Formats.date(product.createdAt).consoleText(.muted)]
            })
        var lines = table.render(width: width)
        let more = content.hasMore || content.products.count > limit
        let summary = "\(shown.count) product\(shown.count == 1 ? "" : "s")" + (content.query.map { " matching “\($0)”" } ?? "")
            + (more ? "; more with --limit" : "")
        lines.append(summary.consoleText(.muted))
        return lines
    }
}
