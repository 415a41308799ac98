import BazaarAPI
import Dependencies
import Foundation

/// The seller's own listing page: the edit form, the status form (the statuses on offer, and the
/// people it can go to), and taking it down.
struct ListingView: Sendable {
    struct Choice: Sendable {
        var value: String
        var label: String
    }

    var title: String
    var nav: NavigationView
    var id: String
    var heading: String
    var status: String
    var form: ProductFormFields
    /// Whether it can still change (a sold listing cannot).
    var canChange: Bool
    var statusChoices: [Choice]
    var hasStatusChoices: Bool
    var buyers: [Choice]
    var hasBuyers: Bool
    /// The photos as the seller arranges them, cover first.
    var photos: [PhotoItem]
    /// How many more photos it can take (`nil` when none: the add form is not shown).
    var room: Int?
    /// A sentence for each photo the server did not take.
    var photoProblems: [String]

    /// One photo with the buttons that move or remove it (each a plain form).
    struct PhotoItem: Sendable {
        var thumb: String
        var label: String
        var width: Int
        var height: Int
        /// `/products/{id}/photos/{photo}`: the forms add `/move` or `/remove`.
        var action: String
        var isCover: Bool
        var isLast: Bool
        var earlier: Int
        var later: Int
    }

    init(content: ListingContent, nav: NavigationView, server: URL? = nil) {
        let product = content.product
        title = "Your listing: \(product.title)"
        heading = "Your listing"
        self.nav = nav
        id = product.id
        status = product.status.rawValue.capitalized
        form = ProductFormFields(draft: content.draft, errors: content.fieldErrors)
        canChange = content.canChange
        statusChoices = content.statusChoices.map { Choice(value: $0.rawValue, label: $0.rawValue.capitalized) }
        hasStatusChoices = !statusChoices.isEmpty
        buyers = content.buyers.map { Choice(value: $0.id, label: "\($0.displayName) (@\($0.username))") }
        hasBuyers = !buyers.isEmpty
        photos = product.photos.enumerated().map { index, photo in
            let (width, height) = ProductCardView.fitted(photo, within: 240)
            return PhotoItem(
                thumb: WebFormats.absolute(photo.thumbURL, on: server),
                label: index == 0 ? "Photo 1 (the cover)" : "Photo \(index + 1)", width: width, height: height,
                action: "/products/\(product.id)/photos/\(photo.id)", isCover: index == 0,
                isLast: index == product.photos.count - 1, earlier: index - 1, later: index + 1)
        }
        room = content.photoRoom > 0 ? content.photoRoom : nil
        photoProblems = content.photoProblems
    }
}
