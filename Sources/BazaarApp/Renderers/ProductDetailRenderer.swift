import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws one product's page, and a product just listed for sale; no logic.
struct ProductDetailRenderer {
    /// The lines for a product's page at `width` columns; photo URLs are made absolute on `server`.
    func lines(for content: ProductDetailContent, server: URL, width: Int?) -> [ConsoleText] {
        var lines: [ConsoleText] = [content.product.title.consoleText(.heading) + "  " + Formats.price(content.product)]
        let photos = content.product.photoURLs.enumerated().map { index, url in
            ((index == 0 ? "Cover" : "Photo \(index + 1)"), Formats.absolute(url, on: server).consoleText(.muted))
        }
        lines += FieldList(
            [
                ("Seller", Formats.person(content.seller).consoleText()),
                ("Rating", RatingText.summary(of: content.seller).consoleText()),
                ("Seller ID", content.seller.id.consoleText(.muted)),
                (
                    "Status",
                    content.product.status.rawValue.consoleText(
                        content.product.status == .available ? .success : .warning)
                ),
                ("Saved by", "\(content.product.favouriteCount)".consoleText()),
                ("Listed", Formats.date(content.product.createdAt).consoleText()),
                ("ID", content.product.id.consoleText(.muted)),
                ("Photos", (photos.isEmpty ? "none" : "\(photos.count)").consoleText()),
            ] + photos
        ).render(width: width)
        lines.append("")
        lines += FieldList.wrap(content.product.description.consoleText(), width: width)
        lines.append("")
        lines.append(
            "The seller's page: bazaar seller \(KnownIDs.short(content.seller.id))".consoleText(.muted))
        lines.append(
            "Message the seller: bazaar chat start \(KnownIDs.short(content.seller.id)) --product \(KnownIDs.short(content.product.id))"
                .consoleText(.muted))
        return lines
    }

    /// The line confirming a product was listed.
    func listed(_ product: Product) -> [ConsoleText] {
        [
            "✓ Listed ".consoleText(.success) + product.title.consoleText(.heading) + " for " + Formats.price(product),
            "  id \(product.id)".consoleText(.muted),
        ]
    }
}
