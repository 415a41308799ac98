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

    init(content: ListingContent, nav: NavigationView) {
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
    }
}
