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
            let message =
                content.search.isEmpty
                ? "Nothing is for sale yet." : "No products match\(Self.describe(content.search))."
            return [message.consoleText(.muted)]
        }
        // A status column only when the list holds more than what is for sale.
        let withStatus = shown.contains { $0.status != .available }
        let table = Table(
            columns: [
                .init("ID"), .init("TITLE", flexible: true), .init("PRICE", alignRight: true),
                .init("PHOTOS", alignRight: true),
            ] + (withStatus ? [.init("STATUS")] : []) + [.init("LISTED")],
            rows: shown.map { product in
                [
                    KnownIDs.short(product.id).consoleText(.muted), product.title.consoleText(), Formats.price(product),
                    (product.photoURLs.isEmpty ? "–" : "\(product.photoURLs.count)").consoleText(.muted),
                ]
                    + (withStatus
                        ? [product.status.rawValue.consoleText(product.status == .available ? .success : .warning)]
                        : [])
                    + [Formats.date(product.createdAt).consoleText(.muted)]
            })
        var lines = table.render(width: width)
        let more = content.hasMore || content.products.count > limit
        let summary =
            "\(shown.count) product\(shown.count == 1 ? "" : "s")"
            + (content.search.isEmpty ? "" : " matching\(Self.describe(content.search))")
            + (more ? "; more with --limit" : "")
        lines.append(summary.consoleText(.muted))
        return lines
    }

    /// The search in words: ` “road bike”, from 20.00, up to 50.00, by 3f2a…, cheapest first`.
    static func describe(_ search: ProductSearch) -> String {
        var parts: [String] = []
        if let text = search.text { parts.append("“\(text)”") }
        if let low = search.minPriceCents { parts.append("from \(Formats.amount(cents: low))") }
        if let high = search.maxPriceCents { parts.append("up to \(Formats.amount(cents: high))") }
        if let seller = search.sellerId { parts.append("by \(KnownIDs.short(seller))") }
        switch search.status {
        case .all?: parts.append("of any status")
        case .reserved?: parts.append("reserved")
        case .sold?: parts.append("sold")
        case .available?, nil: break
        }
        switch search.sort {
        case .priceAscending?: parts.append("cheapest first")
        case .priceDescending?: parts.append("dearest first")
        case .newest? where search.text != nil: parts.append("newest first")
        default: break
        }
        return parts.isEmpty ? "" : " " + parts.joined(separator: ", ")
    }
}
