import BazaarAPI
import Dependencies
import Foundation

/// A product as a card in a list: its cover at `thumb` size (with `medium` in the `srcset` for
/// wide or dense screens), title, price and status. The `productCard` template draws it.
struct ProductCardView: Sendable {
    var id: String
    var title: String
    var price: String
    var status: String
    var isAvailable: Bool
    /// The cover's `thumb` URL on the API server; `nil` for a product without photos.
    var cover: String?
    /// `thumb 240w, medium 960w`, so the browser picks what the card's width needs.
    var coverSet: String?
    /// The thumb's own size, so the page does not move as covers arrive.
    var coverWidth: Int
    var coverHeight: Int

    init(_ product: Product, server: URL?) {
        id = product.id
        title = product.title
        price = WebFormats.price(cents: product.priceCents, currency: product.currency)
        status = product.status.rawValue.capitalized
        isAvailable = product.status == .available
        let photo = product.photos.first
        cover = photo.map { WebFormats.absolute($0.thumbURL, on: server) }
        coverSet = photo.map {
            "\(WebFormats.absolute($0.thumbURL, on: server)) 240w, \(WebFormats.absolute($0.mediumURL, on: server)) 960w"
        }
        (coverWidth, coverHeight) = Self.fitted(photo, within: 240)
    }

    /// The size of `photo` scaled down to fit `side` pixels (its stored sizes are never scaled up);
    /// 4:3 when its size is not known.
    static func fitted(_ photo: Photo?, within side: Int) -> (Int, Int) {
        guard let width = photo?.width, let height = photo?.height, width > 0, height > 0 else {
            return (side, side * 3 / 4)
        }
        let longest = max(width, height)
        guard longest > side else { return (width, height) }
        return (max(1, width * side / longest), max(1, height * side / longest))
    }
}
